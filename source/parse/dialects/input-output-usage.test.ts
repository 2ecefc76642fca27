import {describe, expect, it} from 'vitest';
import {maxTokenCount} from './common.js';
import {inputOutputUsage} from './input-output-usage.js';

/* drover and the daemon report input and output tokens only: the rest of a usage record follows from them. */

describe('inputOutputUsage', () => {
	it('totals input and output tokens and counts nothing else', () => {
		expect(inputOutputUsage(120, 30)).toEqual({inputTokens: 120, outputTokens: 30, reasoningTokens: 0, totalTokens: 150, cachedInputTokens: 0});
	});

	it('counts a count that was not sent as zero', () => {
		expect(inputOutputUsage(undefined, 7)).toEqual({inputTokens: 0, outputTokens: 7, reasoningTokens: 0, totalTokens: 7, cachedInputTokens: 0});
		expect(inputOutputUsage(undefined, undefined).totalTokens).toBe(0);
	});

	it('counts a negative or impossible count as zero rather than letting it spoil the total', () => {
		expect(inputOutputUsage(-5, 10)).toMatchObject({inputTokens: 0, totalTokens: 10});
		expect(inputOutputUsage(Number.NaN, Number.POSITIVE_INFINITY).totalTokens).toBe(0);
	});

	it('caps absurd counts so their total stays finite', () => {
		const usage = inputOutputUsage(1e308, 1e308);
		expect(usage.inputTokens).toBe(maxTokenCount);
		expect(Number.isFinite(usage.totalTokens)).toBe(true);
	});
});
