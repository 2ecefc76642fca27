import {z} from 'zod';
import {looseNumber, timestamp, usageSchema} from './common.js';

/*
 * Perstack's wire format (events reference, runtime README, and what the real runtime prints).
 * Only what the viewer reads is validated; message histories and other large fields are not declared,
 * so zod never walks them and unknown extra fields never cause a rejection.
 */

const part = z.object({
	type: z.string(),
	text: z.string().optional(),
	thinking: z.string().optional(),
});

/** Tool results are arrays of message parts on the wire; older runtimes and tests may send a bare string. */
const toolResultContent = z.union([z.string(), z.array(part)]).optional();

export const toolCallSchema = z.object({
	id: z.string(),
	skillName: z.string().default(''),
	toolName: z.string(),
	args: z.unknown().optional(),
});

export const toolResultSchema = z.object({
	id: z.string(),
	skillName: z.string().default(''),
	toolName: z.string().default(''),
	result: toolResultContent,
});

const expertRef = z.object({key: z.string(), name: z.string().optional(), version: z.string().optional()});

const checkpointSchema = z.object({
	id: z.string().optional(),
	runId: z.string().optional(),
	status: z.string(),
	stepNumber: looseNumber,
	expert: expertRef.optional(),
	usage: usageSchema.optional(),
	delegatedBy: z
		.object({
			expert: expertRef.optional(),
			toolCallId: z.string().optional(),
			toolName: z.string().optional(),
			checkpointId: z.string().optional(),
			runId: z.string(),
		})
		.optional(),
	delegateTo: z
		.array(
			z.object({
				expert: expertRef.optional(),
				toolCallId: z.string(),
				toolName: z.string().optional(),
				query: z.string().optional(),
			}),
		)
		.optional(),
	pendingToolCalls: z.array(toolCallSchema).optional(),
	partialToolResults: z.array(toolResultSchema).optional(),
	error: z.object({name: z.string().optional(), message: z.string().optional()}).optional(),
});

const stepSchema = z.object({
	stepNumber: looseNumber,
	usage: usageSchema.optional(),
	startedAt: timestamp,
	finishedAt: timestamp,
});

const messageSchema = z.object({
	type: z.string(),
	contents: z.array(part).optional(),
});

const errorSchema = z.object({
	name: z.string().optional(),
	message: z.string().optional(),
	isRetryable: z.boolean().optional(),
});

const base = {
	id: z.string().optional(),
	expertKey: z.string().optional(),
	timestamp,
	jobId: z.string().optional(),
	runId: z.string(),
	stepNumber: looseNumber,
};

function event<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
	return z.object({...base, type: z.literal(type), ...shape});
}

const stepEnd = {checkpoint: checkpointSchema, step: stepSchema.optional()};
const toolCalls = {
	newMessage: z.object({contents: z.array(part).optional()}).optional(),
	toolCalls: z.array(toolCallSchema),
	usage: usageSchema.optional(),
};
const empty = {};

export const perstackEventSchema = z.discriminatedUnion('type', [
	// Lifecycle and state machine
	event('startRun', {initialCheckpoint: checkpointSchema, inputMessages: z.array(messageSchema).optional()}),
	event('startGeneration', empty),
	event('retry', {reason: z.string().optional(), usage: usageSchema.optional()}),
	event('callTools', toolCalls),
	event('callDelegate', toolCalls),
	event('callInteractiveTool', {
		newMessage: toolCalls.newMessage,
		toolCall: toolCallSchema.optional(),
		toolCalls: z.array(toolCallSchema).optional(),
		usage: usageSchema.optional(),
	}),
	event('resolveToolResults', {toolResults: z.array(toolResultSchema)}),
	event('resolveThought', {toolResult: toolResultSchema.optional(), toolResults: z.array(toolResultSchema).optional()}),
	event('resolvePdfFile', {toolResult: toolResultSchema.optional(), toolResults: z.array(toolResultSchema).optional()}),
	event('resolveImageFile', {toolResult: toolResultSchema.optional(), toolResults: z.array(toolResultSchema).optional()}),
	event('attemptCompletion', {toolResult: toolResultSchema}),
	event('finishToolCall', empty),
	event('finishAllToolCalls', empty),
	event('resumeToolCalls', empty),
	event('finishMcpTools', empty),
	event('skipDelegates', empty),
	event('proceedToInteractiveTools', empty),
	event('continueToNextStep', stepEnd),
	event('stopRunByInteractiveTool', stepEnd),
	event('stopRunByDelegate', stepEnd),
	event('stopRunByExceededMaxSteps', stepEnd),
	event('stopRunByError', {...stepEnd, error: errorSchema.optional()}),
	event('completeRun', {...stepEnd, text: z.string().optional(), usage: usageSchema.optional()}),
	// Streaming
	event('startStreamingReasoning', empty),
	event('streamReasoning', {delta: z.string()}),
	event('completeStreamingReasoning', {text: z.string()}),
	event('startStreamingRunResult', empty),
	event('streamRunResult', {delta: z.string()}),
	event('completeStreamingRunResult', {text: z.string()}),
	// Runtime
	event('initializeRuntime', {
		runtimeVersion: z.string().optional(),
		expertName: z.string().optional(),
		model: z.string().optional(),
		maxSteps: looseNumber,
		query: z.string().optional(),
		interactiveToolCall: z
			.object({
				toolCallId: z.string(),
				toolName: z.string().optional(),
				skillName: z.string().optional(),
				text: z.string().optional(),
			})
			.optional(),
	}),
	event('skillStarting', {skillName: z.string(), command: z.string().optional(), args: z.array(z.string()).optional()}),
	event('skillConnected', {
		skillName: z.string(),
		serverInfo: z.object({name: z.string().optional(), version: z.string().optional()}).optional(),
		spawnDurationMs: looseNumber,
		handshakeDurationMs: looseNumber,
		toolDiscoveryDurationMs: looseNumber,
		connectDurationMs: looseNumber,
		totalDurationMs: looseNumber,
	}),
	event('skillStderr', {skillName: z.string(), message: z.string()}),
	event('skillDisconnected', {skillName: z.string()}),
	event('dockerBuildProgress', {
		stage: z.string().optional(),
		service: z.string().optional(),
		message: z.string().optional(),
		progress: looseNumber,
	}),
	event('dockerContainerStatus', {
		status: z.string().optional(),
		service: z.string().optional(),
		message: z.string().optional(),
	}),
	event('proxyAccess', {
		action: z.string().optional(),
		domain: z.string().optional(),
		port: looseNumber,
		reason: z.string().optional(),
	}),
]);

export type PerstackEvent = z.infer<typeof perstackEventSchema>;
export type PerstackToolCall = z.infer<typeof toolCallSchema>;
export type PerstackToolResult = z.infer<typeof toolResultSchema>;
export type PerstackCheckpoint = z.infer<typeof checkpointSchema>;
export type PerstackMessagePart = z.infer<typeof part>;

export const perstackEventTypes: ReadonlySet<string> = new Set(perstackEventSchema.options.map(option => option.shape.type.value));
