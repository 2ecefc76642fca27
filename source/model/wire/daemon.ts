import {z} from 'zod';
import {looseNumber, timestamp} from './common.js';

/* The strategy daemon's observation events (seed 004): discriminated by `type`, ISO-8601 `ts`. */

const usage = z.object({promptTokens: looseNumber, completionTokens: looseNumber}).partial();

const agentResult = z.object({
	text: z.string().optional(),
	usage: usage.optional(),
	finishReason: z.string().optional(),
});

export const daemonStreamEventSchema = z.discriminatedUnion('type', [
	z.object({type: z.literal('text'), text: z.string()}),
	z.object({type: z.literal('tool-call'), toolName: z.string(), args: z.unknown().optional()}),
	z.object({type: z.literal('tool-result'), toolName: z.string(), output: z.unknown().optional()}),
	z.object({type: z.literal('step-start')}),
	z.object({type: z.literal('done'), result: agentResult.optional()}),
]);

const base = {runId: z.string(), requestId: z.string().optional(), ts: timestamp};

export const daemonEventSchema = z.discriminatedUnion('type', [
	z.object({...base, type: z.literal('step_started'), stepName: z.string(), message: z.string().optional()}),
	z.object({...base, type: z.literal('step_completed'), stepName: z.string(), result: agentResult.optional()}),
	z.object({
		...base,
		type: z.literal('agent_output'),
		agentName: z.string(),
		text: z.string().optional(),
		usage: usage.optional(),
	}),
	z.object({...base, type: z.literal('agent_streaming'), agentName: z.string(), event: daemonStreamEventSchema}),
]);

export type DaemonEvent = z.infer<typeof daemonEventSchema>;
export type DaemonStreamEvent = z.infer<typeof daemonStreamEventSchema>;
export type DaemonUsage = z.infer<typeof usage>;

export const daemonEventTypes: ReadonlySet<string> = new Set(daemonEventSchema.options.map(option => option.shape.type.value));
