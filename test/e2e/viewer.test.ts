import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {waitUntil} from '../helpers/cli-process.js';
import {hasTmux, selectedLine, sessionsKilledAfterEach, TmuxSession} from './tmux.js';

/*
 * The built CLI in a real pseudo-terminal: events piped on stdin, keys typed into the same terminal.
 * These run `dist/bin/perscope.js`, so `npm test` builds first.
 */

const start = sessionsKilledAfterEach();
/** Files the tests make; removed after them, whether they passed or not. */
const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-viewer-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

/** Pages down until `text` is on screen (the inspector is longer than the terminal). */
async function pageUntil(tty: TmuxSession, text: string): Promise<string> {
	let screen = tty.screen();
	for (let page = 0; page < 20 && !screen.includes(text); page++) screen = await tty.keysThenChange('PageDown');
	return tty.waitFor(text, 1000);
}

describe.skipIf(!hasTmux())('the interactive viewer in a terminal', () => {
	it('reads events from a pipe while keys come from the terminal: expand, collapse, inspect, quit', async () => {
		const tty = start('cat fixtures/real/delegate.ndjson | node dist/bin/perscope.js');
		await tty.waitFor('▸ child-expert');
		expect(tty.screen()).toContain('✓ completed');

		// Follow selects the newest activity; three rows up is the finished child, folded by default.
		tty.keys('k', 'k', 'k');
		await tty.waitFor(screen => selectedLine(tty.screenWithStyles())?.includes('child-expert') === true && screen.includes('paused'));
		tty.keys('l');
		const expanded = await tty.waitFor('▾ child-expert');
		expect(expanded).toContain('📁 list .');
		expect(expanded).toContain('📄 read README.txt');

		tty.keys('h');
		await tty.waitFor('▸ child-expert');

		// Down to the coordinator's `attempt completion`, open the inspector on it.
		tty.keys('j', 'j', 'Enter');
		const inspector = await tty.waitFor('Inspector');
		expect(inspector).toContain('attemptCompletion');
		// The raw event is at the end of the inspector: G scrolls there.
		const bottom = await pageUntil(tty, 'Raw event');
		expect(bottom).toContain('"type": "callTools"');

		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Inspector') && screen.includes('▸ child-expert'));

		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
		// The alternate screen is gone: the shell's own output is back and nothing of the viewer remains.
		const after = tty.screen();
		expect(after).toContain('BEFORE-PERSCOPE');
		expect(after).not.toContain('child-expert');
	});

	it('keys keep working after the program writing the pipe exits (Node resets the terminal on exit)', async () => {
		const exited = join(dir, 'exited');
		const tty = start(`{ node test/e2e/fixtures/feed-slowly.mjs fixtures/real/delegate.ndjson 0 0 2>/dev/null; touch ${exited}; } | node dist/bin/perscope.js`);
		await tty.waitFor('ended');
		// The writer has exited (and restored its idea of the terminal mode) once the file after it exists.
		await waitUntil(() => existsSync(exited), 'the writer to exit');
		tty.keys('k');
		await tty.waitFor('paused');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('shows a live run as it arrives and keeps the newest activity in sight', async () => {
		const tty = start('node test/e2e/fixtures/feed-slowly.mjs fixtures/real/tools.ndjson 15 0 2>/dev/null | node dist/bin/perscope.js', {height: 20});
		await tty.waitFor('live');
		await tty.waitFor('📄 read missing-file.txt');
		// While events still arrive, the newest activity is the selected (followed) row.
		const during = await tty.waitFor(screen => screen.includes('☑ todo done 3'));
		expect(during).toContain('● follow');
		await tty.waitFor(screen => screen.includes('✅ complete') && screen.includes('ended'), 10_000);
		expect(selectedLine(tty.screenWithStyles())).toContain('✅ complete');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('once the input has ended with no events, says so ("no events in FILE", the bad lines with d) instead of "Waiting for events…"', async () => {
		const tty = start(
			`printf 'not json\\n{"x":1}\\n' > ${dir}/perscope-e2e-no-events-${process.pid}.ndjson && node dist/bin/perscope.js ${dir}/perscope-e2e-no-events-${process.pid}.ndjson`,
		);
		const screen = await tty.waitFor(now => now.includes('· ended') && now.includes('no events in '));
		expect(screen).toContain(`no events in perscope-e2e-no-events-${process.pid}.ndjson · 2 bad lines: d`);
		expect(screen).not.toContain('Waiting for events');
		tty.keys('d');
		await tty.waitFor('not JSON');
		tty.keys('Escape');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);

		const piped = start(': | node dist/bin/perscope.js');
		const nothing = await piped.waitFor(now => now.includes('· ended') && now.includes('no events from stdin'));
		expect(nothing).not.toContain('bad line');
		expect(nothing).not.toContain('Waiting for events');
		piped.keys('q');
		expect(await piped.exitCode()).toBe(0);
	});

	it('moving up pauses follow, and G resumes it', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/tools.ndjson');
		await tty.waitFor('✅ complete');
		tty.keys('k');
		await tty.waitFor('paused');
		tty.keys('G');
		await tty.waitFor('● follow');
		expect(selectedLine(tty.screenWithStyles())).toContain('✅ complete');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('re-lays out on resize and stays usable at 60×15, truncating instead of wrapping', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/delegate.ndjson', {width: 100, height: 30});
		await tty.waitFor('▸ child-expert');
		tty.resize(60, 15);
		const small = await tty.waitFor(screen => screen.split('\n').some(line => line.includes('complete The researcher') && line.trimEnd().endsWith('…')));
		const lines = small.trimEnd().split('\n');
		expect(lines.length).toBeLessThanOrEqual(15);
		expect(lines.every(line => line.length <= 60)).toBe(true);
		expect(small).toContain('perscope');
		expect(small).toContain('▸ child-expert');
		tty.keys('e');
		await tty.waitFor('📁 list .');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('perscope perstack lists the saved jobs on a clean screen and opens the one chosen', async () => {
		const tty = start('cd fixtures/jobs && node ../../dist/bin/perscope.js perstack');
		// The job is listed by its name (`… reading`) until it is read: on a busy machine, past the list's first frame.
		const list = await tty.waitFor(
			now =>
				now.includes('newest first') &&
				now
					.split('\n')
					.find(line => line.startsWith('›'))
					?.includes('coordinator') === true,
		);
		// The chooser's title is the first row, not written after the placeholder shown while Ink loaded.
		expect(list.split('\n')[0]).toMatch(/^perscope · 1 job in perstack/);
		tty.keys('Enter');
		const opened = await tty.waitFor('delegate child-expert');
		// The header names the job directory by its last segment.
		expect(opened.split('\n')[0]).toContain('· xrg3kr5eyfy4evxm775cs81p ·');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('regression: Enter typed while perscope perstack starts, before the chooser is drawn, opens the job', async () => {
		const tty = start('cd fixtures/jobs && node ../../dist/bin/perscope.js perstack');
		// At once, before Node has even started: the key waits in the terminal, which is not raw yet, and reaches
		// perscope before its chooser is drawn. (Waiting for the first screen's `starting…` to type it missed that
		// screen on a fast machine: the chooser replaced it between two looks at the terminal.)
		tty.keys('Enter');
		await tty.waitFor('delegate child-expert');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('--replay plays a log back at its pace in the viewer, and q stops it', async () => {
		const tty = start('node dist/bin/perscope.js --replay=1 fixtures/demo.ndjson');
		// A second into a ten-second job: its start is on screen, its end is not yet.
		const early = await tty.waitFor(screen => screen.includes('replay 1×') && screen.includes('query CI is red on main'));
		expect(early).not.toContain('✅ complete');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('DEV=true in the environment crashed the viewer: the bundled Ink looked for its package.json in dev mode', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/simple.ndjson', {env: {DEV: 'true'}});
		await tty.waitFor('✅ complete');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('opens the help overlay with ? and closes it with esc', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/simple.ndjson');
		await tty.waitFor('✅ complete');
		tty.keys('?');
		const help = await tty.waitFor('Keys');
		expect(help).toContain('expand all / collapse all');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('expand all / collapse all'));
		tty.keys('C-c');
		expect(await tty.exitCode()).toBe(0);
	});

	it('searches a log, jumps between matches, and filters it down to the errors', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/demo.ndjson', {height: 34, width: 120});
		await tty.waitFor('✅ complete Fixed.');
		tty.keys('g', '/', 'vitest');
		await tty.waitFor('1/7 matches');
		tty.keys('Enter', 'n');
		const second = await tty.waitFor('/vitest 2/7');
		// The match was inside the folded test-runner pane: it opened, and the match is selected.
		expect(second).toContain('▾ test-runner');
		expect(
			tty
				.screen()
				.split('\n')
				.find(line => line.startsWith('›')),
		).toContain('exec npm test');
		tty.keys('N');
		await tty.waitFor('/vitest 1/7');
		tty.keys('Escape', 'x');
		const errors = await tty.waitFor('filter errors');
		expect(errors).toContain('⚡ exec npm test ✗');
		expect(errors).not.toContain('📄 read package.json');
		expect(errors).toMatch(/\(\d+ hidden\)/);
		tty.keys('x');
		await tty.waitFor(screen => !screen.includes('filter errors'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('NO_COLOR removes every colour, and the selection is still marked in the gutter', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/delegate.ndjson', {env: {NO_COLOR: '1'}});
		await tty.waitFor('▸ child-expert');
		const styled = tty.screenWithStyles();
		// No SGR colour parameters (30–37, 90–97, 38;…), whatever tmux keeps of the output.
		expect(styled).not.toMatch(/\u001B\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7])(?:;[0-9;]*)?m/);
		expect(
			tty
				.screen()
				.split('\n')
				.find(line => line.startsWith('›')),
		).toContain('✅ complete');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('refuses interactive mode with no terminal for keys, pointing to --print', async () => {
		// setsid drops the controlling terminal: stdout is still a terminal, but /dev/tty cannot be opened.
		const tty = start('cat fixtures/real/simple.ndjson | setsid -w node dist/bin/perscope.js');
		const code = await tty.exitCode();
		expect(code).toBe(2);
		expect(tty.screen().replaceAll('\n', '')).toContain('use --print');
	});
});
