import type {z} from 'zod';
import {commonSchemas, tokenCountOf} from '../common.js';
import {lazily, zod} from '../zod.js';

/*
 * What `codex exec --json` prints (openai/codex codex-rs/exec/src/exec_events.rs): one `ThreadEvent` a line,
 * discriminated by `type`, an item's kind by its own `type`. No line carries a timestamp, and only
 * `thread.started` a thread id. Codex 0.42–0.43 spelt the item's kind `item_type` and the agent's message
 * `assistant_message`, and 0.42 began with `session.created {session_id}`: `itemOfOldShape` renames those before
 * the schema reads them, so the union below is the one declaration of both.
 */

/** The item kinds, known without building the schema (the build checks the two agree: scripts/check-wire.mjs). */
export const codexItemTypes: ReadonlySet<string> = new Set([
	'agent_message',
	'reasoning',
	'plan',
	'command_execution',
	'file_change',
	'mcp_tool_call',
	'collab_tool_call',
	'web_search',
	'todo_list',
	'error',
]);

/** The event types, likewise. */
export const codexEventTypes: ReadonlySet<string> = new Set([
	'thread.started',
	'session.created',
	'turn.started',
	'turn.completed',
	'turn.failed',
	'item.started',
	'item.updated',
	'item.completed',
	'item.plan.delta',
	'request_user_input',
	'error',
]);

/**
 * An item as Codex 0.44 and later write it: 0.42–0.43's `item_type` becomes `type`, their `assistant_message` an
 * `agent_message`. Anything else is left as it is, for the schema to judge.
 */
export function itemOfOldShape(item: unknown): unknown {
	if (typeof item !== 'object' || item === null || Array.isArray(item) || 'type' in item) return item;
	const oldType: unknown = Reflect.get(item, 'item_type');
	if (typeof oldType !== 'string') return item;
	return {...item, type: oldType === 'assistant_message' ? 'agent_message' : oldType};
}

function build() {
	const z = zod();
	const {looseNumber} = commonSchemas();
	const tokenCount = z.unknown().transform(tokenCountOf).optional();
	// Absent while a tool runs (0.46 leaves `exit_code` out, 0.149 writes null): both are "not known yet".
	const maybe = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
	const status = z.string().optional();
	const message = z.object({message: z.string()});

	const item = z.discriminatedUnion('type', [
		z.object({id: z.string(), type: z.literal('agent_message'), text: z.string()}),
		z.object({id: z.string(), type: z.literal('reasoning'), text: z.string()}),
		z.object({id: z.string(), type: z.literal('plan'), text: z.string()}),
		z.object({
			id: z.string(),
			type: z.literal('command_execution'),
			command: z.string(),
			aggregated_output: maybe(z.string()),
			exit_code: looseNumber,
			status,
		}),
		z.object({
			id: z.string(),
			type: z.literal('file_change'),
			changes: z.array(z.object({path: z.string(), kind: z.string(), diff: maybe(z.string())})),
			status,
		}),
		z.object({
			id: z.string(),
			type: z.literal('mcp_tool_call'),
			server: z.string(),
			tool: z.string(),
			arguments: z.unknown().optional(),
			result: maybe(z.object({content: maybe(z.array(z.unknown())), structured_content: z.unknown().optional()})),
			error: maybe(message),
			status,
		}),
		z.object({
			id: z.string(),
			type: z.literal('collab_tool_call'),
			tool: z.string(),
			sender_thread_id: maybe(z.string()),
			receiver_thread_ids: maybe(z.array(z.string())),
			prompt: maybe(z.string()),
			agents_states: maybe(z.record(z.string(), z.object({status: z.string(), message: maybe(z.string())}))),
			status,
		}),
		z.object({id: z.string(), type: z.literal('web_search'), query: z.string(), action: z.unknown().optional()}),
		z.object({id: z.string(), type: z.literal('todo_list'), items: z.array(z.object({text: z.string(), completed: z.boolean()}))}),
		z.object({id: z.string(), type: z.literal('error'), message: z.string()}),
	]);

	const usage = z.object({
		input_tokens: tokenCount,
		cached_input_tokens: tokenCount,
		cache_write_input_tokens: tokenCount,
		output_tokens: tokenCount,
		reasoning_output_tokens: tokenCount,
	});

	const event = z.discriminatedUnion('type', [
		z.object({type: z.literal('thread.started'), thread_id: z.string()}),
		z.object({type: z.literal('session.created'), session_id: z.string()}),
		z.object({type: z.literal('turn.started')}),
		z.object({type: z.literal('turn.completed'), usage: usage.optional()}),
		z.object({type: z.literal('turn.failed'), error: message.optional()}),
		z.object({type: z.literal('item.started'), item: z.preprocess(itemOfOldShape, item)}),
		z.object({type: z.literal('item.updated'), item: z.preprocess(itemOfOldShape, item)}),
		z.object({type: z.literal('item.completed'), item: z.preprocess(itemOfOldShape, item)}),
		z.object({type: z.literal('item.plan.delta'), item_id: z.string(), delta: z.string()}),
		z.object({type: z.literal('request_user_input'), id: z.string().optional(), call_id: z.string(), questions: z.array(z.unknown())}),
		z.object({type: z.literal('error'), message: z.string()}),
	]);

	return {event, item, usage};
}

/** Codex's schemas, built on first use. */
export const codexSchemas = lazily(build);

type Schemas = ReturnType<typeof build>;
export type CodexEvent = z.infer<Schemas['event']>;
export type CodexItem = z.infer<Schemas['item']>;
export type CodexUsage = z.infer<Schemas['usage']>;
