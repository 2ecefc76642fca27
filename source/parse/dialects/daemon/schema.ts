import type {z} from 'zod';
import {commonSchemas} from '../common.js';
import {lazily, zod} from '../zod.js';

/* The strategy daemon's observation events (seed 004): discriminated by `type`, ISO-8601 `ts`. */

function build() {
	const z = zod();
	const {looseNumber, timestamp} = commonSchemas();
	const usage = z.object({promptTokens: looseNumber, completionTokens: looseNumber}).partial();

	const agentResult = z.object({
		text: z.string().optional(),
		usage: usage.optional(),
		finishReason: z.string().optional(),
	});

	const stream = z.discriminatedUnion('type', [
		z.object({type: z.literal('text'), text: z.string()}),
		z.object({type: z.literal('tool-call'), toolName: z.string(), args: z.unknown().optional()}),
		z.object({type: z.literal('tool-result'), toolName: z.string(), output: z.unknown().optional()}),
		z.object({type: z.literal('step-start')}),
		z.object({type: z.literal('done'), result: agentResult.optional()}),
	]);

	const base = {runId: z.string(), requestId: z.string().optional(), ts: timestamp};

	const event = z.discriminatedUnion('type', [
		z.object({...base, type: z.literal('step_started'), stepName: z.string(), message: z.string().optional()}),
		z.object({...base, type: z.literal('step_completed'), stepName: z.string(), result: agentResult.optional()}),
		z.object({
			...base,
			type: z.literal('agent_output'),
			agentName: z.string(),
			text: z.string().optional(),
			usage: usage.optional(),
		}),
		z.object({...base, type: z.literal('agent_streaming'), agentName: z.string(), event: stream}),
	]);
	return {event, stream, usage};
}

/** The daemon's schemas, built on first use. */
export const daemonSchemas = lazily(build);

type Schemas = ReturnType<typeof build>;
export type DaemonEvent = z.infer<Schemas['event']>;
export type DaemonStreamEvent = z.infer<Schemas['stream']>;
export type DaemonUsage = z.infer<Schemas['usage']>;

/** The event types of the schema, known without building it (the build checks the two agree: scripts/check-wire.mjs). */
export const daemonEventTypes: ReadonlySet<string> = new Set(['step_started', 'step_completed', 'agent_output', 'agent_streaming']);
