/*
 * What tokens cost: the built-in price table, data only (the arithmetic is in cost.ts). `--prices FILE`
 * replaces it with a table of the same shape (source/cli/prices-file.ts reads and checks the file).
 *
 * The models are the ones Perstack knows (`knownModels` in perstack-ai/perstack, packages/core/src/known-models),
 * at the providers' list prices for the standard tier in US dollars per million tokens, as published on the
 * date below: a run whose model is not here has no cost (`?`), never a guessed one. README.md, "Cost", names
 * the pages and says how cached input and reasoning are counted per provider.
 */

/**
 * Who serves the model, which decides how its token counts are priced: Perstack records the usage the Vercel
 * AI SDK (v5) reports, and what `inputTokens` and `outputTokens` include differs by provider (see cost.ts).
 */
export const priceProviders = ['anthropic', 'amazon-bedrock', 'openai', 'azure-openai', 'deepseek', 'google', 'google-vertex', 'ollama'] as const;
export type PriceProvider = (typeof priceProviders)[number];

/** US dollars per million tokens. */
export type ModelPrice = {
	provider: PriceProvider;
	/** Input not read from the provider's prompt cache. */
	input: number;
	/** Input read from the prompt cache (a cache hit). */
	cachedInput: number;
	/** Output, reasoning included. */
	output: number;
};

export type PriceTable = {
	/** Where the prices come from, as shown with a cost (`--summary --json` names it under `prices`). */
	source: string;
	/** When they were taken (YYYY-MM-DD), when known. */
	date: string | null;
	/** The file they were read from (`--prices FILE`); null for the built-in table. */
	file: string | null;
	models: Readonly<Record<string, ModelPrice>>;
};

const anthropic = (input: number, cachedInput: number, output: number): ModelPrice => ({provider: 'anthropic', input, cachedInput, output});
const google = (input: number, cachedInput: number, output: number): ModelPrice => ({provider: 'google', input, cachedInput, output});
const openai = (input: number, cachedInput: number, output: number): ModelPrice => ({provider: 'openai', input, cachedInput, output});
const deepseek = (input: number, cachedInput: number, output: number): ModelPrice => ({provider: 'deepseek', input, cachedInput, output});
/** A model run on one's own machine with Ollama is not billed per token. */
const ollama: ModelPrice = {provider: 'ollama', input: 0, cachedInput: 0, output: 0};

export const builtinPrices: PriceTable = {
	source: "built-in: the providers' published list prices (anthropic.com, ai.google.dev, openai.com, api-docs.deepseek.com)",
	date: '2025-11-25',
	file: null,
	models: {
		// Anthropic: claude.com/pricing. Cache writes are not in the usage Perstack records (see README). Opus 4.6 to 5
		// and Sonnet 4.6 (what Claude Code runs) from platform.claude.com/docs/en/about-claude/pricing; the real
		// Claude Code streams' own costUSD agree with them. A dated id (`claude-sonnet-4-5-20250929`) is its
		// model's (cost.ts, `priceOf`).
		'claude-opus-5': anthropic(5, 0.5, 25),
		'claude-opus-4-8': anthropic(5, 0.5, 25),
		'claude-opus-4-7': anthropic(5, 0.5, 25),
		'claude-opus-4-6': anthropic(5, 0.5, 25),
		'claude-opus-4-5': anthropic(5, 0.5, 25),
		'claude-opus-4-1': anthropic(15, 1.5, 75),
		'claude-opus-4-20250514': anthropic(15, 1.5, 75),
		'claude-sonnet-4-6': anthropic(3, 0.3, 15),
		'claude-sonnet-4-5': anthropic(3, 0.3, 15),
		'claude-sonnet-4-20250514': anthropic(3, 0.3, 15),
		'claude-3-7-sonnet-20250219': anthropic(3, 0.3, 15),
		'claude-haiku-4-5': anthropic(1, 0.1, 5),
		'claude-3-5-haiku-latest': anthropic(0.8, 0.08, 4),
		// Google: ai.google.dev/gemini-api/docs/pricing, prompts up to 200k tokens.
		'gemini-3-pro-preview': google(2, 0.2, 12),
		'gemini-2.5-pro': google(1.25, 0.125, 10),
		'gemini-2.5-flash': google(0.3, 0.03, 2.5),
		'gemini-2.5-flash-lite': google(0.1, 0.01, 0.4),
		// What Gemini CLI runs (its stream names the model in `init` and `result.stats.models`), from the same page as
		// quoted on 2026-07-04 (3 Flash) and 2026-10-07 (3.1 Flash-Lite, 3.8 Flash). 3.8 Flash is at Google's price
		// through 2026-12-31 (it doubles on 2027-01-01). No price: gemini-3.1-pro-preview (its cached rate was not
		// found published), 3.5 Flash and Flash-Lite (not found on the page): their runs cost `?`.
		'gemini-3-flash-preview': google(0.5, 0.05, 3),
		'gemini-3.1-flash-lite-preview': google(0.25, 0.025, 1.5),
		'gemini-3.8-flash': google(0.75, 0.075, 3.75),
		// OpenAI: openai.com/api/pricing, standard tier.
		'gpt-5': openai(1.25, 0.125, 10),
		'gpt-5-mini': openai(0.25, 0.025, 2),
		'gpt-5-nano': openai(0.05, 0.005, 0.4),
		'gpt-5-chat-latest': openai(1.25, 0.125, 10),
		// What Codex runs: developers.openai.com/api/docs/models (gpt-5-codex), the OpenAI Help Center's Codex rate card
		// of 2026-05-13 (gpt-5.2, gpt-5.3-codex, gpt-5.4, gpt-5.5 in credits, 25 to the dollar) and GitHub's Copilot
		// price table (gpt-5.2-codex). Codex's own stream names no model (only a warning may: a run with none costs
		// `?`). No price: gpt-5.1-codex-mini and gpt-5.4-mini (no cached or whole-cent rate found), gpt-5.6-* and
		// gpt-6-* (none published found).
		'gpt-5-codex': openai(1.25, 0.125, 10),
		'gpt-5.1': openai(1.25, 0.125, 10),
		'gpt-5.1-codex': openai(1.25, 0.125, 10),
		'gpt-5.1-codex-max': openai(1.25, 0.125, 10),
		'gpt-5.2': openai(1.75, 0.175, 14),
		'gpt-5.2-codex': openai(1.75, 0.175, 14),
		'gpt-5.3-codex': openai(1.75, 0.175, 14),
		'gpt-5.4': openai(2.5, 0.25, 15),
		'gpt-5.5': openai(5, 0.5, 30),
		'o4-mini': openai(1.1, 0.275, 4.4),
		o3: openai(2, 0.5, 8),
		'o3-mini': openai(1.1, 0.55, 4.4),
		'gpt-4.1': openai(2, 0.5, 8),
		// DeepSeek: api-docs.deepseek.com/quick_start/pricing (both names serve the same model and price).
		'deepseek-chat': deepseek(0.28, 0.028, 0.42),
		'deepseek-reasoner': deepseek(0.28, 0.028, 0.42),
		'gpt-oss:20b': ollama,
		'gpt-oss:120b': ollama,
		'gemma3:1b': ollama,
		'gemma3:4b': ollama,
		'gemma3:12b': ollama,
		'gemma3:27b': ollama,
	},
};
