import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectedLine, sessionsKilledAfterEach, shellQuote, type TmuxSession} from './tmux.js';

/*
 * The timeline (`t`) of a many-job log in a real terminal: it shows the job the selection is in, and `enter`
 * on a step row takes the tree there. The log is generated (seeded, so the same every run).
 */

const start = sessionsKilledAfterEach();
let dir = '';
let log = '';

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'perscope-timeline-'));
	log = join(dir, 'jobs.ndjson');
	execFileSync(
		process.execPath,
		[
			join(repoRoot, 'build/tools/generate-log.js'),
			'--seed',
			'3',
			'--jobs',
			'4',
			'--steps',
			'6',
			'--children',
			'1',
			'--deltas',
			'0',
			'--message-bytes',
			'100',
			'--out',
			log,
		],
		{stdio: 'ignore'},
	);
});

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

/** `job 2/4 abcdefghijkl` from the header: which job the selection is in. */
function headerJob(screen: string): {which: string; id: string} {
	const found = /job (\d+\/4) (\w{12})/.exec(screen.split('\n')[0] ?? '');
	if (!found) throw new Error(`no job in the header:\n${screen}`);
	return {which: found[1]!, id: found[2]!};
}

/** Moves the timeline's cursor down until its row matches `row`. */
async function cursorTo(tty: TmuxSession, row: RegExp): Promise<void> {
	for (let i = 0; i < 15; i++) {
		const screen = tty.screen();
		if (screen.split('\n').some(line => line.startsWith('›') && row.test(line))) return;
		const before = screen;
		tty.keys('j');
		await tty.waitFor(now => now !== before, 2000);
	}

	throw new Error(`the cursor never reached ${String(row)}:\n${tty.screen()}`);
}

describe.skipIf(!hasTmux())('the timeline of a many-job log', () => {
	it('shows the job the selection is in: moving the selection to another job changes it', async () => {
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 120, height: 40});
		await tty.waitFor('· ended');
		tty.keys('g');
		// The header's line, not a job row (which says `job 1/4` too).
		const top = headerJob(await tty.waitFor(screen => /job 1\/4 /.test(screen.split('\n')[0] ?? '')));
		tty.keys('t');
		const first = await tty.waitFor('Timeline');
		expect(first).toContain(`Timeline · job 1/4 ${top.id}`);
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Timeline'));
		tty.keys('G');
		const bottom = headerJob(await tty.waitFor(screen => /job 4\/4 /.test(screen.split('\n')[0] ?? '')));
		expect(bottom.id).not.toBe(top.id);
		tty.keys('t');
		const last = await tty.waitFor('Timeline');
		expect(last).toContain(`Timeline · job 4/4 ${bottom.id}`);
		expect(last).not.toContain(top.id);
	});

	it('enter on a step row closes the timeline and selects that step in the tree, unfolding a folded pane', async () => {
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 120, height: 40});
		await tty.waitFor('▸ researcher');
		tty.keys('t');
		await tty.waitFor('Timeline · job 4/4');
		await cursorTo(tty, /step \d+ delegates returned/);
		tty.keys('Enter');
		await tty.waitFor(screen => !screen.includes('Timeline') && selectedLine(tty.screenWithStyles())?.includes('delegation complete') === true);

		// The delegate's first step: its pane is folded in the tree, and opens on the way.
		tty.keys('t');
		await tty.waitFor('Timeline · job 4/4');
		await cursorTo(tty, /^› {4}step \d+ /);
		tty.keys('Enter');
		// The step's own first activity (#32 §3.9), under the query the delegate was given, right under its now unfolded pane.
		const tree = await tty.waitFor(screen => !screen.includes('Timeline') && selectedLine(tty.screenWithStyles()) !== undefined);
		const lines = tree.split('\n');
		const at = lines.findIndex(line => line.startsWith('›'));
		expect(lines[at]).not.toContain('💬 query');
		expect(lines[at - 1]).toContain('💬 query');
		expect(lines[at - 2]).toMatch(/▾ researcher/);
	});
});

describe.skipIf(!hasTmux())(
	'#32 §3.9 the timeline: enter lands on the step’s own first activity with context above; esc from its conversation comes back; a wait for an answer is marked',
	() => {
		it('enter on a step far down the tree selects what the step did, with a third of the screen above it', async () => {
			const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 120, height: 14});
			await tty.waitFor('· ended');
			// From the top, the last job's row (job 1 open above it), and its last step: below the first screen.
			tty.keys('g', 'j', 'j', 'j');
			await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('job 4/4') === true);
			tty.keys('t');
			await tty.waitFor('Timeline · job 4/4');
			// The delegate's first step.
			await cursorTo(tty, /^› {4}step \d+ /);
			tty.keys('Enter');
			const tree = await tty.waitFor(screen => !screen.includes('Timeline') && selectedLine(tty.screenWithStyles()) !== undefined);
			const lines = tree.split('\n');
			const at = lines.findIndex(line => line.startsWith('›'));
			// The header takes three rows, the footer one: of the tree's 10 rows, a third (3) are above the selection, not 9.
			expect(lines[at - 1]).toContain('💬 query');
			expect(at - 3).toBe(3);
		});

		it('c on a step opens its conversation, and esc comes back to the timeline on the same step', async () => {
			const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 120, height: 30});
			await tty.waitFor('· ended');
			tty.keys('t');
			await tty.waitFor('Timeline · job 4/4');
			await cursorTo(tty, /step \d+ delegates returned/);
			const row = (await tty.waitForSettled('Timeline · job 4/4')).split('\n').find(line => line.startsWith('›'))!;
			tty.keys('c');
			await tty.waitFor(screen => screen.includes('Conversation ·') && screen.includes('esc back to the timeline'));
			tty.keys('Escape');
			const back = await tty.waitForSettled('Timeline · job 4/4');
			expect(back.split('\n').find(line => line.startsWith('›'))).toBe(row);
			// A second esc closes the timeline.
			tty.keys('Escape');
			await tty.waitFor(screen => !screen.includes('Timeline ·'));
		});

		it('on the real interactive logs, the step after the question says it waited 19s for an answer', async () => {
			const tty = start('node dist/bin/perscope.js fixtures/real/interactive-1.ndjson fixtures/real/interactive-2-continue.ndjson', {width: 110, height: 20});
			await tty.waitFor('· ended');
			tty.keys('t');
			const screen = await tty.waitFor('Timeline ·');
			expect(screen).toMatch(/ ⋯ step 2 waited 19\.\ds for an answer /);
		});
	},
);

describe.skipIf(!hasTmux())('the untimed timeline drew no bars (a Codex exec file, whose lines carry no time)', () => {
	it('draws bars in the order the events came: the helper sub-agent inside the step that started it, and says it is untimed', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/codex/sub-agent.jsonl', {width: 100, height: 12});
		await tty.waitFor('· ended');
		tty.keys('t');
		const lines = (await tty.waitFor('untimed: bars in event order')).split('\n');
		const at = lines.findIndex(line => line.includes('Timeline ·'));
		const bar = (line: string | undefined) => /█+/.exec(line ?? '');
		const parent = bar(lines[at + 2]);
		const helper = bar(lines[at + 4]);
		expect(parent && helper).toBeTruthy();
		// Inside its parent's step, neither at its start nor at its end: it ran between the spawn and the answer.
		expect(helper!.index).toBeGreaterThan(parent!.index);
		expect(helper!.index + helper![0].length).toBeLessThan(parent!.index + parent![0].length);
	});
});
