import {describe, expect, it} from 'vitest';
import {createModel} from './state.js';
import {reduce} from './reduce.js';
import {addEndedStep, addStepRecord, appended, hasEndedStep, sharedEmptyList, sharedStreams, stepRecordOf} from './run-collections.js';
import {TextAccumulator} from './text-accumulator.js';
import type {Run, StepRecord} from './state.js';

function bareRun(): Run {
	const model = createModel();
	reduce(model, {
		kind: 'stepStart',
		dialect: 'perstack',
		id: 'e-1',
		wireType: 'startGeneration',
		jobId: 'job',
		runId: 'run',
		expertKey: 'expert',
		step: undefined,
		timestamp: undefined,
		agent: undefined,
		ref: {source: 'test', line: 1, offset: 0},
	});
	return model.runs.get('run')!;
}

function record(step: number): StepRecord {
	return {step, startedAt: undefined, finishedAt: undefined, usage: undefined, checkpointId: undefined, status: undefined};
}

describe('run collections', () => {
	it('refuses a write to the empty collections new runs share, so one run cannot fill every run', () => {
		expect(() =>
			sharedStreams.set(1, {step: 1, reasoning: new TextAccumulator(), result: new TextAccumulator(), callReasoning: undefined, resultGeneration: false}),
		).toThrow(/shared empty map/);
		expect(() => sharedEmptyList<number>().push(1)).toThrow(/shared empty list/);
		expect(
			sharedEmptyList<number>()
				.map(value => value)
				.push(1),
		).toBe(1);
		expect(sharedStreams.size + sharedEmptyList().length).toBe(0);
	});

	it('appends to a short list by a copy, leaving the old list as it was, and to a long one in place', () => {
		const short = [1, 2];
		const longer = appended(short, 3);
		expect(longer).toEqual([1, 2, 3]);
		expect(short).toEqual([1, 2]);
		const long = [1, 2, 3, 4, 5, 6, 7, 8];
		expect(appended(long, 9)).toBe(long);
		expect(long).toHaveLength(9);
		expect(appended(sharedEmptyList<number>(), 1)).toEqual([1]);
	});

	it('keeps ended steps sorted and distinct, however they arrive', () => {
		const run = bareRun();
		for (const step of [3, 1, 3, 2, 5, 4, 1]) addEndedStep(run, step);
		expect(run.endedSteps).toEqual([1, 2, 3, 4, 5]);
		expect([hasEndedStep(run, 4), hasEndedStep(run, 6)]).toEqual([true, false]);
		expect(sharedEmptyList()).toHaveLength(0);
	});

	it('shares the ended steps of runs that ended step 1 only, and gives a run its own list once it ends another', () => {
		const first = bareRun();
		const second = bareRun();
		addEndedStep(first, 1);
		addEndedStep(second, 1);
		expect(first.endedSteps).toBe(second.endedSteps);
		expect(() => first.endedSteps.push(2)).toThrow(/shared empty list/);
		addEndedStep(first, 2);
		addEndedStep(second, 0);
		expect([first.endedSteps, second.endedSteps]).toEqual([
			[1, 2],
			[0, 1],
		]);
		const third = bareRun();
		addEndedStep(third, 1);
		expect(third.endedSteps).toEqual([1]);
	});

	it('finds step records by number, in order and out of it', () => {
		const run = bareRun();
		const steps = [2, 3, 7, 1, 9, 4];
		for (const step of steps) if (!stepRecordOf(run, step)) addStepRecord(run, record(step));
		for (const step of steps) expect(stepRecordOf(run, step)?.step).toBe(step);
		expect(stepRecordOf(run, 5)).toBeUndefined();
		// The run's first step (1) was recorded when it started; the list keeps the order records were made in.
		expect(run.steps.map(each => each.step)).toEqual([1, 2, 3, 7, 9, 4]);
	});
});
