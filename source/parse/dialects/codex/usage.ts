import type {Usage} from '../../../model/events.js';

/** The counts of a Codex usage (`turn.completed`'s, a rollout's `token_count`'s), as OpenAI reports them. */
export type OpenAiUsage = {
	input_tokens?: number | undefined;
	cached_input_tokens?: number | undefined;
	output_tokens?: number | undefined;
	reasoning_output_tokens?: number | undefined;
};

export function usageOf(usage: OpenAiUsage): Usage {
	const inputTokens = usage.input_tokens ?? 0;
	const outputTokens = usage.output_tokens ?? 0;
	// OpenAI counts cache reads inside the input and reasoning inside the output, as the price table expects.
	return {
		inputTokens,
		outputTokens,
		reasoningTokens: usage.reasoning_output_tokens ?? 0,
		totalTokens: inputTokens + outputTokens,
		cachedInputTokens: usage.cached_input_tokens ?? 0,
	};
}
