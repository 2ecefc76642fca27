import type {z} from 'zod';
import {commonSchemas} from '../common.js';
import {lazily, zod} from '../zod.js';

/*
 * Claude Code's `--output-format stream-json` (the Agent SDK's message stream, one message a line; versions 2.0 to
 * 2.1.x, ../shared/agent-streams/FORMATS.md A.1), as far as perscope reads it. Only what is read is declared:
 * message histories, tool inputs and the tools' own results are taken as they are, and fields a later version
 * adds never reject a line. Amp's `--stream-json` is the same envelope (amp/).
 */

/** The message types of the stream, known without building the schema (the build checks the two agree). */
export const claudeLineTypes: ReadonlySet<string> = new Set([
	'system',
	'assistant',
	'user',
	'result',
	'stream_event',
	'rate_limit_event',
	'tool_progress',
	'tool_use_summary',
	'auth_status',
	'prompt_suggestion',
	'conversation_reset',
	'keep_alive',
]);

/**
 * `system` subtypes the SDK documents that say nothing perscope shows (hooks, status, estimates, …): read as
 * markers, never counted as unknown. The ones it reads are named in reader.ts.
 */
export const quietSystemSubtypes: ReadonlySet<string> = new Set([
	// An interactive session's transcript: a turn's length, a slash command the person ran (`/usage`) and its output.
	'turn_duration',
	'local_command',
	'status',
	'compact_boundary',
	'hook_started',
	'hook_progress',
	'hook_response',
	'thinking_tokens',
	'permission_denied',
	'session_state_changed',
	'informational',
	'notification',
	'task_progress',
	'background_tasks_changed',
	'files_persisted',
	'local_command_output',
	'elicitation_complete',
	'memory_recall',
	'plugin_install',
	// A transcript's summary of the hooks run as a turn stopped (2.1.3x).
	'stop_hook_summary',
]);

function build() {
	const z = zod();
	const {looseNumber, timestamp} = commonSchemas();
	const text = z.string().optional();

	/** The Messages API's usage; each count is read with tokenCountOf later (usage.ts). */
	const usage = z.object({
		input_tokens: z.unknown().optional(),
		output_tokens: z.unknown().optional(),
		cache_creation_input_tokens: z.unknown().optional(),
		cache_read_input_tokens: z.unknown().optional(),
	});

	/** A content block of a message: every kind has a `type`; the fields read of the kinds that are shown. */
	const block = z.object({
		type: z.string(),
		text,
		thinking: text,
		id: text,
		name: text,
		input: z.unknown().optional(),
		tool_use_id: text,
		content: z.unknown().optional(),
		is_error: z.boolean().nullish(),
	});

	const content = z.union([z.string(), z.array(block)]);

	/** What every line may carry: the session, the sub-agent's spawning call, and (2.1.x, some lines) a time. */
	const base = {
		session_id: text,
		uuid: text,
		parent_tool_use_id: z.string().nullish(),
		timestamp,
	};

	const system = z.object({
		...base,
		type: z.literal('system'),
		subtype: z.string(),
		// init
		model: text,
		claude_code_version: text,
		mcp_servers: z.array(z.object({name: z.string(), status: text})).optional(),
		// task_started, task_notification
		task_id: text,
		tool_use_id: text,
		description: text,
		subagent_type: text,
		task_type: text,
		prompt: text,
		parent_task_id: z.string().nullish(),
		is_backgrounded: z.boolean().nullish(),
		// `system/status`: null once a compaction is over (2.1.197: `"status": null, "compact_result": "success"`).
		status: z.string().nullish(),
		summary: text,
		// task_notification's usage (its `duration_ms`) and task_updated's patch (its `end_time`), read in sub-agents.ts
		usage: z.unknown().optional(),
		patch: z.unknown().optional(),
		// api_retry
		attempt: looseNumber,
		max_retries: looseNumber,
		retry_delay_ms: looseNumber,
		error_status: z.union([z.number(), z.string()]).nullish(),
		error: z.unknown().optional(),
	});

	const assistant = z.object({
		...base,
		type: z.literal('assistant'),
		message: z.object({id: text, model: text, content, usage: usage.nullish()}),
		/** An API error the CLI shows as a message (`authentication_failed`, `rate_limit`, …). */
		error: text,
		subagent_type: text,
	});

	const user = z.object({
		...base,
		type: z.literal('user'),
		message: z.object({content}),
		/** The tool's own result, structured (Read's file, Bash's stdout and stderr, Agent's report). */
		tool_use_result: z.unknown().optional(),
		isSynthetic: z.boolean().nullish(),
		isReplay: z.boolean().nullish(),
		subagent_type: text,
	});

	const result = z.object({
		...base,
		type: z.literal('result'),
		subtype: z.string(),
		is_error: z.boolean().nullish(),
		result: text,
		num_turns: looseNumber,
		duration_ms: looseNumber,
		total_cost_usd: looseNumber,
		usage: usage.nullish(),
		modelUsage: z.record(z.string(), z.object({costUSD: looseNumber})).nullish(),
		errors: z.array(z.unknown()).nullish(),
		/** Amp: the error as text (`413 {…}`). */
		error: z.unknown().optional(),
		terminal_reason: text,
		stop_reason: z.string().nullish(),
	});

	const streamEvent = z.object({
		...base,
		type: z.literal('stream_event'),
		/** One Messages API streaming event, as the API sent it. */
		event: z.object({
			type: z.string(),
			message: z.object({id: text, model: text, usage: usage.nullish()}).optional(),
			content_block: z.object({type: z.string()}).optional(),
			delta: z.object({type: text, text, thinking: text}).optional(),
			usage: usage.nullish(),
		}),
	});

	const rateLimit = z.object({
		...base,
		type: z.literal('rate_limit_event'),
		rate_limit_info: z.object({status: text, rateLimitType: text, resetsAt: looseNumber}).optional(),
	});

	/** Lines of the SDK's union with nothing to show: known, read as markers. */
	const quiet = (type: 'tool_progress' | 'tool_use_summary' | 'auth_status' | 'prompt_suggestion' | 'conversation_reset' | 'keep_alive') =>
		z.object({...base, type: z.literal(type)});

	const line = z.discriminatedUnion('type', [
		system,
		assistant,
		user,
		result,
		streamEvent,
		rateLimit,
		quiet('tool_progress'),
		quiet('tool_use_summary'),
		quiet('auth_status'),
		quiet('prompt_suggestion'),
		quiet('conversation_reset'),
		quiet('keep_alive'),
	]);
	return {line, usage, block};
}

/** Claude Code's schemas, built on first use. */
export const claudeSchemas = lazily(build);

type Schemas = ReturnType<typeof build>;
export type ClaudeLine = z.infer<Schemas['line']>;
export type ClaudeUsage = z.infer<Schemas['usage']>;
export type ClaudeBlock = z.infer<Schemas['block']>;
export type ClaudeLineOf<T extends ClaudeLine['type']> = Extract<ClaudeLine, {type: T}>;
