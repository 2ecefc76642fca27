import type {z} from 'zod';
import {commonSchemas} from '../common.js';
import {lazily, zod} from '../zod.js';

/*
 * Perstack's wire format (events reference, runtime README, and what the real runtime prints).
 * Only what the viewer reads is validated; message histories and other large fields are not declared,
 * so zod never walks them and unknown extra fields never cause a rejection.
 *
 * These schemas are the definition of what a valid event is and what is read from it. Lines are mostly
 * read by fast-reader.ts instead, which gives exactly what these give or leaves the line to them: the build
 * compares the two declarations (scripts/check-wire.mjs) and fails on any difference.
 */

function build() {
	const z = zod();
	const {looseNumber, stepNumber, timestamp, usage: usageSchema} = commonSchemas();

	const part = z.object({
		type: z.string(),
		text: z.string().optional(),
		thinking: z.string().optional(),
	});

	/** Tool results are arrays of message parts on the wire; older runtimes and tests may send a bare string. */
	const toolResultContent = z.union([z.string(), z.array(part)]).optional();

	const toolCallSchema = z.object({
		id: z.string(),
		skillName: z.string().default(''),
		toolName: z.string(),
		args: z.unknown().optional(),
	});

	const toolResultSchema = z.object({
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
		stepNumber,
		expert: expertRef.optional(),
		usage: usageSchema.optional(),
		delegatedBy: z
			.object({
				expert: expertRef.optional(),
				toolCallId: z.string().optional(),
				toolName: z.string().optional(),
				checkpointId: z.string().optional(),
				// The released CLI (0.0.54) does not write it: the parent is found by its checkpoint (docs/model-rules.md).
				runId: z.string().optional(),
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
		stepNumber,
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
		stepNumber,
	};

	function typed<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
		return z.object({...base, type: z.literal(type), ...shape});
	}

	const stepEnd = {checkpoint: checkpointSchema, step: stepSchema.optional()};
	const toolCalls = {
		newMessage: z.object({contents: z.array(part).optional()}).optional(),
		toolCalls: z.array(toolCallSchema),
		usage: usageSchema.optional(),
	};
	const empty = {};

	const event = z.discriminatedUnion('type', [
		// Lifecycle and state machine
		typed('startRun', {initialCheckpoint: checkpointSchema, inputMessages: z.array(messageSchema).optional()}),
		typed('startGeneration', empty),
		typed('retry', {reason: z.string().optional(), usage: usageSchema.optional()}),
		typed('callTools', toolCalls),
		typed('callDelegate', toolCalls),
		typed('callInteractiveTool', {
			newMessage: toolCalls.newMessage,
			toolCall: toolCallSchema.optional(),
			toolCalls: z.array(toolCallSchema).optional(),
			usage: usageSchema.optional(),
		}),
		typed('resolveToolResults', {toolResults: z.array(toolResultSchema)}),
		typed('resolveThought', {toolResult: toolResultSchema.optional(), toolResults: z.array(toolResultSchema).optional()}),
		typed('resolvePdfFile', {toolResult: toolResultSchema.optional(), toolResults: z.array(toolResultSchema).optional()}),
		typed('resolveImageFile', {toolResult: toolResultSchema.optional(), toolResults: z.array(toolResultSchema).optional()}),
		typed('attemptCompletion', {toolResult: toolResultSchema}),
		typed('finishToolCall', empty),
		typed('finishAllToolCalls', empty),
		typed('resumeToolCalls', empty),
		typed('finishMcpTools', empty),
		typed('skipDelegates', empty),
		typed('proceedToInteractiveTools', empty),
		typed('continueToNextStep', stepEnd),
		typed('stopRunByInteractiveTool', stepEnd),
		typed('stopRunByDelegate', stepEnd),
		typed('stopRunByExceededMaxSteps', stepEnd),
		typed('stopRunByError', {...stepEnd, error: errorSchema.optional()}),
		typed('completeRun', {...stepEnd, text: z.string().optional(), usage: usageSchema.optional()}),
		// Streaming
		typed('startStreamingReasoning', empty),
		typed('streamReasoning', {delta: z.string()}),
		typed('completeStreamingReasoning', {text: z.string()}),
		typed('startStreamingRunResult', empty),
		typed('streamRunResult', {delta: z.string()}),
		typed('completeStreamingRunResult', {text: z.string()}),
		// The released CLI's names for the same events (0.0.54), with no expertKey or stepNumber on the wire.
		typed('startReasoning', empty),
		typed('completeReasoning', {text: z.string()}),
		typed('startRunResult', empty),
		// Runtime
		typed('initializeRuntime', {
			runtimeVersion: z.string().optional(),
			runtime: z.string().optional(),
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
		typed('skillStarting', {skillName: z.string(), command: z.string().optional(), args: z.array(z.string()).optional()}),
		typed('skillConnected', {
			skillName: z.string(),
			serverInfo: z.object({name: z.string().optional(), version: z.string().optional()}).optional(),
			spawnDurationMs: looseNumber,
			handshakeDurationMs: looseNumber,
			toolDiscoveryDurationMs: looseNumber,
			connectDurationMs: looseNumber,
			totalDurationMs: looseNumber,
		}),
		typed('skillStderr', {skillName: z.string(), message: z.string()}),
		typed('skillDisconnected', {skillName: z.string()}),
		typed('dockerBuildProgress', {
			stage: z.string().optional(),
			service: z.string().optional(),
			message: z.string().optional(),
			progress: looseNumber,
		}),
		typed('dockerContainerStatus', {
			status: z.string().optional(),
			service: z.string().optional(),
			message: z.string().optional(),
		}),
		typed('proxyAccess', {
			action: z.string().optional(),
			domain: z.string().optional(),
			port: looseNumber,
			reason: z.string().optional(),
		}),
	]);

	return {event, checkpoint: checkpointSchema, toolCall: toolCallSchema, toolResult: toolResultSchema, part};
}

/** Perstack's schemas, built on first use. */
export const perstackSchemas = lazily(build);

type Schemas = ReturnType<typeof build>;
export type PerstackEvent = z.infer<Schemas['event']>;
export type PerstackToolCall = z.infer<Schemas['toolCall']>;
export type PerstackToolResult = z.infer<Schemas['toolResult']>;
export type PerstackCheckpoint = z.infer<Schemas['checkpoint']>;
export type PerstackMessagePart = z.infer<Schemas['part']>;
