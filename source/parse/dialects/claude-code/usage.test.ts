import {describe, expect, it} from 'vitest';
import {ResponseUsage, usageOf} from './usage.js';

describe('usage of Claude Code’s responses', () => {
	it('counts cache writes as input and cache reads as cached input', () => {
		expect(usageOf({input_tokens: 10, cache_creation_input_tokens: 5646, cache_read_input_tokens: 13689, output_tokens: 4})).toEqual({
			inputTokens: 5656,
			outputTokens: 4,
			reasoningTokens: 0,
			totalTokens: 19349,
			cachedInputTokens: 13689,
		});
		expect(usageOf({input_tokens: 'x', output_tokens: -3})).toEqual({
			inputTokens: 0,
			outputTokens: 0,
			reasoningTokens: 0,
			totalTokens: 0,
			cachedInputTokens: 0,
		});
	});

	it('adds a response once however many lines repeat it, and only what a later line raises', () => {
		const seen = new ResponseUsage();
		const first = usageOf({input_tokens: 8, cache_read_input_tokens: 100, output_tokens: 1});
		expect(seen.add('msg_1', first)).toEqual(first);
		expect(seen.add('msg_1', first)).toBeUndefined();
		// message_delta's final output count.
		expect(seen.add('msg_1', usageOf({output_tokens: 20}))).toEqual({
			inputTokens: 0,
			outputTokens: 19,
			reasoningTokens: 0,
			totalTokens: 19,
			cachedInputTokens: 0,
		});
		expect(seen.add('msg_2', first)).toEqual(first);
	});
});
