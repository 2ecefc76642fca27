import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../../test/helpers/load.js';
import {commandAt, questionAt, resumeAt, resumeStep} from './cockpit.js';

const runner = {program: ['perstack'], options: ['--runtime', 'local']};

describe('the cockpit’s places', () => {
	it('a on any run of a job answers the question the job waits on, in the JSON form the stopped step needs', () => {
		const model = modelFromFixtures('released/ask-1.ndjson', 'released/ask-2-followup.ndjson');
		const [first] = model.runs.values();
		const found = questionAt(model, {runId: first!.runId});
		expect(found.ok && found.value.toolName).toBe('askUser');
		expect(found.ok && found.value.answerForm).toBe('json');
	});

	it('says so when nothing in the job waits for an answer', () => {
		const model = modelFromFixtures('released/followup-1.ndjson');
		const activity = model.activities.at(-1)!;
		expect(questionAt(model, {activity})).toEqual({ok: false, message: 'nothing in this job waits for an answer'});
	});

	it('R resumes from the coordinator’s step with the runner’s options; a delegate’s step says the runtime cannot', () => {
		const model = modelFromFixtures('real/delegate.ndjson');
		const coordinator = [...model.runs.values()].find(run => run.parentRunId === null)!;
		const child = [...model.runs.values()].find(run => run.parentRunId !== null)!;
		const step = coordinator.steps.find(record => record.checkpointId !== undefined)!;
		const found = resumeStep(model, coordinator, step.step, runner);
		expect(found.ok && found.value.argv).toEqual([
			'perstack',
			'run',
			'--runtime',
			'local',
			coordinator.expertKey,
			coordinator.query,
			'--continue-job',
			coordinator.jobId,
			'--resume-from',
			step.checkpointId,
		]);
		const refused = resumeStep(model, child, child.steps[0]!.step, runner);
		expect(refused).toEqual({
			ok: false,
			message: `the runtime resumes only from a coordinator's checkpoints: step ${child.steps[0]!.step} is ${child.expertKey}'s, a delegate's`,
		});
		const activity = model.activities.find(candidate => candidate.runId === coordinator.runId && candidate.step === step.step)!;
		expect(resumeAt(model, activity, runner)).toEqual(found);
	});

	it('y copies the answer command with the answer left to fill in, and the resume command where nothing waits', () => {
		const asked = modelFromFixtures('released/ask-1.ndjson', 'released/ask-2-followup.ndjson');
		const copied = commandAt(asked, {activity: asked.activities.at(-1)!}, runner, '<answer>');
		expect(copied.ok && copied.value.kind).toBe('answer');
		expect(copied.ok && copied.value.line).toContain('"text":"<answer>"');
		const done = modelFromFixtures('real/delegate.ndjson');
		const coordinator = [...done.runs.values()].find(run => run.parentRunId === null)!;
		const activity = done.activities.find(candidate => candidate.runId === coordinator.runId && candidate.step !== undefined)!;
		const resume = commandAt(done, {activity}, runner, '<answer>');
		expect(resume.ok && resume.value.kind).toBe('resume');
	});
});
