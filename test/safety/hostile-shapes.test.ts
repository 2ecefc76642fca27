import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {cliPath, repoRoot, startCli, waitForFifoOpen} from '../helpers/cli-process.js';

/*
 * Shapes a fleet or a hostile log can give the run tree (issue #22), through the built CLI's headless modes:
 * nothing crashes, nothing is dropped, nothing is quadratic. The logs come from `generate-log --shape`.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-shapes-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

function shapeLog(shape: string, runs: number): string {
	const path = join(dir, `${shape}-${runs}.ndjson`);
	execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--shape', shape, '--runs', String(runs), '--out', path], {stdio: 'ignore'});
	return path;
}

function cli(...args: string[]) {
	return cliOnNode([], ...args);
}

/** The built CLI, with node's own options (`--stack-size=…`) before it. */
function cliOnNode(nodeOptions: readonly string[], ...args: string[]) {
	return spawnSync(process.execPath, [...nodeOptions, cliPath, ...args], {cwd: repoRoot, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024});
}

type SummaryJson = {jobs: Array<{runs: Array<{runId: string; parentRunId: string | null; delegationCycle?: boolean}>}>};

describe('a delegation ring (run-0 delegated by run-1, run-1 by run-2, run-2 by run-0)', () => {
	it('--summary --json lists every run with its parent, and marks the one whose link closes the cycle', () => {
		const result = cli('--summary', '--json', shapeLog('ring', 3));
		expect(result.status, result.stderr).toBe(0);
		const summary = JSON.parse(result.stdout) as SummaryJson;
		const runs = summary.jobs.flatMap(job => job.runs);
		// In tree order: the run that closed the cycle first, as the root, then what it delegated to.
		expect(runs.map(run => run.runId)).toEqual(['run-2', 'run-1', 'run-0']);
		expect(runs.map(run => run.parentRunId)).toEqual(['run-0', 'run-2', 'run-1']);
		expect(runs.filter(run => run.delegationCycle === true).map(run => run.runId)).toEqual(['run-2']);
	});

	it('--print shows every run of the ring and --summary marks the cycle', () => {
		const log = shapeLog('ring', 3);
		const print = cli('--print', log);
		expect(print.status, print.stderr).toBe(0);
		for (const run of ['run-0', 'run-1', 'run-2']) expect(print.stdout).toContain(`query of ${run}`);
		expect(print.stdout).toContain('[expert-2] 💬 query query of run-2 ⟲ delegation cycle: delegated by run-0\n');
		const table = cli('--summary', log);
		expect(table.status, table.stderr).toBe(0);
		expect(table.stdout).toMatch(/⟲ cycle expert-2\b/);
		expect(table.stdout).toMatch(/^ {4}expert-1\b/m);
		expect(table.stdout).toMatch(/^ {6}expert-0\b/m);
	});
});

describe('many runs', () => {
	it('--summary of 30,000 runs in one job prints its table (column widths once spread every row into Math.max)', () => {
		// A spread passes one argument per element on the stack: with Node's default stack it overflows at ~137,000
		// elements, with a 200 KB stack at ~26,000. So 30,000 runs on the small stack find what 130,000 runs found on
		// the default one (a spread of every row fails either way), at a quarter of the work. A ring: one job whose
		// runs arrive leaves first, the order that made depths quadratic (its time is the bench's hostile shapes).
		const result = cliOnNode(['--stack-size=200'], '--summary', shapeLog('ring', 30_000));
		expect(result.stderr).toBe('');
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('⟲ cycle expert-29999');
		expect(result.stdout).toContain('(depth 29999) expert-0 ');
	}, 60_000);

	// How long a deep chain takes (quadratic depths took minutes) is measured by `npm run bench`'s hostile shapes.
	it('--print of a chain 20,000 runs deep writes every run, indented by its depth', () => {
		const result = cli('--print', shapeLog('chain', 20_000));
		expect(result.status, result.stderr).toBe(0);
		const lines = result.stdout.trimEnd().split('\n');
		// Each run's query, answer and stop; the job's start, its end when the root completes, and again after the rest.
		expect(lines).toHaveLength(60_004);
		expect(lines.at(-3)).toContain('(depth 19999) [expert-19999] ✅ complete done run-19999');
		expect(lines.at(-2)).toContain('(depth 19999) [expert-19999] ✓ run completed · 1 step');
		// Every run of the made-up chain is at step 1: the counter says 1, and 20,000 steps were run.
		expect(lines.at(-1)).toMatch(/^── job job-chain ✓ completed · 1 step · 20000 steps run /);
	}, 60_000);
});

describe('a FIFO that nobody ever writes to', () => {
	it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
		'--print -f FIFO stops on %s promptly',
		async signal => {
			const fifo = join(dir, `fifo-${signal}`);
			execFileSync('mkfifo', [fifo]);
			const run = startCli(['--print', '-f', fifo]);
			await waitForFifoOpen(run.child.pid!);
			const sentAt = Date.now();
			run.child.kill(signal);
			const ended = await run.exit;
			expect(Date.now() - sentAt).toBeLessThan(3000);
			// README, exit codes: following stopped by Ctrl-C or SIGTERM in a headless mode exits 0; SIGHUP ends it by the signal.
			if (signal === 'SIGHUP') expect(ended.code === 129 || ended.signal === 'SIGHUP').toBe(true);
			else expect(ended).toEqual({code: 0, signal: null});
		},
		10_000,
	);
});
