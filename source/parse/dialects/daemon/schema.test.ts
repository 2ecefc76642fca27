import {describe, expect, it} from 'vitest';
import {daemonSchemas} from './schema.js';

/* What the daemon's schema does beyond declaring fields: ISO timestamps read as times, lenient token counts. */

describe('daemonSchemas', () => {
	it('reads an ISO-8601 timestamp as epoch milliseconds', () => {
		expect(daemonSchemas().event.parse({type: 'step_started', runId: 'r', stepName: 'analyzer', ts: '2026-11-22T10:30:01.000Z'})).toMatchObject({
			ts: Date.parse('2026-11-22T10:30:01.000Z'),
		});
	});

	it('takes an unreadable timestamp as missing rather than refusing the event', () => {
		expect(daemonSchemas().event.parse({type: 'step_started', runId: 'r', stepName: 'analyzer', ts: 'at some point'})).toMatchObject({ts: undefined});
	});

	it('reads token counts sent as strings, and lets either be missing', () => {
		expect(daemonSchemas().usage.parse({promptTokens: '120'})).toEqual({promptTokens: 120});
		expect(daemonSchemas().usage.parse({})).toEqual({});
	});

	it('reads only the stream events it knows', () => {
		expect(daemonSchemas().stream.parse({type: 'tool-call', toolName: 'grep', args: {q: 'x'}})).toEqual({type: 'tool-call', toolName: 'grep', args: {q: 'x'}});
		expect(daemonSchemas().stream.safeParse({type: 'reasoning', text: 'x'}).success).toBe(false);
	});
});
