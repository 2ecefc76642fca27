import type {Usage} from './events.js';

/*
 * Token usage arithmetic, apart from the reducer and the parsers: the views add usage up too, and must not
 * load the loading code to do it.
 */

export const zeroUsage: Usage = Object.freeze({inputTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 0, cachedInputTokens: 0});

/** Whether every count is 0 (`zeroUsage` or a total that came back to it). */
function isZero(usage: Usage): boolean {
	return usage.inputTokens === 0 && usage.outputTokens === 0 && usage.reasoningTokens === 0 && usage.totalTokens === 0 && usage.cachedInputTokens === 0;
}

/*
 * Usage objects are never changed in place, so a sum or difference that is one of its operands is that operand:
 * a run of one step then holds its step's usage object as its own (64 bytes a run of a wide job, in the headless
 * model and the viewer's load worker alike).
 */

/** `a` less `b`: what a total comes to once a part counted ahead of time is taken out again. */
export function subtractUsage(a: Usage, b: Usage): Usage {
	if (isZero(b)) return a;
	return {
		inputTokens: a.inputTokens - b.inputTokens,
		outputTokens: a.outputTokens - b.outputTokens,
		reasoningTokens: a.reasoningTokens - b.reasoningTokens,
		totalTokens: a.totalTokens - b.totalTokens,
		cachedInputTokens: a.cachedInputTokens - b.cachedInputTokens,
	};
}

export function addUsage(a: Usage, b: Usage): Usage {
	if (isZero(a)) return b;
	if (isZero(b)) return a;
	return {
		inputTokens: a.inputTokens + b.inputTokens,
		outputTokens: a.outputTokens + b.outputTokens,
		reasoningTokens: a.reasoningTokens + b.reasoningTokens,
		totalTokens: a.totalTokens + b.totalTokens,
		cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
	};
}
