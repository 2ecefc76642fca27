import {describe, expect, it} from 'vitest';
import {appended, sharedEndedSteps, sharedStepsByNumber, sharedStreams} from './run-collections.js';

describe('run collections', () => {
	it('refuses a write to the empty collections new runs share, so one run cannot fill every run', () => {
		expect(() => sharedEndedSteps.add(1)).toThrow(/shared empty set/);
		expect(() => sharedStepsByNumber.set(1, {step: 1, startedAt: undefined, finishedAt: undefined, usage: undefined, checkpointId: undefined, status: undefined})).toThrow(/shared empty map/);
		expect(sharedEndedSteps.size + sharedStepsByNumber.size + sharedStreams.size).toBe(0);
	});

	it('appends to a short list by a copy, leaving the old list as it was, and to a long one in place', () => {
		const short = [1, 2];
		const longer = appended(short, 3);
		expect(longer).toEqual([1, 2, 3]);
		expect(short).toEqual([1, 2]);
		const long = [1, 2, 3, 4, 5, 6, 7, 8];
		expect(appended(long, 9)).toBe(long);
		expect(long).toHaveLength(9);
	});
});
