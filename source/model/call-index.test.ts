import {describe, expect, it} from 'vitest';
import {callEntries, callOf, withCall, type PaneCalls} from './call-index.js';

describe("a pane's calls", () => {
	it('finds each call where it was put, before and after they move into a table of bytes', () => {
		let calls: PaneCalls | undefined;
		for (let i = 0; i < 600; i++) calls = withCall(calls, `call-${i}`, i * 2);
		expect(calls).toBeDefined();
		expect(calls instanceof Map).toBe(false);
		calls = withCall(calls, 'call-3', 1);
		expect([callOf(calls, 'call-0'), callOf(calls, 'call-3'), callOf(calls, 'call-599'), callOf(calls, 'call-600')]).toEqual([0, 1, 1198, undefined]);
		expect(new Map(callEntries(calls!)).size).toBe(600);
	});

	it('keeps a few calls in a Map', () => {
		const calls = withCall(withCall(undefined, 'a', 1), 'b', 2);
		expect(calls instanceof Map).toBe(true);
		expect([...callEntries(calls)]).toEqual([
			['a', 1],
			['b', 2],
		]);
	});
});
