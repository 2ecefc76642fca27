import {describe, expect, it} from 'vitest';
import {countOf, startCli, waitUntil} from '../../../test/helpers/cli-process.js';

const script = 'fixtures/scripts/slow-events.mjs';

describe('perscope -- COMMAND (a real child process)', () => {
	it('streams the transcript while the command runs, passes stderr through, and exits with its code', async () => {
		const run = startCli(['--print', '--', process.execPath, script, '3']);
		const exit = await run.exit;
		const stderr = run.stderr();
		expect(exit).toEqual({code: 3, signal: null});

		const doneAt = Number(/\[slow-events\] done at (\d+)/.exec(stderr)?.[1]);
		expect(doneAt).toBeGreaterThan(0);
		const first = run.stdoutLines.find(line => line.text.includes('slow query 1'));
		expect(first, run.stdout()).toBeDefined();
		// Shown while the script was still running, not collected until it ended.
		expect(first!.at).toBeLessThan(doneAt);

		for (const number of [1, 2, 3]) {
			expect(countOf(run.stdout(), `💬 query slow query ${number}`)).toBe(1);
			expect(countOf(run.stdout(), `✅ complete slow answer ${number}`)).toBe(1);
		}

		expect(stderr).toContain('[stderr] starting\n');
		expect(stderr).toContain('[stderr] working on run 2\n');
		// The non-JSON stdout line is a diagnostic (line 3 of the child's stdout), never transcript.
		expect(stderr).toMatch(/^perscope: .*slow-events\.mjs 3:3: not JSON/m);
		expect(run.stdout()).not.toContain('this line is not JSON');
	}, 15_000);

	it('reports a child killed by a signal as 128 + its number', async () => {
		const run = startCli(['--print', '--', process.execPath, script, 'kill']);
		expect(await run.exit).toEqual({code: 137, signal: null});
		expect(run.stdout()).toContain('slow answer 2');
		expect(run.stdout()).not.toContain('slow query 3');
	}, 15_000);

	it('passes Ctrl-C on to the command and exits the way it ended', async () => {
		const run = startCli(['--print', '--', process.execPath, script, 'hang']);
		await waitUntil(
			() => run.stderr().includes('waiting for a signal') && run.stdout().includes('slow answer 3'),
			'the command to wait',
			() => run.stderr(),
		);
		run.child.kill('SIGINT');
		// Node's default SIGINT handling kills the script by the signal: 128 + 2.
		expect(await run.exit).toEqual({code: 130, signal: null});
	}, 15_000);

	it('gives one clear message and 127 for a command that does not exist', async () => {
		const run = startCli(['--print', '--', 'perscope-no-such-command-xyz', '--flag']);
		expect(await run.exit).toEqual({code: 127, signal: null});
		expect(run.stderr()).toBe('perscope: cannot run perscope-no-such-command-xyz: command not found\n');
		expect(run.stdout()).toBe('');
	}, 15_000);

	it('gives 127 for a file that is not executable, in --summary --json mode too', async () => {
		const run = startCli(['--summary', '--json', '--', 'fixtures/real/simple.ndjson']);
		expect(await run.exit).toEqual({code: 127, signal: null});
		expect(run.stderr()).toBe('perscope: cannot run fixtures/real/simple.ndjson: permission denied\n');
	}, 15_000);

	it('gives the child exit code in --summary --json mode, with the summary on stdout', async () => {
		const run = startCli(['--summary', '--json', '--', process.execPath, script, '4']);
		expect(await run.exit).toEqual({code: 4, signal: null});
		const summary: unknown = JSON.parse(run.stdout());
		expect(summary).toMatchObject({jobs: [{jobId: 'slow-job', status: 'completed', steps: 1, stepsRun: 3}]});
		expect(run.stderr()).toContain('[stderr] working on run 3\n');
	}, 15_000);

	it('refuses an empty command', async () => {
		const run = startCli(['--print', '--']);
		expect(await run.exit).toEqual({code: 2, signal: null});
		expect(run.stderr()).toBe('perscope: no command after --\n');
	}, 15_000);
});
