import {describe, expect, it} from 'vitest';
import {addUsage, subtractUsage, zeroUsage} from './usage.js';

describe('addUsage', () => {
	it('adds every kind of token separately', () => {
		const first = {inputTokens: 3042, outputTokens: 44, reasoningTokens: 12, totalTokens: 3086, cachedInputTokens: 1024};
		const second = {inputTokens: 1280, outputTokens: 27, reasoningTokens: 0, totalTokens: 1307, cachedInputTokens: 0};
		expect(addUsage(first, second)).toEqual({inputTokens: 4322, outputTokens: 71, reasoningTokens: 12, totalTokens: 4393, cachedInputTokens: 1024});
	});

	it('leaves a usage unchanged when adding zero, and never changes zero itself', () => {
		const usage = {inputTokens: 5, outputTokens: 6, reasoningTokens: 7, totalTokens: 11, cachedInputTokens: 1};
		expect(addUsage(zeroUsage, usage)).toEqual(usage);
		expect(zeroUsage.totalTokens).toBe(0);
		expect(Object.isFrozen(zeroUsage)).toBe(true);
	});

	it('returns the other operand itself when one is zero, so a run of one step holds its step usage once (memory, #33)', () => {
		const usage = {inputTokens: 5, outputTokens: 6, reasoningTokens: 7, totalTokens: 11, cachedInputTokens: 1};
		expect(addUsage(zeroUsage, usage)).toBe(usage);
		expect(addUsage(usage, {...zeroUsage})).toBe(usage);
		expect(subtractUsage(usage, zeroUsage)).toBe(usage);
		expect(subtractUsage(usage, usage)).toEqual(zeroUsage);
	});
});
