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

	it('keeps a few calls in a list of ids and indices, a moved call in its place', () => {
		let calls = withCall(withCall(withCall(undefined, 'a', 1), 'b', 2), 'c', 3);
		expect(calls).toEqual(['a', 1, 'b', 2, 'c', 3]);
		calls = withCall(calls, 'b', 7);
		expect([callOf(calls, 'a'), callOf(calls, 'b'), callOf(calls, 'c'), callOf(calls, 'd')]).toEqual([1, 7, 3, undefined]);
		expect([...callEntries(calls)]).toEqual([
			['a', 1],
			['b', 7],
			['c', 3],
		]);
	});

	it('moves its calls into a Map past a few, in the order they came', () => {
		let calls: PaneCalls | undefined;
		for (let i = 0; i < 20; i++) calls = withCall(calls, `call-${i}`, i);
		expect(calls instanceof Map).toBe(true);
		calls = withCall(calls, 'call-2', 40);
		expect([...callEntries(calls!)].slice(0, 3)).toEqual([
			['call-0', 0],
			['call-1', 1],
			['call-2', 40],
		]);
		expect(callOf(calls, 'call-19')).toBe(19);
	});
});
