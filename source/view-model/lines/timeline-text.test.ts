import {describe, expect, it} from 'vitest';
import type {TimelineStepRow} from '../../query/timeline.js';
import {stepText} from './timeline-text.js';

describe("a step row's text", () => {
	const minute = 60_000;
	/** A step row as the timeline builds it, for `stepText`. */
	const row = (overrides: Partial<TimelineStepRow>): TimelineStepRow => ({
		kind: 'step',
		key: 's',
		runId: 'r',
		paneId: 'r',
		expertKey: 'e',
		depth: 0,
		step: 3,
		start: 0,
		end: 1,
		durationMs: 1,
		bar: {from: 0, to: 1},
		usage: undefined,
		checkpointId: undefined,
		status: undefined,
		open: false,
		activityIndices: [],
		slow: false,
		gapBeforeMs: undefined,
		longGap: false,
		waitedFor: undefined,
		longWait: false,
		does: 'answered',
		...overrides,
	});

	it('say how long and for what before what the step ran; short ones say nothing', () => {
		expect(stepText(row({gapBeforeMs: 2 * minute + 5000, longWait: true, waitedFor: 'input'}))).toBe('waited 2m 05s for an answer · answered');
		expect(stepText(row({gapBeforeMs: 90_000, longWait: true, waitedFor: 'delegates'}))).toBe('waited 1m 30s for delegates · answered');
		expect(stepText(row({gapBeforeMs: 5000, longGap: true}))).toBe('5.0s gap · answered');
		expect(stepText(row({gapBeforeMs: 5000, waitedFor: 'delegates'}))).toBe('answered');
		expect(stepText(row({gapBeforeMs: minute, longWait: true, waitedFor: 'input', does: ''}))).toBe('waited 1m 00s for an answer');
	});
});
