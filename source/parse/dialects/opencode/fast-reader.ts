import {timestampOf, tokenCountOf, toNumber} from '../common.js';
import {array, isRecord, literal, object, optional, string, transform, unknown, type Reader} from '../wire-reader.js';
import type {OpencodeEvent} from './schema.js';
import {readWith} from '../fast-read.js';

/*
 * Reads a parsed opencode event without zod: what schema.ts's schema gives for it, or undefined when the schema
 * must judge it (an invalid event, at least), as perstack/fast-reader.ts does for Perstack's. The readers are
 * schema.ts written again with wire-reader.ts's combinators; `npm run build` compares the two
 * (scripts/check-wire.mjs) and fast-reader.test.ts holds them to the same result on every sample.
 */

const timestamp = optional(transform(unknown, timestampOf));
const tokenCount = optional(transform(unknown, tokenCountOf));
const optionalString = optional(string);
const base = {timestamp, sessionID: string};

const tokens = object({
	total: tokenCount,
	input: tokenCount,
	output: tokenCount,
	reasoning: tokenCount,
	cache: optional(object({read: tokenCount, write: tokenCount})),
});

const state = object({
	status: string,
	input: optional(unknown),
	output: optionalString,
	error: optionalString,
	title: optionalString,
	metadata: optional(unknown),
	time: optional(object({start: timestamp, end: timestamp})),
});

const textPart = object({messageID: optionalString, text: string});

type OpencodeType = OpencodeEvent['type'];
type Readers = {[T in OpencodeType]: Reader<Extract<OpencodeEvent, {type: T}>>};

/** Each event type's reader: what the wire check compares with the schema's options. */
export const opencodeReaders: Readers = {
	step_start: object({type: literal('step_start'), ...base, part: object({messageID: optionalString})}),
	text: object({type: literal('text'), ...base, part: textPart}),
	reasoning: object({type: literal('reasoning'), ...base, part: textPart}),
	tool_use: object({type: literal('tool_use'), ...base, part: object({messageID: optionalString, tool: string, callID: string, state})}),
	step_finish: object({
		type: literal('step_finish'),
		...base,
		part: object({messageID: optionalString, reason: optionalString, tokens: optional(tokens), cost: optional(transform(unknown, toNumber))}),
	}),
	error: object({type: literal('error'), ...base, error: optional(unknown)}),
	done: object({type: literal('done'), ...base, reason: optionalString, rejected: optional(array(string))}),
};

/** Every event type of the schema, known without building it. */
export const opencodeEventTypes: ReadonlySet<string> = new Set(Object.keys(opencodeReaders));

/** The readers by type, in a Map rather than looked up as keys of an object: why in byKey (wire-reader.ts). */
const readersByType: ReadonlyMap<string, Reader<OpencodeEvent>> = new Map(Object.entries(opencodeReaders));

export function isOpencodeType(type: string): type is OpencodeType {
	return readersByType.has(type);
}

/** The event as the schema gives it, or undefined when the schema must judge it. */
export function readOpencodeEvent(value: unknown, type: OpencodeType): OpencodeEvent | undefined {
	const reader = readersByType.get(type);
	if (!isRecord(value) || reader === undefined) return undefined;
	return readWith(reader, value);
}
