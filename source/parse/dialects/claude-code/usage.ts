import type {Usage} from '../../../model/events.js';
import {subtractUsage, zeroUsage} from '../../../model/usage.js';
import {tokenCountOf} from '../common.js';
import type {ClaudeUsage} from './schema.js';

/*
 * Token usage, counted once per model response. One API response (a `message.id`) is split over several lines,
 * one per content block, and every one of them repeats the response's usage; with `--include-partial-messages`
 * its `message_start` and `message_delta` events carry it too, the last with the final output count (the
 * `assistant` lines keep the count of when the block ended). A response's usage is the largest of each count
 * seen for it, and each line adds only what that raises.
 */

/**
 * The Messages API's counts in perscope's terms: input written to the prompt cache is input (the price table has
 * no price for cache writes: priced as input), input read from it is cached input, and the total is all of them.
 */
export function usageOf(usage: ClaudeUsage): Usage {
	const input = tokenCountOf(usage.input_tokens) + tokenCountOf(usage.cache_creation_input_tokens);
	const cached = tokenCountOf(usage.cache_read_input_tokens);
	const output = tokenCountOf(usage.output_tokens);
	return {inputTokens: input, outputTokens: output, reasoningTokens: 0, totalTokens: input + cached + output, cachedInputTokens: cached};
}

/** Each count the larger of the two, and the total theirs. */
export function largerUsage(a: Usage, b: Usage): Usage {
	const inputTokens = Math.max(a.inputTokens, b.inputTokens);
	const outputTokens = Math.max(a.outputTokens, b.outputTokens);
	const cachedInputTokens = Math.max(a.cachedInputTokens, b.cachedInputTokens);
	return {inputTokens, outputTokens, reasoningTokens: 0, totalTokens: inputTokens + cachedInputTokens + outputTokens, cachedInputTokens};
}

function isZero(usage: Usage): boolean {
	return usage.inputTokens === 0 && usage.outputTokens === 0 && usage.reasoningTokens === 0 && usage.totalTokens === 0 && usage.cachedInputTokens === 0;
}

/** How many responses' usage is remembered: lines of one response come close together, parallel sub-agents' too. */
const rememberedResponses = 4096;

/** The usage seen per response, to add each response's once. */
export class ResponseUsage {
	readonly #seen = new Map<string, Usage>();

	/** What `usage`, seen for response `id`, adds to what was counted of it: undefined when nothing. */
	add(id: string, usage: Usage): Usage | undefined {
		const before = this.#seen.get(id) ?? zeroUsage;
		const after = largerUsage(before, usage);
		if (this.#seen.has(id)) this.#seen.delete(id);
		else if (this.#seen.size >= rememberedResponses) this.#seen.delete(this.#seen.keys().next().value!);
		this.#seen.set(id, after);
		const added = subtractUsage(after, before);
		return isZero(added) ? undefined : added;
	}
}
