import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {interactiveStop, maxStepsNote, resumeCommand, shellQuote, stepCheckpoint} from './resume-command.js';
import type {Model} from '../model/state.js';
import {fixturePath, modelFromFixtures, modelFromText, runByExpert} from '../../test/helpers/load.js';

function onlyJob(model: Model) {
	const [job] = model.jobs.values();
	if (!job) throw new Error('no job');
	return job;
}

/** What a POSIX-ish shell makes of a word: run it through bash and read the argument back. */
function shellReads(word: string): string {
	return execFileSync('bash', ['-c', `printf %s ${word}`], {encoding: 'utf8'});
}

describe('resuming from a coordinator checkpoint', () => {
	const model = modelFromFixtures('nested-delegate.ndjson');
	const job = onlyJob(model);
	const coordinator = runByExpert(model, 'coordinator', 0);

	it('gives the exact command for a step of the coordinator, with its checkpoint id and status', () => {
		const delegate = model.activities.find(activity => activity.type === 'delegate' && activity.runId === coordinator.runId)!;
		const checkpoint = stepCheckpoint(model, delegate)!;
		const record = coordinator.steps.find(step => step.step === delegate.step)!;
		expect(checkpoint).toMatchObject({runId: coordinator.runId, step: 2, checkpointId: record.checkpointId, status: 'stoppedByDelegate'});
		expect(checkpoint.resumeCommand).toBe(
			`perstack run --runtime local coordinator 'Plan the migration of our build from webpack to vite.' --continue-job ${job.jobId} --resume-from ${record.checkpointId}`,
		);
	});

	it('a resumed coordinator (a new run id) resumes with the query its pane started with', () => {
		const resumed = runByExpert(model, 'coordinator', 1);
		expect(resumed.query).toBeUndefined();
		const last = resumed.steps[resumed.steps.length - 1]!;
		expect(resumeCommand(model, resumed, last.checkpointId!)).toBe(
			`perstack run --runtime local coordinator 'Plan the migration of our build from webpack to vite.' --continue-job ${job.jobId} --resume-from ${last.checkpointId}`,
		);
	});

	it('is not offered for a delegated run: the runtime resumes only from the coordinator', () => {
		const planner = runByExpert(model, 'planner', 0);
		expect(resumeCommand(model, planner, planner.steps[0]!.checkpointId!)).toBeUndefined();
		const plannerActivity = model.activities.find(activity => activity.runId === planner.runId && activity.step !== undefined)!;
		const checkpoint = stepCheckpoint(model, plannerActivity)!;
		expect(checkpoint.checkpointId).toBeDefined();
		expect(checkpoint.resumeCommand).toBeUndefined();
	});

	it('is not offered for other runtimes', () => {
		const drover = modelFromFixtures('drover-subagent.ndjson');
		expect(resumeCommand(drover, runByExpert(drover, 'ci-triage'), 'cp')).toBeUndefined();
	});

	it('quotes a query with quotes and line breaks so the command pastes as one line and means the same', () => {
		const text = readFileSync(fixturePath('real/simple.ndjson'), 'utf8').replaceAll('What is the capital of France?', 'What\'s\\n\\"this\\"?');
		const odd = modelFromText(text);
		const run = [...odd.runs.values()][0]!;
		const command = resumeCommand(odd, run, 'cp1')!;
		expect(command).not.toContain('\n');
		const quoted = command.slice(command.indexOf(run.expertKey) + run.expertKey.length + 1, command.indexOf(' --continue-job'));
		expect(shellReads(quoted)).toBe('What\'s\n"this"?');
	});
});

describe('shellQuote', () => {
	it('leaves plainly safe words bare, unless asked to quote', () => {
		expect(shellQuote('coordinator')).toBe('coordinator');
		expect(shellQuote('@org/expert-1.2')).toBe('@org/expert-1.2');
		expect(shellQuote('query', true)).toBe("'query'");
	});

	it('single-quotes everything else, and a quote inside survives the shell', () => {
		for (const text of ["it's", 'a b', '$HOME `x` !', '', '*']) expect(shellReads(shellQuote(text))).toBe(text);
		expect(shellQuote("it's")).toBe("'it'\\''s'");
	});

	it('control characters and invisible ones are written as escapes, and come out as they went in', () => {
		for (const text of ['two\nlines', 'tab\there', 'esc \u001b[31m', 'bidi \u202e', "both ' and \\ and \n"]) {
			const quoted = shellQuote(text);
			expect(quoted.startsWith("$'")).toBe(true);
			expect(quoted).not.toMatch(/[\u0000-\u001f\u202e]/);
			expect(shellReads(quoted)).toBe(text);
		}
	});
});

describe('a run stopped by an interactive tool', () => {
	it('says what it asked and the command that answers it', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson');
		const run = runByExpert(model, 'interactive-expert');
		const stop = interactiveStop(model, run)!;
		expect(stop.toolName).toBe('askUser');
		expect(stop.args).toEqual({question: 'Which colour should the report use?'});
		expect(stop.activity.type).toBe('interactiveTool');
		// Plain `--continue` fails on the recorded CLI ("No runs found"): the job is named (#21.8).
		expect(stop.command).toBe(`perstack run --runtime local interactive-expert "<answer>" --continue-job ${run.jobId} -i`);
	});

	it('once answered (the run was resumed), there is nothing to answer', () => {
		const model = modelFromFixtures('interactive.ndjson');
		const first = runByExpert(model, 'release-notes', 0);
		expect(first.status).toBe('stoppedByInteractiveTool');
		expect(interactiveStop(model, first)).toBeUndefined();
	});

	it('a run that did not stop on one has nothing to answer', () => {
		const model = modelFromFixtures('demo.ndjson');
		for (const run of model.runs.values()) expect(interactiveStop(model, run)).toBeUndefined();
	});
});

describe('a job that stopped on max steps', () => {
	it('says so with the steps reached and the limit', () => {
		const model = modelFromFixtures('max-steps.ndjson');
		expect(maxStepsNote(model, onlyJob(model))).toBe('stopped at max steps: 3 of 3');
	});

	it('without the limit (no initializeRuntime), the steps reached only', () => {
		const text = readFileSync(fixturePath('max-steps.ndjson'), 'utf8')
			.split('\n')
			.filter(line => !line.includes('"type":"initializeRuntime"'))
			.join('\n');
		const model = modelFromText(text);
		expect(maxStepsNote(model, onlyJob(model))).toBe('stopped at max steps: 3 steps');
	});

	it('a job that did not stop on max steps has no note', () => {
		for (const name of ['demo.ndjson', 'stop-error.ndjson', 'real/interactive-1.ndjson']) {
			const model = modelFromFixtures(name);
			expect(maxStepsNote(model, onlyJob(model))).toBeUndefined();
		}
	});
});
