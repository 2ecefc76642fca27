import type {z} from 'zod';
import {commonSchemas, tokenCountOf, toNumber} from '../common.js';
import {lazily, zod} from '../zod.js';

/*
 * What opencode prints with `opencode run --format json` (anomalyco/opencode, formerly sst/opencode,
 * packages/opencode/src/cli/cmd/run.ts): one event a line, `{type, timestamp, sessionID, …}`, the time being when
 * the CLI printed it (epoch ms). Only the root session's finished parts are printed: a step's start and finish
 * (with its tokens and cost), its text and reasoning once each is whole, a tool call once it has completed or
 * failed (no line when it starts), the session's errors, and, in newer versions, `done` when the session goes idle.
 * This schema is the reference: fast-reader.ts declares the same with wire-reader.ts's combinators, and the build
 * holds the two together (scripts/check-wire.mjs).
 */

function build() {
	const z = zod();
	const {timestamp} = commonSchemas();
	const tokenCount = z.unknown().transform(tokenCountOf).optional();
	const optionalString = z.string().optional();
	const base = {timestamp, sessionID: z.string()};

	const tokens = z.object({
		total: tokenCount,
		input: tokenCount,
		output: tokenCount,
		reasoning: tokenCount,
		cache: z.object({read: tokenCount, write: tokenCount}).optional(),
	});

	const state = z.object({
		status: z.string(),
		input: z.unknown().optional(),
		output: optionalString,
		error: optionalString,
		title: optionalString,
		metadata: z.unknown().optional(),
		time: z.object({start: timestamp, end: timestamp}).optional(),
	});

	const textPart = z.object({messageID: optionalString, text: z.string()});

	const event = z.discriminatedUnion('type', [
		z.object({type: z.literal('step_start'), ...base, part: z.object({messageID: optionalString})}),
		z.object({type: z.literal('text'), ...base, part: textPart}),
		z.object({type: z.literal('reasoning'), ...base, part: textPart}),
		z.object({type: z.literal('tool_use'), ...base, part: z.object({messageID: optionalString, tool: z.string(), callID: z.string(), state})}),
		z.object({
			type: z.literal('step_finish'),
			...base,
			part: z.object({messageID: optionalString, reason: optionalString, tokens: tokens.optional(), cost: z.unknown().transform(toNumber).optional()}),
		}),
		// A session's error (`{name, data: {message, …}}`), or the prompt's own failure: its shape is the SDK's.
		z.object({type: z.literal('error'), ...base, error: z.unknown().optional()}),
		z.object({type: z.literal('done'), ...base, reason: optionalString, rejected: z.array(z.string()).optional()}),
	]);

	return {event, tokens};
}

/** opencode's schemas, built on first use. */
export const opencodeSchemas = lazily(build);

type Schemas = ReturnType<typeof build>;
export type OpencodeEvent = z.infer<Schemas['event']>;
export type OpencodeTokens = z.infer<Schemas['tokens']>;
