import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {fixturePath} from '../helpers/load.js';

/*
 * A log cut while a run was open (a killed `perstack run | perscope --print`): once the input has ended, the
 * headless modes say that run ended without a final event rather than leave it looking as if it went on.
 */

/** real/delegate.ndjson cut in the middle of the delegate's run. */
const cut = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8').split('\n').slice(0, 20).join('\n') + '\n';

/** perscope ARGS with `input` piped to it, run in this process (test/helpers/cli-in-process.ts). */
async function perscope(args: string[], input: string): Promise<string> {
	const result = await perscopeInProcess(args, [Buffer.from(input)]);
	expect(result.code).toBe(0);
	return result.stdout;
}

describe('a run the input ended while it ran', () => {
	it('--print ends with a line saying so, under the coordinator that waited for it', async () => {
		const lines = (await perscope(['--print'], cut)).split('\n');
		const at = lines.indexOf('  [child-expert] ✗ ended without a final event: the input ended while this run was running');
		expect(at).toBeGreaterThan(0);
		expect(lines[at - 1]).toBe('[coordinator] ✗ the job ended while this run waited for its delegates: child-expert ended without a final event');
	});

	it('--print --filter errors writes those end lines, as x shows those runs; a filter that shows nothing where they ended writes none', async () => {
		const job = '── job xrg3kr5eyfy4evxm775cs81p · coordinator · started 2026-11-21 21:00:57 UTC';
		expect((await perscope(['--print', '--filter', 'errors'], cut)).split('\n')).toEqual([
			job,
			'[coordinator] ✗ the job ended while this run waited for its delegates: child-expert ended without a final event',
			'  [child-expert] ✗ ended without a final event: the input ended while this run was running',
			'',
		]);
		expect(await perscope(['--print', '--filter', 'errors expert:child-expert'], cut)).toBe(
			job + '\n  [child-expert] ✗ ended without a final event: the input ended while this run was running\n',
		);
		// With --filter only the matching activities are written, no marks: none of exec, so no end line either.
		expect(await perscope(['--print', '--filter', 'type:exec'], cut)).toBe('');
	});

	it('--summary says it in the ERROR column, and --summary --json marks the run', async () => {
		expect(await perscope(['--summary'], cut)).toMatch(/^ {4}child-expert +… proceeding .* ended without a final event$/m);
		const summary = JSON.parse(await perscope(['--summary', '--json'], cut)) as {
			jobs: Array<{runs: Array<{expertKey: string; endedWithoutFinalEvent?: true; endedWhileWaiting: unknown}>}>;
		};
		const runs = summary.jobs[0]!.runs;
		expect(runs.find(run => run.expertKey === 'child-expert')?.endedWithoutFinalEvent).toBe(true);
		expect(runs.find(run => run.expertKey === 'coordinator')).not.toHaveProperty('endedWithoutFinalEvent');
	});

	it('a log that ended says nothing of it', async () => {
		const whole = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8');
		expect(await perscope(['--print'], whole)).not.toContain('without a final event');
		expect(await perscope(['--summary', '--json'], whole)).not.toContain('endedWithoutFinalEvent');
	});
});
