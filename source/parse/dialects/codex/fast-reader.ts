import {toNumber, tokenCountOf} from '../common.js';
import {readWith} from '../fast-read.js';
import {array, boolean, byKey, literal, nullish, object, optional, preprocess, record, string, transform, unknown} from '../wire-reader.js';
import {itemOfOldShape, type CodexEvent} from './schema.js';

/*
 * Codex's events read without zod: schema.ts written again with wire-reader.ts's combinators, which the build
 * holds to the schema (scripts/check-wire.mjs). The reader (normalise.ts) takes what this gives, and asks the
 * schema only for a line this does not take, whose diagnostic the schema words.
 */

const looseNumber = optional(transform(unknown, toNumber));
const tokenCount = optional(transform(unknown, tokenCountOf));
const status = optional(string);
const message = object({message: string});

const item = byKey('type', {
	agent_message: object({id: string, type: literal('agent_message'), text: string}),
	reasoning: object({id: string, type: literal('reasoning'), text: string}),
	plan: object({id: string, type: literal('plan'), text: string}),
	command_execution: object({
		id: string,
		type: literal('command_execution'),
		command: string,
		aggregated_output: nullish(string),
		exit_code: looseNumber,
		status,
	}),
	file_change: object({id: string, type: literal('file_change'), changes: array(object({path: string, kind: string, diff: nullish(string)})), status}),
	mcp_tool_call: object({
		id: string,
		type: literal('mcp_tool_call'),
		server: string,
		tool: string,
		arguments: optional(unknown),
		result: nullish(object({content: nullish(array(unknown)), structured_content: optional(unknown)})),
		error: nullish(message),
		status,
	}),
	collab_tool_call: object({
		id: string,
		type: literal('collab_tool_call'),
		tool: string,
		sender_thread_id: nullish(string),
		receiver_thread_ids: nullish(array(string)),
		prompt: nullish(string),
		agents_states: nullish(record(object({status: string, message: nullish(string)}))),
		status,
	}),
	web_search: object({id: string, type: literal('web_search'), query: string, action: optional(unknown)}),
	todo_list: object({id: string, type: literal('todo_list'), items: array(object({text: string, completed: boolean}))}),
	error: object({id: string, type: literal('error'), message: string}),
});

const usage = object({
	input_tokens: tokenCount,
	cached_input_tokens: tokenCount,
	cache_write_input_tokens: tokenCount,
	output_tokens: tokenCount,
	reasoning_output_tokens: tokenCount,
});
const anItem = preprocess(itemOfOldShape, item);

/** The event reader: what the wire check compares with the schema's union. */
export const codexEventReader = byKey('type', {
	'thread.started': object({type: literal('thread.started'), thread_id: string}),
	'session.created': object({type: literal('session.created'), session_id: string}),
	'turn.started': object({type: literal('turn.started')}),
	'turn.completed': object({type: literal('turn.completed'), usage: optional(usage)}),
	'turn.failed': object({type: literal('turn.failed'), error: optional(message)}),
	'item.started': object({type: literal('item.started'), item: anItem}),
	'item.updated': object({type: literal('item.updated'), item: anItem}),
	'item.completed': object({type: literal('item.completed'), item: anItem}),
	'item.plan.delta': object({type: literal('item.plan.delta'), item_id: string, delta: string}),
	request_user_input: object({type: literal('request_user_input'), id: optional(string), call_id: string, questions: array(unknown)}),
	error: object({type: literal('error'), message: string}),
});

/** The event as the schema gives it, or undefined when the schema must judge it (an invalid one, at least). */
export function readCodexEvent(value: Record<string, unknown>): CodexEvent | undefined {
	return readWith(codexEventReader, value);
}
