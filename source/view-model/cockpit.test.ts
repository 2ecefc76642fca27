import {describe, expect, it} from 'vitest';
import {modelFromFixtures, modelFromText} from '../../test/helpers/load.js';
import {claudeSessionMessage} from '../query/continuation.js';
import {claudeRunnerOf} from '../query/claude-runner.js';
import {commandAt, questionAt, resumeAt, resumeStep, sessionAt} from './cockpit.js';

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

	it('y copies `claude --resume <session>` on a Claude Code session, from any of its rows; a stream naming no session says so', () => {
		const session = modelFromFixtures('claude-code/session-transcript-resumed-cc2.1.197.ndjson');
		const [first] = session.runs.values();
		for (const place of [{activity: session.activities.at(-1)!}, {runId: first!.runId}]) {
			const copied = commandAt(session, place, runner, '<answer>');
			expect(copied.ok && copied.value.argv).toEqual(['claude', '--resume', 'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209']);
			expect(copied.ok && copied.value.line).toBe('claude --resume c17ceeb0-3c4e-4bb0-8e5f-2a750074d209');
		}

		// Regression: with the program perscope started the session with (`npx` of a version, a path), y copied `claude`.
		const started = claudeRunnerOf(['npx', '@anthropic-ai/claude-code@2.1.197', '-p', 'Hi', '--output-format', 'stream-json', '--verbose', '--max-turns', '3']);
		const copied = commandAt(session, {runId: first!.runId}, runner, '<answer>', started);
		expect(copied.ok && copied.value.line).toBe('npx @anthropic-ai/claude-code@2.1.197 --resume c17ceeb0-3c4e-4bb0-8e5f-2a750074d209');

		// Lines that name no session (some published samples are trimmed so).
		const nameless = modelFromText(
			`${JSON.stringify({type: 'assistant', message: {id: 'msg_1', model: 'claude-sonnet-4-5', content: [{type: 'text', text: 'Done.'}]}})}\n`,
		);
		expect(commandAt(nameless, {runId: [...nameless.runs.keys()][0]!}, runner, '<answer>')).toEqual({
			ok: false,
			message: 'nothing to copy: this Claude Code stream names no session to resume',
		});
	});

	it('a on a Claude Code session sends its next prompt: `claude -p <message> --resume <session>` into the viewer, the message one argument', () => {
		const session = modelFromFixtures('claude-code/probe-resume1-cc2.1.195.ndjson');
		const [run] = session.runs.values();
		expect(sessionAt(session, {activity: session.activities.at(-1)!})).toEqual({ok: true, value: run});
		const message = claudeSessionMessage(run!.jobId, "it's `rm -rf` $HOME; no");
		expect(message?.argv).toEqual([
			'claude',
			'-p',
			"it's `rm -rf` $HOME; no",
			'--resume',
			'81898c55-fde9-4d44-b1f5-fbd77cd4fef6',
			'--output-format',
			'stream-json',
			'--verbose',
		]);
		// Pasted into a shell, the line gives the same words back.
		expect(message?.line).toBe(`claude -p 'it'\\''s \`rm -rf\` $HOME; no' --resume 81898c55-fde9-4d44-b1f5-fbd77cd4fef6 --output-format stream-json --verbose`);
		// Another runtime's run is not a session to send to; a stream that names no session says so.
		const perstack = modelFromFixtures('released/followup-1.ndjson');
		expect(sessionAt(perstack, {activity: perstack.activities.at(-1)!})).toBeUndefined();
		const nameless = modelFromText(
			`${JSON.stringify({type: 'assistant', message: {id: 'msg_1', model: 'claude-sonnet-4-5', content: [{type: 'text', text: 'Done.'}]}})}\n`,
		);
		expect(sessionAt(nameless, {runId: [...nameless.runs.keys()][0]!})).toEqual({ok: false, message: 'this Claude Code stream names no session to send to'});
	});
});
