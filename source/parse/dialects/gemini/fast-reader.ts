import {timestampOf, tokenCountOf} from '../common.js';
import {readWith} from '../fast-read.js';
import {byKey, literal, object, optional, record, string, boolean, transform, unknown} from '../wire-reader.js';
import type {GeminiEvent, GeminiJsonOutput} from './schema.js';

/*
 * Gemini CLI's events read without zod: schema.ts written again with wire-reader.ts's combinators, which the build
 * holds to the schema (scripts/check-wire.mjs). The reader (normalise.ts) takes what this gives, and asks the
 * schema only for a line this does not take, whose diagnostic the schema words.
 */

const timestamp = optional(transform(unknown, timestampOf));
const tokenCount = optional(transform(unknown, tokenCountOf));
const optionalString = optional(string);
const error = object({type: optionalString, message: string});
const tokens = {total_tokens: tokenCount, input_tokens: tokenCount, output_tokens: tokenCount, cached: tokenCount, input: tokenCount};
const stats = object({...tokens, duration_ms: tokenCount, tool_calls: tokenCount, models: optional(record(object(tokens)))});

/** The event reader: what the wire check compares with the schema's union. */
export const geminiEventReader = byKey('type', {
	init: object({type: literal('init'), timestamp, session_id: string, model: optionalString}),
	message: object({type: literal('message'), timestamp, role: string, content: string, delta: optional(boolean)}),
	tool_use: object({type: literal('tool_use'), timestamp, tool_name: string, tool_id: string, parameters: optional(unknown)}),
	tool_result: object({type: literal('tool_result'), timestamp, tool_id: string, status: string, output: optionalString, error: optional(error)}),
	error: object({type: literal('error'), timestamp, severity: optionalString, message: string}),
	result: object({type: literal('result'), timestamp, status: string, error: optional(error), stats: optional(stats)}),
});

const modelTokens = object({
	input: tokenCount,
	prompt: tokenCount,
	candidates: tokenCount,
	total: tokenCount,
	cached: tokenCount,
	thoughts: tokenCount,
	tool: tokenCount,
});

/** `--output-format json`'s object: what the wire check compares with the schema's `jsonOutput`. */
export const geminiJsonOutputReader = object({
	session_id: optionalString,
	response: optionalString,
	stats: optional(object({models: optional(record(object({tokens: optional(modelTokens)})))})),
	error: optional(error),
});

/** `--output-format json`'s object as the schema gives it, or undefined when the schema must judge it. */
export function readGeminiJsonOutput(value: Record<string, unknown>): GeminiJsonOutput | undefined {
	return readWith(geminiJsonOutputReader, value);
}

/** The event as the schema gives it, or undefined when the schema must judge it (an invalid one, at least). */
export function readGeminiEvent(value: Record<string, unknown>): GeminiEvent | undefined {
	return readWith(geminiEventReader, value);
}
