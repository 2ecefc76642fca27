import {spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../../test/helpers/load.js';
import type {Model} from '../model/state.js';
import {answerContinuation, resumeContinuation} from './continuation.js';
import {interactiveStop} from './resume-command.js';

/** What bash makes of a command line: its words, one per line (NUL-separated, so any text survives). */
function wordsOf(line: string): string[] {
	const result = spawnSync('bash', ['-c', `words() { printf '%s\\0' "$@"; }; words ${line}`], {encoding: 'utf8'});
	expect(result.status, result.stderr).toBe(0);
	return result.stdout.split('\0').slice(0, -1);
}

function stopOf(model: Model) {
	const stop = [...model.runs.values()].map(run => interactiveStop(model, run)).find(found => found !== undefined);
	if (!stop) throw new Error('no interactive stop');
	return stop;
}

describe('answerContinuation', () => {
	it('answers through the coordinator with the plain text where the question was the step’s first call', () => {
		const stop = stopOf(modelFromFixtures('real/interactive-1.ndjson'));
		expect(stop.answerForm).toBe('plain');
		const answer = answerContinuation(stop, 'Blue, please.');
		expect(answer.argv).toEqual(['perstack', 'run', '--runtime', 'local', 'interactive-expert', 'Blue, please.', '--continue-job', stop.run.jobId, '-i']);
		expect(wordsOf(answer.line)).toEqual(answer.argv);
	});

	it('answers in the JSON form naming the question’s call where the step called another tool first (a plain answer would go to it)', () => {
		const stop = stopOf(modelFromFixtures('released/ask-2-followup.ndjson'));
		expect(stop.answerForm).toBe('json');
		const answer = answerContinuation(stop, 'Blue');
		expect(JSON.parse(answer.argv[5]!)).toEqual({toolCallId: stop.activity.toolCallId, toolName: 'askUser', skillName: stop.activity.skillName, text: 'Blue'});
		// The released CLI runs in Docker unless told: the job ran with `--runtime local`, as its log says.
		expect(answer.argv.slice(0, 5)).toEqual(['perstack', 'run', '--runtime', 'local', 'helper']);
		expect(wordsOf(answer.line)).toEqual(answer.argv);
	});

	it('an answer holding quotes, newlines, $(…) and control characters is one argument, and its line reads back to it', () => {
		const stop = stopOf(modelFromFixtures('real/interactive-1.ndjson'));
		const hostile = `it's "blue"\n$(rm -rf ~) \`id\` \u001b[31m; echo done`;
		const answer = answerContinuation(stop, hostile);
		expect(answer.line).not.toContain('\n');
		expect(answer.line).not.toContain('\u001b');
		expect(wordsOf(answer.line)).toEqual(answer.argv);
		expect(answer.argv).toHaveLength(9);
	});
});

describe('resumeContinuation', () => {
	it('resumes a coordinator from its checkpoint with the query its pane started with', () => {
		const model = modelFromFixtures('real/delegate.ndjson');
		const coordinator = [...model.runs.values()].find(run => run.parentRunId === null)!;
		const checkpoint = coordinator.steps.find(step => step.checkpointId !== undefined)!.checkpointId!;
		const resume = resumeContinuation(model, coordinator, checkpoint)!;
		expect(resume.argv).toEqual([
			'perstack',
			'run',
			'--runtime',
			'local',
			coordinator.expertKey,
			coordinator.query,
			'--continue-job',
			coordinator.jobId,
			'--resume-from',
			checkpoint,
		]);
		expect(wordsOf(resume.line)).toEqual(resume.argv);
	});

	it('offers nothing for a delegate’s checkpoint, which the runtime cannot resume from', () => {
		const model = modelFromFixtures('real/delegate.ndjson');
		const child = [...model.runs.values()].find(run => run.parentRunId !== null)!;
		expect(resumeContinuation(model, child, 'cp')).toBeUndefined();
	});
});
