import {readWith} from '../fast-read.js';
import {array, byKey, literal, nullish, number, object, optional, string, union} from '../wire-reader.js';
import type {RolloutLine} from './rollout-schema.js';

/*
 * A rollout's lines read without zod: rollout-schema.ts written again with wire-reader.ts's combinators, which the
 * build holds to the schema (scripts/check-wire.mjs). The reader (rollout.ts) takes what this gives, and asks the
 * schema only for a line this does not take, whose diagnostic the schema words. A long session is tens of thousands
 * of lines: zod checked each at ~6 µs, a fifth of the time such a file takes to read.
 */

const text = object({type: string, text: optional(string)});
const usage = object({
	input_tokens: optional(number),
	cached_input_tokens: optional(number),
	output_tokens: optional(number),
	reasoning_output_tokens: optional(number),
});
const output = union(string, object({content: optional(string)}));

const responseItem = byKey('type', {
	message: object({type: literal('message'), role: string, content: array(text)}),
	reasoning: object({type: literal('reasoning'), summary: optional(array(text))}),
	function_call: object({type: literal('function_call'), name: string, arguments: string, call_id: string}),
	custom_tool_call: object({type: literal('custom_tool_call'), name: string, input: string, call_id: string}),
	local_shell_call: object({
		type: literal('local_shell_call'),
		call_id: optional(string),
		action: optional(object({command: optional(array(string))})),
	}),
	web_search_call: object({type: literal('web_search_call'), action: optional(object({query: optional(string)}))}),
	function_call_output: object({type: literal('function_call_output'), call_id: string, output}),
	custom_tool_call_output: object({type: literal('custom_tool_call_output'), call_id: string, output}),
});

const eventMessage = byKey('type', {
	task_started: object({type: literal('task_started')}),
	task_complete: object({type: literal('task_complete'), last_agent_message: nullish(string)}),
	turn_aborted: object({type: literal('turn_aborted'), reason: optional(string)}),
	error: object({type: literal('error'), message: string}),
	token_count: object({
		type: literal('token_count'),
		info: nullish(object({last_token_usage: optional(usage), total_token_usage: optional(usage)})),
	}),
});

/** The line reader: what the wire check compares with the schema's union. */
export const rolloutLineReader = byKey('type', {
	session_meta: object({
		timestamp: string,
		type: literal('session_meta'),
		payload: object({id: string, session_id: optional(string), parent_thread_id: optional(string), cwd: optional(string)}),
	}),
	turn_context: object({timestamp: string, type: literal('turn_context'), payload: object({model: optional(string)})}),
	response_item: object({timestamp: string, type: literal('response_item'), payload: responseItem}),
	event_msg: object({timestamp: string, type: literal('event_msg'), payload: eventMessage}),
	compacted: object({timestamp: string, type: literal('compacted'), payload: object({})}),
});

/** The line as the schema gives it, or undefined when the schema must judge it (an invalid one, at least). */
export function readRolloutLine(value: Record<string, unknown>): RolloutLine | undefined {
	return readWith(rolloutLineReader, value);
}
