import {spawnSync} from 'node:child_process';
import {cpSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/cli-process.js';
import {fixturePath} from '../helpers/load.js';
import {scratchDirectories} from '../helpers/scratch.js';

const scratch = scratchDirectories('perscope-jobs-');

/** A `perstack` folder with two jobs: the delegation job and the released CLI's follow-up job. */
function jobsFolder(): string {
	const cwd = scratch();
	cpSync(fixturePath('jobs/perstack'), join(cwd, 'perstack'), {recursive: true});
	cpSync(fixturePath('released/jobdir-followup'), join(cwd, 'perstack/jobs/nh97zzzwnx6y4a76u4s8o5m3'), {recursive: true});
	return cwd;
}

function perscope(args: string[], cwd: string) {
	return spawnSync(process.execPath, [cliPath, ...args], {cwd, encoding: 'utf8'});
}

describe('--summary of a jobs folder', () => {
	it('--summary perstack listed the jobs instead of summarising them: it summarises every job, oldest first, as its directories given one by one', () => {
		const cwd = jobsFolder();
		const folder = perscope(['--summary', 'perstack'], cwd);
		expect(folder.status).toBe(0);
		// The delegation job started on 2026-11-21, the follow-up job on 2026-11-27.
		const byHand = perscope(['--summary', 'perstack/jobs/xrg3kr5eyfy4evxm775cs81p', 'perstack/jobs/nh97zzzwnx6y4a76u4s8o5m3'], cwd);
		expect(folder.stdout).toBe(byHand.stdout);
		expect(folder.stdout).toMatch(/^job xrg3kr5eyfy4evxm775cs81p {2}✓ completed {2}6 steps {2}7365 in \/ 71 out tokens/);
		expect(folder.stdout).toContain('\njob nh97zzzwnx6y4a76u4s8o5m3  ✓ completed  5 steps  7900 in / 112 out tokens');
		expect(folder.stdout).toContain('    child-expert  ✓ completed ');

		const json = JSON.parse(perscope(['--summary', '--json', 'perstack/jobs'], cwd).stdout) as {jobs: Array<{jobId: string; steps: number; runs: unknown[]}>};
		expect(json.jobs.map(job => [job.jobId, job.steps, job.runs.length])).toEqual([
			['xrg3kr5eyfy4evxm775cs81p', 6, 3],
			['nh97zzzwnx6y4a76u4s8o5m3', 5, 2],
		]);
	});

	it('--print and --json still list the jobs to open, newest first', () => {
		const cwd = jobsFolder();
		const listed = perscope(['--print', 'perstack'], cwd).stdout.split('\n');
		expect(listed[0]).toMatch(/^JOB +EXPERT +STATUS +STEPS +RUNS +STARTED/);
		expect(listed[1]).toMatch(/^nh97zzzwnx6y4a76u4s8o5m3 /);
		expect(listed[2]).toMatch(/^xrg3kr5eyfy4evxm775cs81p /);
	});
});
