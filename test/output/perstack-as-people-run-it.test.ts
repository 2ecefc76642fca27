import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/cli-process.js';
import {perscopeInProcess} from '../helpers/cli-in-process.js';

/*
 * #31: Perstack as people run it. Every check here reads real recordings of the runtime: `fixtures/released/`
 * (the released CLI 0.0.54, which reuses run ids) and `fixtures/real/` (later main, recorded from the same
 * scenario scripts: fixtures/scripts/recorded/). Expected figures come from the raw lines (see each test).
 */

type RunSummary = {
	runId: string;
	expertKey: string;
	parentRunId: string | null;
	resumesRunId: string | null;
	resumedFrom: {runId: string} | null;
	status: string;
	steps: number;
	usage: {inputTokens: number; outputTokens: number};
	activities: number;
};
type JobSummary = {
	jobId: string;
	status: string;
	failure: string | null;
	steps: number;
	stepsRun: number;
	usage: {inputTokens: number; outputTokens: number};
	runs: RunSummary[];
};
type Summary = {jobs: JobSummary[]; unknownEvents: Record<string, number>; diagnostics: unknown[]};

/** The CLI run in this process (test/helpers/cli-in-process.ts): what it writes, and its exit code. */
async function perscope(args: string[]): Promise<{stdout: string; stderr: string; status: number | null}> {
	const {stdout, stderr, code} = await perscopeInProcess(args);
	return {stdout, stderr, status: code};
}

const fixture = (name: string) => join(repoRoot, 'fixtures', name);

async function summaryOf(...names: string[]): Promise<Summary> {
	return JSON.parse((await perscope(['--summary', '--json', ...names.map(fixture)])).stdout) as Summary;
}

async function activitiesOf(...names: string[]): Promise<Array<Record<string, unknown>>> {
	return (await perscope(['--json', ...names.map(fixture)])).stdout
		.trimEnd()
		.split('\n')
		.map(line => JSON.parse(line) as Record<string, unknown>);
}

/**
 * The tree with each run id replaced by its expert and how many runs of that expert came before it in tree order,
 * rows sorted: what two recordings of one scenario share (parallel siblings may start in another order).
 */
function shape(summary: Summary): unknown {
	return summary.jobs.map(job => {
		const seen = new Map<string, number>();
		const label = new Map(
			job.runs.map(run => {
				const count = (seen.get(run.expertKey) ?? 0) + 1;
				seen.set(run.expertKey, count);
				return [run.runId, `${run.expertKey}·${count}`];
			}),
		);
		const at = (id: string | null) => (id === null ? null : (label.get(id) ?? 'elsewhere'));
		return {
			status: job.status,
			failure: job.failure !== null,
			steps: job.steps,
			stepsRun: job.stepsRun,
			usage: job.usage,
			runs: job.runs
				.map(run => [
					at(run.runId),
					at(run.parentRunId),
					at(run.resumesRunId),
					at(run.resumedFrom?.runId ?? null),
					run.status,
					run.steps,
					run.usage.inputTokens,
					run.usage.outputTokens,
					run.activities,
				])
				.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
		};
	});
}

const releasedLogs = readdirSync(fixture('released')).filter(name => name.endsWith('.ndjson'));

describe('1. the released CLI (0.0.54) is read as well as later main, with no flag', () => {
	it.each(releasedLogs)('released/%s: no line becomes a diagnostic and no event type is unknown', async name => {
		const run = await perscope(['--summary', '--json', fixture(`released/${name}`)]);
		const summary = JSON.parse(run.stdout) as Summary;
		expect(summary.diagnostics).toEqual([]);
		expect(summary.unknownEvents).toEqual({});
		expect(run.stderr).toBe('');
	});

	it('a delegation chain under one run id is five runs: coordinator → planner → researcher, then planner and coordinator resumed', async () => {
		// delegate-chain.ndjson: five startRun lines, all runId ufrgmpx3…, experts coordinator, planner, researcher, planner, coordinator.
		const [job] = (await summaryOf('released/delegate-chain.ndjson')).jobs;
		const runs = job!.runs;
		const id = 'ufrgmpx3tbuhi0p2jymcc54w';
		expect(runs.map(run => [run.runId, run.expertKey, run.parentRunId, run.resumesRunId, run.status])).toEqual([
			[id, 'coordinator', null, null, 'stoppedByDelegate'],
			[`${id}#2`, 'planner', id, null, 'stoppedByDelegate'],
			[`${id}#3`, 'researcher', `${id}#2`, null, 'completed'],
			[`${id}#4`, 'planner', id, `${id}#2`, 'completed'],
			[`${id}#5`, 'coordinator', null, id, 'completed'],
		]);
		const printed = (await perscope(['--print', fixture('released/delegate-chain.ndjson')])).stdout;
		expect(printed).toContain('\n  [planner] 📁 list .\n');
		expect(printed).toContain('\n    [researcher] ✏️ write facts.md\n');
		expect(printed).toContain('\n  [planner] ← researcher: Saved three facts to facts.md: search, sync, tags.\n');
	});

	it('every checkpoint of a child run is read: parallel children complete or fail instead of staying at init', async () => {
		const [job] = (await summaryOf('released/parallel-3-one-fails.ndjson')).jobs;
		expect(job!.runs.map(run => [run.expertKey, run.status, run.steps])).toEqual([
			['lead', 'stoppedByDelegate', 1],
			['alpha', 'completed', 1],
			['beta', 'stoppedByError', 1],
			['gamma', 'completed', 1],
		]);
		expect(job!.runs.slice(1).every(run => run.parentRunId === job!.runs[0]!.runId)).toBe(true);
	});

	it.each([
		['delegate-chain', 'delegate-chain'],
		// The same script as real/parallel-3-one-fails (released/parallel-3-one-fails is an older script's recording).
		['parallel-3-one-fails-6-attempts', 'parallel-3-one-fails'],
		['boss-nested-parallel', 'boss-nested-parallel'],
		['killed-mid-answer', 'killed-mid-answer'],
	])('%s: the released CLI and later main give the same tree', async (released, main) => {
		expect(shape(await summaryOf(`released/${released}.ndjson`))).toEqual(shape(await summaryOf(`real/${main}.ndjson`)));
	});

	it('a job continued with a question and an answer gives the same tree from either version', async () => {
		const files = ['ask-1.ndjson', 'ask-2-followup.ndjson', 'ask-3-answer-json.ndjson'];
		expect(shape(await summaryOf(...files.map(name => `released/${name}`)))).toEqual(shape(await summaryOf(...files.map(name => `real/${name}`))));
	});

	it('a --continue-job follow-up that keeps its run id is a run of its own, started from the run it follows', async () => {
		// followup-2-continue.ndjson: startRun with runId dmje3rcf… (followup-1's), initialCheckpoint status completed, step 3.
		const [job] = (await summaryOf('released/followup-1.ndjson', 'released/followup-2-continue.ndjson')).jobs;
		expect(job!.runs.map(run => [run.runId, run.status, run.steps, run.resumedFrom?.runId ?? null])).toEqual([
			['dmje3rcfff3ny6xcq0hciava', 'completed', 2, null],
			['dmje3rcfff3ny6xcq0hciava#2', 'completed', 3, 'dmje3rcfff3ny6xcq0hciava'],
		]);
		// The saved job directory holds both runs' events in one runs/<runId>/ folder: the same two runs.
		const [fromDisk] = (await summaryOf('released/jobdir-followup')).jobs;
		expect(fromDisk!.runs.map(run => [run.runId, run.steps, run.resumedFrom?.runId ?? null])).toEqual([
			['dmje3rcfff3ny6xcq0hciava', 2, null],
			['dmje3rcfff3ny6xcq0hciava#2', 3, 'dmje3rcfff3ny6xcq0hciava'],
		]);
	});

	it('the released streaming events are live text: reasoning and the answer stream into the run', async () => {
		// long-stream.ndjson: startReasoning, 119 streamReasoning, completeReasoning, …, startRunResult, 910 streamRunResult, completeRun.
		const activities = await activitiesOf('released/long-stream.ndjson');
		const attempt = activities.find(activity => activity['type'] === 'attemptCompletion');
		// completeReasoning's text, the step's first reasoning (the answer's own, "Now write it out in full.", is complete's).
		expect(String(attempt?.['reasoning'])).toMatch(/^Consideration 1: weigh the options carefully\./);
		expect(activities.find(activity => activity['type'] === 'complete')?.['reasoning']).toBe('Now write it out in full.');
		// Cut before completeRun, the answer so far is what the deltas wrote.
		const printed = (await perscope(['--print', fixture('released/killed-mid-answer.ndjson')])).stdout;
		expect(printed).toMatch(/\[narrator\] ✂ answer cut off: Sentence 1 of the story goes on\. .*Sentence 2/);
	});

	it('--conversation and run: filters name a run segment by its own id', async () => {
		const conversation = await perscope(['--conversation', 'ufrgmpx3tbuhi0p2jymcc54w#3@5', fixture('released/delegate-chain.ndjson')]);
		expect(conversation.status).toBe(0);
		expect(conversation.stdout).toContain('conversation of run ufrgmpx3tbuhi0p2jymcc54w#3 (researcher) at step 5');
		const filtered = (await perscope(['--print', '--filter', 'run:ufrgmpx3tbuhi0p2jymcc54w#3', fixture('released/delegate-chain.ndjson')])).stdout;
		const [jobLine, ...lines] = filtered.trimEnd().split('\n');
		expect(jobLine).toMatch(/^── job \S+ · /);
		expect(lines.every(line => line.includes('[researcher]'))).toBe(true);
	});
});

describe('2. continued jobs and questions', () => {
	it('an answer given after a follow-up resumes the run that asked, not the job’s first run', async () => {
		// Every checkpoint of ask-2 and ask-3 keeps ask-1's run id (later main); the answer's pendingToolCalls name ask-2's askUser.
		const [job] = (await summaryOf('real/ask-1.ndjson', 'real/ask-2-followup.ndjson', 'real/ask-3-answer-json.ndjson')).jobs;
		const [first, asked, answered] = job!.runs;
		expect(answered!.resumesRunId).toBe(asked!.runId);
		expect(answered!.resumesRunId).not.toBe(first!.runId);
		expect(job!.status).toBe('completed');
		const question = (await activitiesOf('real/ask-1.ndjson', 'real/ask-2-followup.ndjson', 'real/ask-3-answer-json.ndjson')).find(
			activity => activity['type'] === 'interactiveTool',
		);
		expect(question?.['result']).toEqual({text: 'Blue, please.', error: null});
	});

	it('a tool call made in the same step as a question gets its result from stopRunByInteractiveTool', async () => {
		const read = (await activitiesOf('real/ask-1.ndjson', 'real/ask-2-followup.ndjson')).find(activity => activity['type'] === 'readTextFile');
		expect(read?.['result']).toMatchObject({error: null});
		expect(String((read?.['result'] as {text: string}).text)).toContain('notes.txt');
	});

	it('a plain -i answer the runtime gave to another call says where it went, and the question is asked again', async () => {
		const printed = (await perscope(['--print', ...['ask-1', 'ask-2-followup', 'ask-3-answer'].map(name => fixture(`real/${name}.ndjson`))])).stdout;
		expect(printed).toContain('[helper] ← askUser: ⚠ answer attached to readTextFile, the question was asked again: Blue, please.\n');
		expect(printed.trimEnd().split('\n').at(-2)).toMatch(/^\[helper\] ⏸ run waits for input: Which colour should the note use\?/);
	});

	it('the answer advice is the JSON form naming the question where the step called another tool first', async () => {
		const printed = (await perscope(['--print', fixture('real/ask-1.ndjson'), fixture('real/ask-2-followup.ndjson')])).stdout;
		expect(printed).toContain(
			`answer with: perstack run --runtime local helper '{"toolCallId":"toolu_mock1l9ji70003","toolName":"askUser","skillName":"user-input","text":"<answer>"}' --continue-job ufrxrignk40pmuavgbthfjbs -i`,
		);
		// A question asked alone keeps the plain form.
		expect((await perscope(['--print', fixture('real/interactive-1.ndjson')])).stdout).toContain(
			'answer with: perstack run --runtime local interactive-expert "<answer>" --continue-job',
		);
	});
});

describe('3. failures read as failures', () => {
	it('a job whose coordinator waits for delegates that will never return is a failed job, and says why', async () => {
		const summary = await summaryOf('released/parallel-3-one-fails.ndjson');
		expect(summary.jobs[0]!.failure).toBe(
			'ended while waiting for delegates: beta failed: AI_NoOutputGeneratedError: No output generated. Check the stream for errors.',
		);
		expect((await perscope(['--summary', fixture('released/parallel-3-one-fails.ndjson')])).stdout).toMatch(
			/^job o15jipg4uspv78nbh9s0cvmj {2}✗ failed: ended while waiting for delegates: beta failed/,
		);
		expect((await perscope(['--print', fixture('released/parallel-3-one-fails.ndjson')])).stdout).toMatch(
			/── job o15jipg4uspv78nbh9s0cvmj ✗ failed: ended while waiting/,
		);
		// A job that ends where it should has no failure.
		expect((await summaryOf('released/delegate-chain.ndjson')).jobs[0]!.failure).toBeNull();
	});

	it('each delegation of a job that ended before its coordinator resumed carries its child’s own outcome', async () => {
		const delegates = (await activitiesOf('released/parallel-3-one-fails.ndjson')).filter(activity => activity['type'] === 'delegate');
		expect(delegates.map(activity => [activity['delegateExpertKey'], activity['result']])).toEqual([
			['alpha', {text: 'Fast.', error: null}],
			['beta', {text: '', error: 'AI_NoOutputGeneratedError: No output generated. Check the stream for errors.'}],
			['gamma', {text: 'Cheap.', error: null}],
		]);
		expect((await perscope(['--print', fixture('released/parallel-3-one-fails.ndjson')])).stdout).toContain('[lead] ← beta: ✗ AI_NoOutputGeneratedError');
	});

	it('a run killed mid-answer: the tokens of its answered generation count, and its job failed', async () => {
		// killed-mid-answer.ndjson: callTools at step 1 carries usage {inputTokens: 1000, outputTokens: 32}; no step ever ended.
		const [job] = (await summaryOf('real/killed-mid-answer.ndjson')).jobs;
		expect(job!.usage).toMatchObject({inputTokens: 1000, outputTokens: 32});
		expect(job!.failure).toBe('narrator ended without a final event');
		const conversation = (await perscope(['--conversation', job!.runs[0]!.runId, fixture('real/killed-mid-answer.ndjson')])).stdout;
		expect(conversation).toContain('── cut off: the input ended while the model was writing (no final event) ──');
		expect(conversation).toMatch(/\+ {3}Sentence 1 of the story goes on\./);
	});

	it('the job’s steps are the runtime’s step counter, and a sum over parallel runs is said to be steps run', async () => {
		// lead ends step 1; alpha, beta and gamma each end step 2: the counter stands at 2, four steps were run.
		const [job] = (await summaryOf('released/parallel-3-one-fails.ndjson')).jobs;
		expect([job!.steps, job!.stepsRun]).toEqual([2, 4]);
		expect((await perscope(['--print', fixture('released/parallel-3-one-fails.ndjson')])).stdout).toContain(' · 2 steps · 4 steps run · ');
	});
});
