import type {z} from 'zod';
import {lazily, zod} from '../zod.js';

/*
 * What Codex keeps of a session (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`, the interactive TUI's
 * and `codex exec`'s alike; openai/codex codex-rs/protocol `RolloutLine`): a line per item, each with its time,
 * `{timestamp, type, payload}`, discriminated by `type`, a payload's kind by its own `type`. Only what perscope reads is
 * declared; the rest of each payload is let through unread, and a payload of a kind not known is one too.
 */

/** The line types, known without building the schema. */
export const rolloutLineTypes: ReadonlySet<string> = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/** Lines of other types a newer Codex writes, known to hold nothing to show (its world state, usage records). */
export const rolloutQuietTypes: ReadonlySet<string> = new Set(['world_state', 'token_usage_record']);

/** The payload kinds of a `response_item` declared below, each of its own shape; any other is let through unread. */
export const rolloutItemTypes: ReadonlySet<string> = new Set([
	'message',
	'reasoning',
	'function_call',
	'custom_tool_call',
	'local_shell_call',
	'web_search_call',
	'function_call_output',
	'custom_tool_call_output',
]);

/** The kinds of an `event_msg` declared below; any other is let through unread. */
export const rolloutEventTypes: ReadonlySet<string> = new Set(['task_started', 'task_complete', 'turn_aborted', 'error', 'token_count']);

const schemas = lazily(() => {
	const z = zod();
	const text = z.object({type: z.string(), text: z.string().optional()});
	const usage = z.object({
		input_tokens: z.number().optional(),
		cached_input_tokens: z.number().optional(),
		output_tokens: z.number().optional(),
		reasoning_output_tokens: z.number().optional(),
	});
	const output = z.union([z.string(), z.object({content: z.string().optional()})]);
	// A kind not declared here is no line of these (the reader takes it as a kind with nothing to show, undeclaredKind);
	// one declared that is not of its shape is judged.
	const responseItem = z.discriminatedUnion('type', [
		z.object({type: z.literal('message'), role: z.string(), content: z.array(text)}),
		z.object({type: z.literal('reasoning'), summary: z.array(text).optional()}),
		z.object({type: z.literal('function_call'), name: z.string(), arguments: z.string(), call_id: z.string()}),
		z.object({type: z.literal('custom_tool_call'), name: z.string(), input: z.string(), call_id: z.string()}),
		z.object({
			type: z.literal('local_shell_call'),
			call_id: z.string().optional(),
			action: z.object({command: z.array(z.string()).optional()}).optional(),
		}),
		z.object({type: z.literal('web_search_call'), action: z.object({query: z.string().optional()}).optional()}),
		z.object({type: z.literal('function_call_output'), call_id: z.string(), output}),
		z.object({type: z.literal('custom_tool_call_output'), call_id: z.string(), output}),
	]);
	const eventMessage = z.discriminatedUnion('type', [
		z.object({type: z.literal('task_started')}),
		z.object({type: z.literal('task_complete'), last_agent_message: z.string().nullish()}),
		z.object({type: z.literal('turn_aborted'), reason: z.string().optional()}),
		z.object({type: z.literal('error'), message: z.string()}),
		z.object({
			type: z.literal('token_count'),
			info: z.object({last_token_usage: usage.optional(), total_token_usage: usage.optional()}).nullish(),
		}),
	]);
	const line = z.discriminatedUnion('type', [
		z.object({
			timestamp: z.string(),
			type: z.literal('session_meta'),
			payload: z.object({id: z.string(), session_id: z.string().optional(), parent_thread_id: z.string().optional(), cwd: z.string().optional()}),
		}),
		z.object({timestamp: z.string(), type: z.literal('turn_context'), payload: z.object({model: z.string().optional()})}),
		z.object({timestamp: z.string(), type: z.literal('response_item'), payload: responseItem}),
		z.object({timestamp: z.string(), type: z.literal('event_msg'), payload: eventMessage}),
		z.object({timestamp: z.string(), type: z.literal('compacted'), payload: z.object({})}),
	]);
	return {line, responseItem, eventMessage};
});

export const rolloutSchemas: () => {line: z.ZodType<RolloutLine>; responseItem: z.ZodType; eventMessage: z.ZodType} = schemas as () => {
	line: z.ZodType<RolloutLine>;
	responseItem: z.ZodType;
	eventMessage: z.ZodType;
};

/**
 * A `response_item` or `event_msg` line whose payload is of a kind not declared above, as the reader takes it: a kind
 * with nothing to show, its payload not read. Undefined for any other line (which the schema, or its reader, reads).
 */
export function undeclaredKind(value: Record<string, unknown>): RolloutLine | undefined {
	const type = value['type'];
	const timestamp = value['timestamp'];
	const payload = value['payload'];
	if ((type !== 'response_item' && type !== 'event_msg') || typeof timestamp !== 'string' || typeof payload !== 'object' || payload === null) return undefined;
	const kind: unknown = Reflect.get(payload, 'type');
	if (typeof kind !== 'string' || (type === 'response_item' ? rolloutItemTypes : rolloutEventTypes).has(kind)) return undefined;
	return {timestamp, type, payload: {type: kind}};
}

type Text = {type: string; text?: string | undefined};
export type RolloutUsage = {
	input_tokens?: number | undefined;
	cached_input_tokens?: number | undefined;
	output_tokens?: number | undefined;
	reasoning_output_tokens?: number | undefined;
};

export type RolloutItem =
	| {type: 'message'; role: string; content: Text[]}
	| {type: 'reasoning'; summary?: Text[] | undefined}
	| {type: 'function_call'; name: string; arguments: string; call_id: string}
	| {type: 'custom_tool_call'; name: string; input: string; call_id: string}
	| {type: 'local_shell_call'; call_id?: string | undefined; action?: {command?: string[] | undefined} | undefined}
	| {type: 'web_search_call'; action?: {query?: string | undefined} | undefined}
	| {type: 'function_call_output' | 'custom_tool_call_output'; call_id: string; output: string | {content?: string | undefined}}
	| {type: string};

export type RolloutEvent =
	| {type: 'task_started'}
	| {type: 'task_complete'; last_agent_message?: string | null | undefined}
	| {type: 'turn_aborted'; reason?: string | undefined}
	| {type: 'error'; message: string}
	| {type: 'token_count'; info?: {last_token_usage?: RolloutUsage | undefined; total_token_usage?: RolloutUsage | undefined} | null | undefined}
	| {type: string};

export type RolloutLine =
	| {
			timestamp: string;
			type: 'session_meta';
			payload: {id: string; session_id?: string | undefined; parent_thread_id?: string | undefined; cwd?: string | undefined};
	  }
	| {timestamp: string; type: 'turn_context'; payload: {model?: string | undefined}}
	| {timestamp: string; type: 'response_item'; payload: RolloutItem}
	| {timestamp: string; type: 'event_msg'; payload: RolloutEvent}
	| {timestamp: string; type: 'compacted'; payload: Record<string, unknown>};
