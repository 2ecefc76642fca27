import {spawnSync} from 'node:child_process';
import {chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import type {Summary} from '../../source/output/summary.js';
import {cliPath, repoRoot, startCli} from '../helpers/cli-process.js';
import {openToEveryone, perscopeUnprivileged} from '../helpers/unprivileged.js';
import {hasTmux, sessionsKilledAfterEach, shellQuote} from '../e2e/tmux.js';

/*
 * Job directories (perstack/jobs/<id>/runs/<runId>/event-*.json) that are not what they should be: an event file
 * that is a FIFO or a link to a device that never ends, a run or `runs/` that cannot be read. Each is made here,
 * from a copy of the fixture job, and read by the real, built CLI, headless and in the viewer.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-hostile-jobs-'));
afterAll(() => {
	// What the tests took away is given back, so that everything can be removed.
	spawnSync('chmod', ['-R', 'u+rwx', dir]);
	rmSync(dir, {recursive: true, force: true});
});

const fixtureJob = join(repoRoot, 'fixtures/jobs/perstack/jobs/xrg3kr5eyfy4evxm775cs81p');
const childRun = 'mycc7mg8nbsgxciteyvrtyci';
let made = 0;

/** A copy of the fixture job (3 runs, 41 events; the child run holds 21 of them) under a jobs root of its own. */
function copyOfJob(): {root: string; job: string} {
	const root = join(dir, `root-${++made}`);
	const job = join(root, 'jobs', 'xrg3kr5eyfy4evxm775cs81p');
	mkdirSync(join(root, 'jobs'), {recursive: true});
	cpSync(fixtureJob, job, {recursive: true});
	return {root, job};
}

/** The fixture job, with a FIFO nobody writes to and links to /dev/zero and /dev/urandom among the child run's event files. */
function jobWithDevices(): {root: string; job: string; hostile: string[]} {
	const {root, job} = copyOfJob();
	const run = join(job, 'runs', childRun);
	const fifo = join(run, 'event-1795294858300-3-callTools.json');
	expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
	const zero = join(run, 'event-1795294858301-3-resolveToolResults.json');
	symlinkSync('/dev/zero', zero);
	const random = join(run, 'event-1795294858302-3-finishToolCall.json');
	symlinkSync('/dev/urandom', random);
	return {root, job, hostile: [fifo, zero, random]};
}

function perscope(args: string[], timeout = 20_000) {
	return spawnSync(process.execPath, [cliPath, ...args], {cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout, killSignal: 'SIGKILL'});
}

const clean = JSON.parse(perscope(['--summary', '--json', fixtureJob]).stdout) as Summary;

describe('regressions: event files that are not regular files', () => {
	it('an event file that is a FIFO or a link to /dev/zero or /dev/urandom hung the headless modes with no output: each is a diagnostic naming it, and the rest is read', () => {
		const {job, hostile} = jobWithDevices();
		const result = perscope(['--summary', '--json', job]);
		expect(result.signal).toBeNull();
		expect(result.status, result.stderr).toBe(0);
		const summary = JSON.parse(result.stdout) as Summary;
		expect(summary.events).toBe(clean.events);
		expect(summary.jobs).toEqual(clean.jobs);
		expect(summary.diagnostics).toEqual([
			{line: 0, source: hostile[0], reason: 'not read: it is a FIFO, not a regular file'},
			{line: 0, source: hostile[1], reason: 'not read: it is a character device, not a regular file'},
			{line: 0, source: hostile[2], reason: 'not read: it is a character device, not a regular file'},
		]);

		// On stderr, each names its file, with no `:0` for a line that is not there.
		const printed = perscope(['--print', job]);
		expect(printed.status).toBe(0);
		expect(printed.stdout).toContain('[child-expert]');
		expect(printed.stderr.split('\n').filter(Boolean).sort()).toEqual(
			[
				`${hostile[0]}: not read: it is a FIFO, not a regular file`,
				`${hostile[1]}: not read: it is a character device, not a regular file`,
				`${hostile[2]}: not read: it is a character device, not a regular file`,
			]
				.map(line => `perscope: ${line}`)
				.sort(),
		);
	});

	it('the job list (`perscope perstack`) hung on such a job: it lists it', () => {
		const {root} = jobWithDevices();
		const result = perscope(['--print', root]);
		expect(result.signal).toBeNull();
		expect(result.status).toBe(0);
		expect(result.stdout).toMatch(/^xrg3kr5eyfy4evxm775cs81p +coordinator +✓ completed +6 +3 /m);
	});

	it('SIGTERM while following such a job ends perscope at once', async () => {
		const {job} = jobWithDevices();
		const run = startCli(['--print', '--follow', job]);
		// The whole job, then following: the devices were passed over, not waited on.
		await new Promise<void>((resolve, reject) => {
			const timer = setInterval(() => {
				if (run.stdout().includes('✓ run completed · 2 steps')) {
					clearInterval(timer);
					resolve();
				}
			}, 20);
			setTimeout(() => {
				clearInterval(timer);
				reject(new Error(`never read the job:\n${run.stdout()}\n${run.stderr()}`));
			}, 10_000);
		});
		const sentAt = Date.now();
		run.child.kill('SIGTERM');
		expect(await run.exit).toEqual({code: 0, signal: null});
		expect(Date.now() - sentAt).toBeLessThan(3000);
	});
});

const start = sessionsKilledAfterEach();

describe.skipIf(!hasTmux())('regressions: event files that are not regular files, in the viewer', () => {
	it('`q` blanked the screen but the process never exited: it exits 0, and `d` lists the files not read', async () => {
		const {job} = jobWithDevices();
		// Wide enough for the diagnostics' long paths.
		const tty = start(`node dist/bin/perscope.js ${shellQuote(job)}`, {width: 250});
		await tty.waitFor('delegate child-expert');
		tty.keys('d');
		await tty.waitFor('not read: it is a FIFO, not a regular file');
		expect(tty.screen()).not.toMatch(/event-\d+-\d+-\w+\.json:0 /);
		tty.keys('Escape', 'q');
		expect(await tty.exitCode(5000)).toBe(0);
	});

	it('SIGTERM, SIGHUP and SIGINT did not end the viewer of such a job: each ends it with 128 + its number', async () => {
		for (const [signal, code] of [
			['TERM', 143],
			['HUP', 129],
			['INT', 130],
		] as const) {
			const {job} = jobWithDevices();
			const pidFile = join(dir, `viewer-${signal}.pid`);
			const tty = start(`sh -c ${shellQuote(`echo $$ > ${shellQuote(pidFile)}; exec node dist/bin/perscope.js ${shellQuote(job)}`)}`);
			await tty.waitFor('delegate child-expert');
			spawnSync('sh', ['-c', `kill -${signal} "$(cat ${shellQuote(pidFile)})"`]);
			expect(await tty.exitCode(5000), signal).toBe(code);
		}
	});

	it('the chooser hung listing such a job: it lists it, opens it, and quits', async () => {
		const {root} = jobWithDevices();
		const tty = start(`node dist/bin/perscope.js ${shellQuote(root)}`);
		await tty.waitFor('newest first');
		tty.keys('Enter');
		await tty.waitFor('delegate child-expert');
		tty.keys('q');
		expect(await tty.exitCode(5000)).toBe(0);
	});
});

describe('regressions: parts of a job that cannot be read', () => {
	it('an unreadable run directory was dropped without a word (20 of 41 events, exit 0): it is a diagnostic naming it', () => {
		const {root, job} = copyOfJob();
		openToEveryone([dir], root);
		const run = join(job, 'runs', childRun);
		chmodSync(run, 0o000);
		const result = perscopeUnprivileged(['--summary', '--json', job]);
		expect(result.status, result.stderr).toBe(0);
		const summary = JSON.parse(result.stdout) as Summary;
		expect(summary.events).toBe(20);
		expect(summary.diagnostics).toEqual([{line: 0, source: run, reason: `cannot read ${run}: permission denied; the events of this run are not shown`}]);
		const printed = perscopeUnprivileged(['--print', job]);
		expect(printed.stderr).toBe(`perscope: cannot read ${run}: permission denied; the events of this run are not shown\n`);
	});

	it('an unreadable runs/ gave "0 events", exit 0: it says what it could not read, and exits 1', () => {
		const {root, job} = copyOfJob();
		openToEveryone([dir], root);
		const runs = join(job, 'runs');
		chmodSync(runs, 0o000);
		const result = perscopeUnprivileged(['--summary', job]);
		expect(result.status).toBe(1);
		expect(result.stderr).toBe(
			`perscope: cannot read ${runs}: permission denied; the runs in it are not shown\nperscope: cannot read ${job}: none of its event files could be read\n`,
		);
	});

	it('an unreadable event file says which, and the rest is read', () => {
		const {root, job} = copyOfJob();
		openToEveryone([dir], root);
		const file = join(job, 'runs', childRun, 'event-1795294858224-2-startRun.json');
		chmodSync(file, 0o000);
		const result = perscopeUnprivileged(['--summary', '--json', job]);
		expect(result.status, result.stderr).toBe(0);
		const summary = JSON.parse(result.stdout) as Summary;
		expect(summary.events).toBe(clean.events - 1);
		expect(summary.diagnostics).toEqual([{line: 0, source: file, reason: `cannot read ${file}: permission denied`}]);
	});
});
