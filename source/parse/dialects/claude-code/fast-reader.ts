import {timestampOf, toNumber} from '../common.js';
import {readWith} from '../fast-read.js';
import {array, boolean, byKey, literal, nullish, number, object, optional, record, string, transform, union, unknown} from '../wire-reader.js';
import type {ClaudeLine} from './schema.js';

/*
 * Claude Code's lines (and Amp's) read without zod: schema.ts written again with wire-reader.ts's combinators,
 * which the build holds to the schema (scripts/check-wire.mjs). The reader (reader.ts) takes what this gives, and
 * asks the schema only for a line this does not take, whose diagnostic the schema words.
 */

const looseNumber = optional(transform(unknown, toNumber));
const timestamp = optional(transform(unknown, timestampOf));
const text = optional(string);
const anything = optional(unknown);
const usage = object({input_tokens: anything, output_tokens: anything, cache_creation_input_tokens: anything, cache_read_input_tokens: anything});
const block = object({
	type: string,
	text,
	thinking: text,
	id: text,
	name: text,
	input: anything,
	tool_use_id: text,
	content: anything,
	is_error: nullish(boolean),
});
const content = union(string, array(block));
const base = {session_id: text, uuid: text, parent_tool_use_id: nullish(string), timestamp};

const system = object({
	...base,
	type: literal('system'),
	subtype: string,
	model: text,
	claude_code_version: text,
	mcp_servers: optional(array(object({name: string, status: text}))),
	task_id: text,
	tool_use_id: text,
	description: text,
	subagent_type: text,
	task_type: text,
	prompt: text,
	parent_task_id: nullish(string),
	is_backgrounded: nullish(boolean),
	status: nullish(string),
	summary: text,
	usage: anything,
	patch: anything,
	attempt: looseNumber,
	max_retries: looseNumber,
	retry_delay_ms: looseNumber,
	error_status: nullish(union(number, string)),
	error: anything,
});

const assistant = object({
	...base,
	type: literal('assistant'),
	message: object({id: text, model: text, content, usage: nullish(usage)}),
	error: text,
	subagent_type: text,
});

const user = object({
	...base,
	type: literal('user'),
	message: object({content}),
	tool_use_result: anything,
	isSynthetic: nullish(boolean),
	isReplay: nullish(boolean),
	subagent_type: text,
});

const result = object({
	...base,
	type: literal('result'),
	subtype: string,
	is_error: nullish(boolean),
	result: text,
	num_turns: looseNumber,
	duration_ms: looseNumber,
	total_cost_usd: looseNumber,
	usage: nullish(usage),
	modelUsage: nullish(record(object({costUSD: looseNumber}))),
	errors: nullish(array(unknown)),
	error: anything,
	terminal_reason: text,
	stop_reason: nullish(string),
});

const streamEvent = object({
	...base,
	type: literal('stream_event'),
	event: object({
		type: string,
		message: optional(object({id: text, model: text, usage: nullish(usage)})),
		content_block: optional(object({type: string})),
		delta: optional(object({type: text, text, thinking: text})),
		usage: nullish(usage),
	}),
});

const rateLimit = object({
	...base,
	type: literal('rate_limit_event'),
	rate_limit_info: optional(object({status: text, rateLimitType: text, resetsAt: looseNumber})),
});

/** The line reader: what the wire check compares with the schema's union. */
export const claudeLineReader = byKey('type', {
	system,
	assistant,
	user,
	result,
	stream_event: streamEvent,
	rate_limit_event: rateLimit,
	tool_progress: object({...base, type: literal('tool_progress')}),
	tool_use_summary: object({...base, type: literal('tool_use_summary')}),
	auth_status: object({...base, type: literal('auth_status')}),
	prompt_suggestion: object({...base, type: literal('prompt_suggestion')}),
	conversation_reset: object({...base, type: literal('conversation_reset')}),
	keep_alive: object({...base, type: literal('keep_alive')}),
});

/** The line as the schema gives it, or undefined when the schema must judge it (an invalid one, at least). */
export function readClaudeLine(value: Record<string, unknown>): ClaudeLine | undefined {
	return readWith(claudeLineReader, value);
}
