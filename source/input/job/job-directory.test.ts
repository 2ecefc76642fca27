import {spawnSync} from 'node:child_process';
import {cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {Ingest} from '../../load/ingest.js';
import {buildSummary, type Summary} from '../../output/summary.js';
import {compareEventFiles} from './event-order.js';
import {resolveInputs} from '../inputs.js';
import {isJobDirectory, isJobsRoot, parseEventFileName} from './job-directory.js';
import {listJobs} from '../../load/job-listing.js';
import {RawEvents} from '../reread/raw-events.js';
import {runSources} from '../run-sources.js';
import {perscopeInProcess} from '../../../test/helpers/cli-in-process.js';
import {repoRoot, waitUntil} from '../../../test/helpers/cli-process.js';

const jobsRoot = join(repoRoot, 'fixtures/jobs/perstack');
const jobId = 'xrg3kr5eyfy4evxm775cs81p';
const jobDirectory = join(jobsRoot, 'jobs', jobId);

const directories: string[] = [];
function temporaryDirectory(): string {
	const directory = mkdtempSync(join(tmpdir(), 'perscope-jobs-'));
	directories.push(directory);
	return directory;
}

afterEach(() => {
	for (const directory of directories.splice(0)) rmSync(directory, {recursive: true, force: true});
});

/** The CLI's runs here are about what it reads and writes, not about its process: they run in this process (cli/run-cli.ts). */
async function summaryOf(args: string[]): Promise<Summary> {
	const run = await perscopeInProcess(['--summary', '--json', ...args]);
	expect(run.code, run.stderr).toBe(0);
	const parsed: Summary = JSON.parse(run.stdout);
	return parsed;
}

/** What the job layout keeps of a summary: everything but per-event counts (runtime events are not persisted). */
function outline(summary: Summary) {
	return summary.jobs.map(job => ({
		jobId: job.jobId,
		status: job.status,
		steps: job.steps,
		usage: job.usage,
		runs: job.runs.map(run => ({
			runId: run.runId,
			expertKey: run.expertKey,
			parentRunId: run.parentRunId,
			resumesRunId: run.resumesRunId,
			status: run.status,
			steps: run.steps,
			usage: run.usage,
			activities: run.activities,
			startedAt: run.startedAt,
			endedAt: run.endedAt,
			error: run.error,
		})),
	}));
}

function makeJobDirectory(input: string, root: string): void {
	const made = spawnSync(process.execPath, [join(repoRoot, 'fixtures/scripts/make-job-dir.mjs'), join(repoRoot, input), root], {encoding: 'utf8'});
	expect(made.status, made.stderr).toBe(0);
}

describe('Perstack job directories', () => {
	it('reads the persisted layout in event order: the same jobs, runs, statuses, steps and usage as the NDJSON log', async () => {
		const fromJob = await summaryOf([jobDirectory]);
		const fromLog = await summaryOf(['fixtures/real/delegate.ndjson']);
		expect(outline(fromJob)).toEqual(outline(fromLog));
		expect(fromJob.diagnostics).toEqual([]);
		// Only RunEvents are persisted: 41 of the log's 50 events.
		expect(fromJob.events).toBe(41);
	}, 15_000);

	it('prints the same transcript as the log', async () => {
		const fromJob = await perscopeInProcess(['--print', jobDirectory]);
		const fromLog = await perscopeInProcess(['--print', 'fixtures/real/delegate.ndjson']);
		// But for the cost: a job directory's event files hold no initializeRuntime, so no model to price.
		expect(fromLog.stdout).toContain(' tokens · $0.02 · ');
		expect(fromJob.stdout).toBe(fromLog.stdout.replace(' tokens · $0.02 · ', ' tokens · ? · '));
	}, 15_000);

	it('matches the fixture generator output (the committed fixture is up to date)', () => {
		const root = temporaryDirectory();
		makeJobDirectory('fixtures/real/delegate.ndjson', root);
		const list = (base: string) =>
			readdirSync(base, {recursive: true, withFileTypes: true})
				.filter(entry => entry.isFile())
				.map(entry => join(entry.parentPath, entry.name).slice(base.length))
				.sort();
		const generated = list(join(root, 'jobs', jobId));
		expect(generated).toEqual(list(jobDirectory));
		for (const path of generated) expect(readFileSync(join(root, 'jobs', jobId, path), 'utf8')).toBe(readFileSync(join(jobDirectory, path), 'utf8'));
	});

	it('reads pretty-printed event files, one event per file', async () => {
		const root = temporaryDirectory();
		cpSync(jobDirectory, join(root, jobId), {recursive: true});
		for (const runId of readdirSync(join(root, jobId, 'runs'))) {
			const runDirectory = join(root, jobId, 'runs', runId);
			for (const name of readdirSync(runDirectory)) {
				const path = join(runDirectory, name);
				writeFileSync(path, JSON.stringify(JSON.parse(readFileSync(path, 'utf8')), undefined, 2) + '\r\n');
			}
		}

		expect(outline(await summaryOf([join(root, jobId)]))).toEqual(outline(await summaryOf([jobDirectory])));
	}, 15_000);

	it('an event file holding one whole event and the tail of another keeps the event and reports the leftover bytes (#21.12)', async () => {
		const root = temporaryDirectory();
		cpSync(jobDirectory, join(root, jobId), {recursive: true});
		const runDirectory = join(root, jobId, 'runs', 'mycc7mg8nbsgxciteyvrtyci');
		const name = readdirSync(runDirectory).find(file => file.endsWith('-callTools.json'))!;
		const path = join(runDirectory, name);
		// The second write of the same millisecond was longer: the first event, then what is left of the second.
		writeFileSync(path, readFileSync(path, 'utf8').trimEnd() + '"totalTokens":1064,"cachedInputTokens":0}}\n');
		const run = await perscopeInProcess(['--summary', '--json', join(root, jobId)]);
		expect(run.code).toBe(0);
		const summary: Summary = JSON.parse(run.stdout);
		expect(outline(summary)).toEqual(outline(await summaryOf([jobDirectory])));
		expect(summary.diagnostics).toEqual([
			expect.objectContaining({source: path, reason: expect.stringMatching(/^42 bytes after the event's JSON were left over and skipped/)}),
		]);
	}, 15_000);

	it('points the inspector at the event file', async () => {
		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		const plan = resolveInputs([jobDirectory], {stdinIsTTY: false});
		expect(plan.inputs).toEqual([{kind: 'job', path: jobDirectory, label: jobDirectory}]);
		const raw = new RawEvents();
		raw.addPlan(plan);
		expect(await runSources(plan, ingest).done).toBe(0);
		const complete = ingest.model.activities.find(activity => activity.type === 'complete');
		expect(complete?.ref.source).toMatch(/event-\d+-\d+-completeRun\.json$/);
		expect(complete?.ref.line).toBe(1);
		const text = raw.read(complete!.ref);
		expect(JSON.parse(text ?? 'null')).toMatchObject({type: 'completeRun'});
	});

	it('orders ties by step, then by place in the state machine, then by name', () => {
		const file = (timestamp: number, step: number, type: string) => ({...parseEventFileName(`event-${timestamp}-${step}-${type}.json`)!, path: ''});
		const shuffled = [
			file(5, 2, 'completeRun'),
			file(5, 2, 'streamRunResult'),
			file(5, 2, 'someFutureEvent'),
			file(5, 2, 'attemptCompletion'),
			file(5, 2, 'startStreamingRunResult'),
			file(5, 1, 'continueToNextStep'),
			file(4, 9, 'finishToolCall'),
			file(5, 2, 'startRun'),
			file(5, 2, 'callTools'),
			file(5, 2, 'startGeneration'),
			file(5, 2, 'resolveToolResults'),
			file(5, 2, 'finishAllToolCalls'),
			file(5, 2, 'callDelegate'),
			{name: 'event-odd.json', timestamp: Number.NaN, step: Number.NaN, type: '', path: ''},
		];
		expect(shuffled.sort(compareEventFiles).map(entry => `${entry.timestamp}-${entry.step}-${entry.type}`)).toEqual([
			'4-9-finishToolCall',
			'5-1-continueToNextStep',
			'5-2-startRun',
			'5-2-startGeneration',
			'5-2-callTools',
			'5-2-callDelegate',
			'5-2-resolveToolResults',
			'5-2-attemptCompletion',
			'5-2-startStreamingRunResult',
			'5-2-streamRunResult',
			'5-2-finishAllToolCalls',
			'5-2-someFutureEvent',
			'5-2-completeRun',
			'NaN-NaN-',
		]);
	});
});

describe('listing jobs', () => {
	it('recognises jobs roots and job directories', () => {
		expect(isJobsRoot(jobsRoot)).toBe(true);
		expect(isJobsRoot(join(jobsRoot, 'jobs'))).toBe(true);
		expect(isJobsRoot(jobDirectory)).toBe(false);
		expect(isJobDirectory(jobDirectory)).toBe(true);
		expect(isJobDirectory(jobsRoot)).toBe(false);
		expect(resolveInputs([jobsRoot], {stdinIsTTY: false})).toMatchObject({inputs: [], jobsRoot});
	});

	it('lists jobs newest first, reduced by the same core', async () => {
		const root = temporaryDirectory();
		for (const log of ['fixtures/real/delegate.ndjson', 'fixtures/real/simple.ndjson', 'fixtures/real/error.ndjson']) makeJobDirectory(log, root);
		// An older runtime's job with only a job.json.
		mkdirSync(join(root, 'jobs', 'old-job'), {recursive: true});
		writeFileSync(
			join(root, 'jobs', 'old-job', 'job.json'),
			JSON.stringify({id: 'old-job', status: 'stoppedByMaxSteps', coordinatorExpertKey: 'legacy', totalSteps: 7, usage: {}, startedAt: 1_600_000_000_000}),
		);

		const jobs = listJobs(root);
		const summaries = await Promise.all(['simple', 'error', 'delegate'].map(name => summaryOf([`fixtures/real/${name}.ndjson`])));
		expect(jobs.map(job => job.jobId)).toEqual([...summaries.map(summary => summary.jobs[0]!.jobId), 'old-job']);
		for (const [index, summary] of summaries.entries()) {
			const job = summary.jobs[0]!;
			expect(jobs[index]).toMatchObject({jobId: job.jobId, status: job.status, steps: job.steps, usage: job.usage, runs: job.runs.length});
		}

		expect(jobs[2]).toMatchObject({coordinator: 'coordinator', path: join(root, 'jobs', jobId), startedAt: 1_795_294_857_945, lastEventAt: 1_795_294_858_570});
		expect(jobs[3]).toMatchObject({jobId: 'old-job', coordinator: 'legacy', status: 'stoppedByExceededMaxSteps', steps: 7, runs: 0});

		const table = await perscopeInProcess([root]);
		expect(table.code).toBe(0);
		const rows = table.stdout.trimEnd().split('\n');
		expect(rows[0]).toMatch(/^JOB +EXPERT +STATUS +STEPS +RUNS +STARTED +QUERY$/);
		expect(rows.slice(1).map(row => row.split(' ')[0])).toEqual(jobs.map(job => job.jobId));
		expect(rows[3]).toMatch(
			new RegExp(`^${jobId} +coordinator +✓ completed +6 +3 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +Find out what is in the workspace\\.$`),
		);

		const json = await perscopeInProcess(['--json', join(root, 'jobs')]);
		expect(json.code).toBe(0);
		expect(JSON.parse(json.stdout)).toEqual({root: join(root, 'jobs'), jobs: JSON.parse(JSON.stringify(jobs))});
	}, 15_000);

	it('refuses a jobs root mixed with other inputs', async () => {
		const run = await perscopeInProcess([jobsRoot, 'fixtures/real/simple.ndjson']);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/is a directory of jobs: give it on its own/);
	}, 15_000);
});

describe('following a job directory', () => {
	it('picks up new event files once each, waits for a half-written one, and reports a stale broken one', async () => {
		const root = temporaryDirectory();
		const job = join(root, jobId);
		cpSync(jobDirectory, job, {recursive: true});
		const runs = readdirSync(join(job, 'runs'));
		// Keep the first run only; the others arrive while following.
		const held = join(root, 'held');
		mkdirSync(held);
		const firstRun = 'p8bixwhzqxnvtac1rfy8lxyg';
		for (const runId of runs.filter(runId => runId !== firstRun)) cpSync(join(job, 'runs', runId), join(held, runId), {recursive: true});
		for (const runId of runs.filter(runId => runId !== firstRun)) rmSync(join(job, 'runs', runId), {recursive: true});

		const ingest = new Ingest({maxLineBytes: 1024 * 1024});
		const running = runSources(resolveInputs([job], {stdinIsTTY: false, follow: true}), ingest);
		const [state] = running.states;
		await waitUntil(() => state!.following, 'the first run read');
		expect(ingest.model.runs.size).toBe(1);

		// The child run arrives whole, except its completeRun, which is still being written.
		const childRun = 'mycc7mg8nbsgxciteyvrtyci';
		const childFiles = readdirSync(join(held, childRun));
		const lastName = childFiles.find(name => name.endsWith('-completeRun.json'))!;
		mkdirSync(join(job, 'runs', childRun));
		for (const name of childFiles.filter(name => name !== lastName)) cpSync(join(held, childRun, name), join(job, 'runs', childRun, name));
		const complete = readFileSync(join(held, childRun, lastName));
		writeFileSync(join(job, 'runs', childRun, lastName), complete.subarray(0, 100));
		const totalBefore = state!.bytesTotal ?? 0;
		await waitUntil(() => (state!.bytesTotal ?? 0) > totalBefore && ingest.model.runs.size === 2, 'the child run listed');
		expect(ingest.model.diagnostics).toEqual([]);
		expect(ingest.model.runs.get(childRun)?.status).not.toBe('completed');

		writeFileSync(join(job, 'runs', childRun, lastName), complete);
		await waitUntil(() => ingest.model.runs.get(childRun)?.status === 'completed', 'the completed child run');

		// A broken file that has not changed for a while is not being written: it is reported, once.
		const broken = join(job, 'runs', childRun, 'event-1795294858999-4-streamRunResult.json');
		writeFileSync(broken, '{"type": "streamRunResult", ');
		const old = new Date(Date.now() - 60_000);
		utimesSync(broken, old, old);
		await waitUntil(() => ingest.model.diagnostics.length === 1, 'the broken file reported');
		expect(ingest.model.diagnostics[0]).toMatchObject({source: broken, line: 1});

		for (const runId of runs.filter(runId => runId !== firstRun && runId !== childRun)) cpSync(join(held, runId), join(job, 'runs', runId), {recursive: true});
		// Its completeRun is its last file in event order, so once it counts, the whole run is in.
		await waitUntil(() => ingest.model.runs.get('phfj4550f6ktpfohvq5u9cht')?.status === 'completed', 'the resumed run completed');

		running.stop();
		expect(await running.done).toBe(0);
		expect(ingest.model.diagnostics).toHaveLength(1);
		const fromLog = await summaryOf(['fixtures/real/delegate.ndjson']);
		expect(outline(buildSummary(ingest.model))).toEqual(outline(fromLog));
	}, 20_000);
});
