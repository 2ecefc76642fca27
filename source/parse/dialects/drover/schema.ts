import type {z} from 'zod';
import {commonSchemas} from '../common.js';
import {lazily, zod} from '../zod.js';

/* drover's HarnessEvent union (seed 002): discriminated by `kind`; every event has `runId` and `ts`. */

function build() {
	const z = zod();
	const {looseNumber, stepNumber, timestamp} = commonSchemas();
	const base = {runId: z.string(), ts: timestamp, turn: stepNumber};

	function event<K extends string, S extends z.ZodRawShape>(kind: K, shape: S) {
		return z.object({...base, kind: z.literal(kind), ...shape});
	}

	const empty = {};

	return z.discriminatedUnion('kind', [
		event('run_start', {agentId: z.string().optional(), specHash: z.string().optional()}),
		event('input_validated', empty),
		event('turn_start', empty),
		event('llm_call', {modelName: z.string().optional(), reasoning: z.unknown().optional()}),
		event('thinking', {text: z.string()}),
		event('assistant_text', {text: z.string()}),
		event('tool_call_start', {toolUseId: z.string(), toolName: z.string(), input: z.unknown().optional()}),
		event('tool_call_end', {
			toolUseId: z.string(),
			toolName: z.string().optional(),
			result: z.unknown().optional(),
			durationMs: looseNumber,
		}),
		event('usage', {
			usage: z.object({inputTokens: looseNumber, outputTokens: looseNumber, costUsd: looseNumber}),
		}),
		event('compaction', {beforeTokens: looseNumber, afterTokens: looseNumber, collapsedRange: z.unknown().optional()}),
		event('subagent_start', {childRunId: z.string(), agentId: z.string().optional()}),
		event('subagent_end', {childRunId: z.string(), status: z.string().optional()}),
		event('output_validated', empty),
		event('output_retry', {attempt: looseNumber, reason: z.string().optional()}),
		event('run_end', {status: z.string().optional()}),
		event('error', {tag: z.string().optional(), message: z.string().optional()}),
	]);
}

/** drover's event schema, built on first use. */
export const droverEventSchema = lazily(build);

export type DroverEvent = z.infer<ReturnType<typeof build>>;

/** The event kinds of the schema, known without building it (the build checks the two agree: scripts/check-wire.mjs). */
export const droverEventKinds: ReadonlySet<string> = new Set([
	'run_start',
	'input_validated',
	'turn_start',
	'llm_call',
	'thinking',
	'assistant_text',
	'tool_call_start',
	'tool_call_end',
	'usage',
	'compaction',
	'subagent_start',
	'subagent_end',
	'output_validated',
	'output_retry',
	'run_end',
	'error',
]);
