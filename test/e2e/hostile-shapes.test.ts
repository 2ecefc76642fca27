import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectedLine, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * The viewer on shapes a fleet or a hostile log can give the run tree (issue #22), in a real terminal: a
 * delegation chain deeper than the call stack, a delegation ring, and inputs that never say anything.
 *
 * What is asserted here is behaviour: the chain opens, every key is answered, its deepest run is reached, nothing
 * crashes. A chain 20,000 runs deep is past every threshold the viewer has for it: deeper than a recursion over
 * the tree could go (the crash of #22 was at this depth), over 5,000 panes and runs (its layout and its job's
 * figures are made in slices) and its 22 MB over 8 MB (it loads in a worker). How fast and how small the viewer
 * stays at #22's full scale (chains of 20,000 and 100,000, 200,000 runs, 500,000 calls) is `npm run bench`'s
 * (bench/bench-viewer-shapes.mjs: the same keys on the same shapes). A chain of 100,000 here took over a minute
 * on two busy cores and went through the same code (the parallel reading of files over 64 MB on 4 cores or more
 * aside, which test/e2e/loading.test.ts and test/perf/fast-path-cli.test.ts drive with small chunks).
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-shapes-'));
const start = sessionsKilledAfterEach();

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

async function waitForFile(path: string, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') {
		if (Date.now() > deadline) throw new Error(`${path} never appeared`);
		await new Promise(resolve => setTimeout(resolve, 50));
	}
}

function shapeLog(shape: string, runs: number): string {
	const path = join(dir, `${shape}-${runs}.ndjson`);
	execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--shape', shape, '--runs', String(runs), '--out', path], {stdio: 'ignore'});
	return path;
}

describe.skipIf(!hasTmux())('the viewer on hostile tree shapes', () => {
	it('a chain 20,000 runs deep opens, expands all (e), goes to the top (g) and to the deepest run (G), folds all (E), unfolds its top pane (enter), finds its deepest activity (/) and quits (q) with 0', async () => {
		const tty = start(`node dist/bin/perscope.js ${shellQuote(shapeLog('chain', 20_000))}`, {width: 120, height: 30});
		// Finished children are folded at first: the coordinator and its first child.
		await tty.waitFor('▸ expert-1 ', 30_000);
		tty.keys('e');
		// Following, the selection stays on the newest activity: the bottom of the chain.
		const bottom = await tty.waitFor('done run-19999', 30_000);
		// Deep panes are drawn at a capped indent and say their depth, so the deepest run is on screen.
		expect(bottom).toMatch(/▾ expert-19999 \(depth 19999\)/);
		tty.keys('g');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('expert-0') === true, 30_000);
		tty.keys('G');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('done run-19999') === true, 30_000);
		tty.keys('E');
		await tty.waitFor(screen => screen.includes('▸ expert-0 ') && !screen.includes('expert-19999'), 30_000);
		tty.keys('g', 'Enter');
		await tty.waitFor(screen => screen.includes('▾ expert-0 ') && screen.includes('▸ expert-1 '), 30_000);
		// A search match deep in the folded chain unfolds every pane above it in one change (one per level took most of a minute).
		tty.keys('/', 'done run-19998', 'Enter');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('done run-19998') === true, 10_000);
		tty.keys('q');
		expect(await tty.exitCode(30_000)).toBe(0);
	}, 120_000);

	it('a delegation ring shows all its runs, the one whose link closes the cycle at the top, marked', async () => {
		const tty = start(`node dist/bin/perscope.js ${shellQuote(shapeLog('ring', 3))}`, {width: 120, height: 20});
		const screen = await tty.waitFor('expert-0', 15_000);
		expect(screen).not.toContain('Waiting for events');
		expect(screen).toMatch(/▾ expert-2 ⟲ delegation cycle/);
		// Live runs stay open: the ring's runs nest under the one at the top, each query under its run.
		const order = ['expert-2', 'query of run-2', 'expert-1', 'query of run-1', 'expert-0', 'query of run-0'].map(text => screen.indexOf(text));
		expect(order.every(at => at !== -1)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
		tty.keys('e', 'G');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('query of run-0') === true, 15_000);
		tty.keys('q');
		expect(await tty.exitCode(15_000)).toBe(0);
	}, 60_000);

	it.each([
		['SIGTERM', 143],
		['SIGINT', 130],
		['SIGHUP', 129],
	] as const)(
		'-f on a FIFO that nobody writes to ends on %s with %i',
		async (signal, code) => {
			const fifo = join(dir, `fifo-${signal}`);
			execFileSync('mkfifo', [fifo]);
			const pidFile = join(dir, `pid-${signal}`);
			const tty = start(`sh -c 'echo $$ > ${pidFile}; exec node dist/bin/perscope.js -f ${fifo}'`);
			await tty.waitFor('Waiting for events', 15_000);
			const pid = Number(execFileSync('cat', [pidFile], {encoding: 'utf8'}).trim());
			process.kill(pid, signal);
			expect(await tty.exitCode(3000)).toBe(code);
		},
		30_000,
	);

	it('events on a pipe that stays silent: the viewer ends on SIGTERM with 143', async () => {
		const pidFile = join(dir, 'pid-silent');
		const codeFile = join(dir, 'code-silent');
		// The writer never writes nor exits: the code is written as soon as perscope ends, not when the pipeline does.
		const tty = start(`sleep 120 | { sh -c 'echo $$ > ${pidFile}; exec node dist/bin/perscope.js'; echo $? > ${codeFile}; }`);
		await tty.waitFor('Waiting for events', 15_000);
		await waitForFile(pidFile);
		process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
		await waitForFile(codeFile, 3000);
		expect(readFileSync(codeFile, 'utf8').trim()).toBe('143');
	}, 30_000);

	it('-f on a file that does not exist yet ends on SIGTERM with 143', async () => {
		const pidFile = join(dir, 'pid-missing');
		const tty = start(`sh -c 'echo $$ > ${pidFile}; exec node dist/bin/perscope.js -f ${join(dir, 'not-yet.ndjson')}'`);
		await tty.waitFor('waiting', 15_000);
		const pid = Number(execFileSync('cat', [pidFile], {encoding: 'utf8'}).trim());
		process.kill(pid, 'SIGTERM');
		expect(await tty.exitCode(3000)).toBe(143);
	}, 30_000);
});
