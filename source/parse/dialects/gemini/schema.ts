import type {z} from 'zod';
import {commonSchemas, tokenCountOf} from '../common.js';
import {lazily, zod} from '../zod.js';

/*
 * What Gemini CLI prints with `--output-format stream-json` (google-gemini/gemini-cli
 * packages/core/src/output/types.ts, `JsonStreamEvent`): one event a line, discriminated by `type`, each with an
 * ISO `timestamp`. Only `init` names the session. `stats` gained `cached`/`input` in 0.22 and per-model figures in
 * 0.34; older streams leave them out. And what it prints with `--output-format json` (`jsonOutput`).
 */

/** The event types, known without building the schema (the build checks the two agree: scripts/check-wire.mjs). */
export const geminiEventTypes: ReadonlySet<string> = new Set(['init', 'message', 'tool_use', 'tool_result', 'error', 'result']);

function build() {
	const z = zod();
	const {timestamp} = commonSchemas();
	const tokenCount = z.unknown().transform(tokenCountOf).optional();
	const error = z.object({type: z.string().optional(), message: z.string()});
	const tokens = {total_tokens: tokenCount, input_tokens: tokenCount, output_tokens: tokenCount, cached: tokenCount, input: tokenCount};
	const stats = z.object({
		...tokens,
		duration_ms: tokenCount,
		tool_calls: tokenCount,
		models: z.record(z.string(), z.object(tokens)).optional(),
	});

	const event = z.discriminatedUnion('type', [
		z.object({type: z.literal('init'), timestamp, session_id: z.string(), model: z.string().optional()}),
		z.object({type: z.literal('message'), timestamp, role: z.string(), content: z.string(), delta: z.boolean().optional()}),
		z.object({type: z.literal('tool_use'), timestamp, tool_name: z.string(), tool_id: z.string(), parameters: z.unknown().optional()}),
		z.object({type: z.literal('tool_result'), timestamp, tool_id: z.string(), status: z.string(), output: z.string().optional(), error: error.optional()}),
		z.object({type: z.literal('error'), timestamp, severity: z.string().optional(), message: z.string()}),
		z.object({type: z.literal('result'), timestamp, status: z.string(), error: error.optional(), stats: stats.optional()}),
	]);

	// `--output-format json`: one object at the end of a run, no `type` (packages/core/src/output/types.ts, `JsonOutput`);
	// its `stats` are the session's metrics, per model (`models.<name>.tokens`: `prompt` holds the cached input).
	const modelTokens = z.object({
		input: tokenCount,
		prompt: tokenCount,
		candidates: tokenCount,
		total: tokenCount,
		cached: tokenCount,
		thoughts: tokenCount,
		tool: tokenCount,
	});
	const jsonOutput = z.object({
		session_id: z.string().optional(),
		response: z.string().optional(),
		stats: z.object({models: z.record(z.string(), z.object({tokens: modelTokens.optional()})).optional()}).optional(),
		error: error.optional(),
	});

	return {event, stats, jsonOutput};
}

/** Gemini CLI's schemas, built on first use. */
export const geminiSchemas = lazily(build);

type Schemas = ReturnType<typeof build>;
export type GeminiEvent = z.infer<Schemas['event']>;
export type GeminiStats = z.infer<Schemas['stats']>;
export type GeminiJsonOutput = z.infer<Schemas['jsonOutput']>;
