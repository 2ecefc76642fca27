import {describe, expect, it} from 'vitest';
import {droverEventSchema} from './schema.js';

/* What drover's schema does beyond declaring fields: lenient numbers and timestamps, and unread fields dropped. */

describe('droverEventSchema', () => {
	it('reads a turn and a timestamp sent as strings', () => {
		expect(droverEventSchema().parse({kind: 'turn_start', runId: 'r', ts: '1795389000107', turn: '2'})).toEqual({
			kind: 'turn_start',
			runId: 'r',
			ts: 1_795_389_000_107,
			turn: 2,
		});
	});

	it('takes a bad number or timestamp as missing rather than refusing the event', () => {
		expect(droverEventSchema().parse({kind: 'tool_call_end', runId: 'r', ts: 'later', toolUseId: 't1', durationMs: 'slow'})).toMatchObject({
			ts: undefined,
			durationMs: undefined,
		});
	});

	it('drops fields it does not read', () => {
		expect(droverEventSchema().parse({kind: 'input_validated', runId: 'r', ts: 1, schemaVersion: 3})).not.toHaveProperty('schemaVersion');
	});

	it('refuses an event without a run, or without a field its kind needs', () => {
		expect(droverEventSchema().safeParse({kind: 'turn_start', ts: 1}).success).toBe(false);
		expect(droverEventSchema().safeParse({kind: 'thinking', runId: 'r', ts: 1}).success).toBe(false);
	});
});
