import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectedLine, sessionsKilledAfterEach, shellQuote, type TmuxSession} from './tmux.js';

/*
 * A generated log of forty jobs in a real terminal: the tree lists the jobs, the header and the usage overlay
 * are about the job the selection is in, and a job row folds and unfolds. Runs `dist/`, so build first.
 */

const start = sessionsKilledAfterEach();
let dir = '';
let log = '';

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'perscope-many-jobs-'));
	log = join(dir, 'forty.ndjson');
	execFileSync(
		process.execPath,
		[join(repoRoot, 'build/tools/generate-log.js'), '--seed', '11', '--jobs', '40', '--steps', '6', '--deltas', '0', '--message-bytes', '120', '--out', log],
		{stdio: 'ignore'},
	);
});

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

const headerLines = (screen: string) => screen.split('\n').slice(0, 2);

/** The selected job's figures on the header's second line: `job 3/40: 10 steps · 20k in / 1.5k out`. */
function headerFigures(screen: string): {label: string; steps: string; input: string; output: string} {
	const match = /^(job \d+\/40): (\d+) steps? · (\S+) in \/ (\S+) out/.exec(headerLines(screen)[1] ?? '');
	if (!match) throw new Error(`no job figures in the header:\n${screen}`);
	return {label: match[1]!, steps: match[2]!, input: match[3]!, output: match[4]!};
}

/** The same figures on the selected job row: `▸ job 3/40 · coordinator ✓ completed · 10 steps · 20k↑ 1.5k↓`. */
function rowFigures(tty: TmuxSession): {label: string; steps: string; input: string; output: string} {
	const line = selectedLine(tty.screenWithStyles()) ?? '';
	const match = /^›[▸▾] (job \d+\/40) · coordinator \S+ \S+ · (\d+) steps? · (\S+)↑ (\S+)↓/.exec(line);
	if (!match) throw new Error(`the selection is not on a job row: ${line}`);
	return {label: match[1]!, steps: match[2]!, input: match[3]!, output: match[4]!};
}

/** The usage overlay's table rows, opened on the selection and closed again. */
async function usageRows(tty: TmuxSession, title: string): Promise<string[]> {
	tty.keys('u');
	const screen = await tty.waitFor(`Token usage per expert · ${title}`);
	tty.keys('Escape');
	await tty.waitFor(text => !text.includes('Token usage per expert'));
	return screen.split('\n').filter(line => /^(coordinator|researcher|test-runner) +\d+ /.test(line));
}

describe.skipIf(!hasTmux())('a log of forty jobs in the viewer', () => {
	it('lists the jobs folded but the last; moving to another job changes the header, its figures and the u overlay; a job row folds and unfolds', async () => {
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 120, height: 30});
		const first = await tty.waitFor(screen => /▾ job 40\/40 · coordinator/.test(screen) && screen.includes('● follow'));
		expect(headerLines(first)[0]).toMatch(/ · job 40\/40 \w+ · /);
		expect(first).toMatch(/^ ▸ job 39\/40 · coordinator ✓ completed · /m);
		const last = headerFigures(first);
		expect(last.label).toBe('job 40/40');
		// Both parts labelled, and at 120 columns the cost of all of them still shows (the event count is what is cut).
		expect(headerLines(first)[1]).toMatch(/^job 40\/40: \d+ steps · .* · all 40 jobs: \d+ steps · \S+ in \/ \S+ out · \$\d+\.\d\d /);

		// The first job: the header is about it, with the figures its row shows.
		tty.keys('g');
		const top = await tty.waitFor(screen => headerLines(screen)[0]!.includes('job 1/40'));
		expect(headerFigures(top)).toEqual(rowFigures(tty));
		const firstJobUsage = await usageRows(tty, 'job 1/40 · coordinator');
		expect(firstJobUsage.find(line => line.startsWith('coordinator'))).toMatch(/^coordinator +2 /);

		// u again inside the overlay: every job, and back.
		tty.keys('u');
		await tty.waitFor('Token usage per expert · job 1/40 · coordinator');
		tty.keys('u');
		const all = await tty.waitFor('Token usage per expert · all 40 jobs');
		expect(all).toMatch(/^coordinator +80 /m);
		expect(all).toContain('u: job 1/40 only');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Token usage per expert'));

		// The next job: the header and the overlay follow the selection.
		tty.keys('j');
		const second = await tty.waitFor(screen => headerLines(screen)[0]!.includes('job 2/40'));
		expect(headerFigures(second)).toEqual(rowFigures(tty));
		expect(headerFigures(second).label).toBe('job 2/40');
		const secondJobUsage = await usageRows(tty, 'job 2/40 · coordinator');
		expect(secondJobUsage).toHaveLength(3);
		expect(secondJobUsage).not.toEqual(firstJobUsage);

		// Its row unfolds to its panes and folds back.
		tty.keys('Right');
		const open = await tty.waitFor(screen => /^›▾ job 2\/40 · /m.test(screen) && /^ {3}▾ coordinator /m.test(screen));
		expect(open).toMatch(/^ {5}💬 query /m);
		tty.keys('Left');
		await tty.waitFor(screen => /^›▸ job 2\/40 · /m.test(screen) && /^ ▸ job 3\/40 · /m.test(screen));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('the header, t and u speak of the job the selection is in, at open and after a filter, though another job saw the latest event', async () => {
		// simple.ndjson's job is first in the tree and its events are the later ones; following selects the end of
		// delegate.ndjson's job, the second.
		const tty = start('node dist/bin/perscope.js fixtures/real/simple.ndjson fixtures/real/delegate.ndjson', {width: 120, height: 30});
		const opened = await tty.waitFor(screen => screen.includes('● follow') && screen.includes('▾ job 2/2 · coordinator'));
		expect(selectedLine(tty.screenWithStyles())).toContain('✅ complete The researcher reports');
		expect(headerLines(opened)[0]).toContain(' · job 2/2 xrg3kr5eyfy4 · ');
		tty.keys('t');
		await tty.waitFor('Timeline · job 2/2 xrg3kr5eyfy4');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Timeline'));
		tty.keys('u');
		await tty.waitFor('Token usage per expert · job 2/2 · coordinator');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Token usage per expert'));

		// The first job's row, then a filter that hides that job: the selection lands in the other, and so do they.
		tty.keys('g');
		await tty.waitFor(screen => headerLines(screen)[0]!.includes(' · job 1/2 ivc73wpbhfw5 · '));
		tty.keys(':');
		await tty.waitFor('enter apply');
		tty.keys('-l', 'expert:child-expert');
		tty.keys('Enter');
		const filtered = await tty.waitFor(screen => screen.includes('1 pane without matches hidden') && !screen.includes('job 1/2 ·'));
		expect(selectedLine(tty.screenWithStyles())).toBeDefined();
		expect(headerLines(filtered)[0]).toContain(' · job 2/2 xrg3kr5eyfy4 · ');
		tty.keys('t');
		await tty.waitFor('Timeline · job 2/2 xrg3kr5eyfy4');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Timeline'));
		tty.keys('u');
		await tty.waitFor('Token usage per expert · job 2/2 · coordinator');
		tty.keys('Escape');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
