import {describe, expect, it} from 'vitest';
import {compareEventFiles, eventTypeRank, type OrderedEventFile} from './event-order.js';

/*
 * A job directory lists its event files in no useful order, and the events of one step often share a
 * millisecond: they are put back in the order the runtime's state machine produced them.
 */

function file(timestamp: number, step: number, type: string, name = `event-${timestamp}-${step}-${type}.json`): OrderedEventFile {
	return {timestamp, step, type, name};
}

function sortedTypes(files: OrderedEventFile[]): string[] {
	return [...files].sort(compareEventFiles).map(entry => entry.type);
}

describe('eventTypeRank', () => {
	it('follows the runtime through one step', () => {
		const step = [
			'startRun',
			'startGeneration',
			'callTools',
			'resolveToolResults',
			'attemptCompletion',
			'startStreamingRunResult',
			'streamRunResult',
			'completeStreamingRunResult',
			'finishToolCall',
			'completeRun',
		];
		const ranks = step.map(type => eventTypeRank(type));
		expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
		expect(new Set(ranks).size).toBe(step.length);
	});

	it('puts reasoning before the tool calls it leads to, and the run result after the completion attempt', () => {
		expect(eventTypeRank('completeStreamingReasoning')).toBeLessThan(eventTypeRank('callTools'));
		expect(eventTypeRank('attemptCompletion')).toBeLessThan(eventTypeRank('startStreamingRunResult'));
	});

	it('gives the ways a step ends one rank', () => {
		const endings = ['continueToNextStep', 'stopRunByInteractiveTool', 'stopRunByDelegate', 'stopRunByExceededMaxSteps', 'stopRunByError', 'completeRun'];
		expect(new Set(endings.map(type => eventTypeRank(type))).size).toBe(1);
	});

	it('puts a type it does not know after what a step does and before the step ends', () => {
		expect(eventTypeRank('someFutureEvent')).toBeGreaterThan(eventTypeRank('finishAllToolCalls'));
		expect(eventTypeRank('someFutureEvent')).toBeLessThan(eventTypeRank('continueToNextStep'));
	});

	it('puts runtime events before the run, and skill disconnection after everything', () => {
		expect(eventTypeRank('initializeRuntime')).toBeLessThan(eventTypeRank('startRun'));
		expect(eventTypeRank('skillDisconnected')).toBeGreaterThan(eventTypeRank('completeRun'));
	});
});

describe('compareEventFiles', () => {
	it('orders by timestamp first, whatever the step or type', () => {
		expect(sortedTypes([file(20, 1, 'startRun'), file(10, 2, 'completeRun')])).toEqual(['completeRun', 'startRun']);
	});

	it('orders by step within one millisecond', () => {
		expect(sortedTypes([file(10, 2, 'startGeneration'), file(10, 1, 'continueToNextStep')])).toEqual(['continueToNextStep', 'startGeneration']);
	});

	it('orders one step’s events within one millisecond as the runtime made them', () => {
		const shuffled = [file(10, 1, 'completeRun'), file(10, 1, 'callTools'), file(10, 1, 'startRun'), file(10, 1, 'startGeneration')];
		expect(sortedTypes(shuffled)).toEqual(['startRun', 'startGeneration', 'callTools', 'completeRun']);
	});

	it('falls back to the file name when all else is equal', () => {
		const files = [file(10, 1, 'streamRunResult', 'event-b.json'), file(10, 1, 'streamRunResult', 'event-a.json')];
		expect([...files].sort(compareEventFiles).map(entry => entry.name)).toEqual(['event-a.json', 'event-b.json']);
		expect(compareEventFiles(files[0]!, files[0]!)).toBe(0);
	});

	it('sorts a file whose timestamp or step could not be read after those that could', () => {
		expect(sortedTypes([file(Number.NaN, 1, 'broken'), file(10, 1, 'startRun')])).toEqual(['startRun', 'broken']);
		expect(sortedTypes([file(10, Number.NaN, 'broken'), file(10, 5, 'startRun')])).toEqual(['startRun', 'broken']);
		expect(compareEventFiles(file(Number.NaN, 1, 'a', 'x'), file(Number.NaN, 1, 'a', 'x'))).toBe(0);
	});
});
