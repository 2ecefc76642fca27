import type {Usage} from './events.js';

/*
 * Token usage arithmetic, apart from the reducer and the parsers: the views add usage up too, and must not
 * load the loading code to do it.
 */

export const zeroUsage: Usage = Object.freeze({inputTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 0, cachedInputTokens: 0});

/** `a` less `b`: what a total comes to once a part counted ahead of time is taken out again. */
export function subtractUsage(a: Usage, b: Usage): Usage {
	return {
		inputTokens: a.inputTokens - b.inputTokens,
		outputTokens: a.outputTokens - b.outputTokens,
		reasoningTokens: a.reasoningTokens - b.reasoningTokens,
		totalTokens: a.totalTokens - b.totalTokens,
		cachedInputTokens: a.cachedInputTokens - b.cachedInputTokens,
	};
}

export function addUsage(a: Usage, b: Usage): Usage {
	return {
		inputTokens: a.inputTokens + b.inputTokens,
		outputTokens: a.outputTokens + b.outputTokens,
		reasoningTokens: a.reasoningTokens + b.reasoningTokens,
		totalTokens: a.totalTokens + b.totalTokens,
		cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
	};
}
