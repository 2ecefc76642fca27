import {stepNumberOf, timestampOf, tokenCountOf, toNumber, usageTotals} from '../common.js';
import {array, boolean, isRecord, literal, object, optional, string, transform, union, unknown, withDefault, type Reader} from '../wire-reader.js';
import type {PerstackEvent} from './schema.js';
import {readWith} from '../fast-read.js';

/*
 * Reads a parsed Perstack event without zod: what schema.ts's schema gives for it, or undefined when the event
 * is not valid (or anything about it is unexpected), and then the schema judges it, giving the reason.
 * Loading zod and building the schemas costs more than reading a small log, and validating with them is a
 * good part of reading a large one; most logs never need them now.
 *
 * The readers below are schema.ts written again with wire-reader.ts's combinators, which do what the zod
 * constructs of the same names do. That they are the same declaration is not left to care: `npm run build`
 * compares each reader's spec with the built schema (scripts/check-wire.mjs, wire-check.ts) and fails on any
 * difference, and the compiler checks that every type of the schema has a reader giving its type.
 */

// The shared pieces of common.ts's schemas, with the very same transforms.
const looseNumber = optional(transform(unknown, toNumber));
const stepNumber = optional(transform(unknown, stepNumberOf));
const timestamp = optional(transform(unknown, timestampOf));
const tokenCount = optional(transform(unknown, tokenCountOf));
const usage = transform(
	object({inputTokens: tokenCount, outputTokens: tokenCount, reasoningTokens: tokenCount, totalTokens: tokenCount, cachedInputTokens: tokenCount}),
	usageTotals,
);

const optionalString = optional(string);

const part = object({type: string, text: optionalString, thinking: optionalString});

/** Tool results are arrays of message parts on the wire; older runtimes and tests may send a bare string. */
const toolResultContent = optional(union(string, array(part)));

const toolCall = object({id: string, skillName: withDefault(string, ''), toolName: string, args: optional(unknown)});

const toolResult = object({id: string, skillName: withDefault(string, ''), toolName: withDefault(string, ''), result: toolResultContent});

const expertRef = object({key: string, name: optionalString, version: optionalString});

const checkpoint = object({
	id: optionalString,
	runId: optionalString,
	status: string,
	stepNumber,
	expert: optional(expertRef),
	usage: optional(usage),
	delegatedBy: optional(
		object({expert: optional(expertRef), toolCallId: optionalString, toolName: optionalString, checkpointId: optionalString, runId: optionalString}),
	),
	delegateTo: optional(array(object({expert: optional(expertRef), toolCallId: string, toolName: optionalString, query: optionalString}))),
	pendingToolCalls: optional(array(toolCall)),
	partialToolResults: optional(array(toolResult)),
	error: optional(object({name: optionalString, message: optionalString})),
});

const step = object({stepNumber, usage: optional(usage), startedAt: timestamp, finishedAt: timestamp});

const message = object({type: string, contents: optional(array(part))});

const runError = object({name: optionalString, message: optionalString, isRetryable: optional(boolean)});

const base = {id: optionalString, expertKey: optionalString, timestamp, jobId: optionalString, runId: string, stepNumber};

function typed<T extends string, S extends Readonly<Record<string, Reader<unknown>>>>(type: T, shape: S) {
	return object({...base, type: literal(type), ...shape});
}

const stepEnd = {checkpoint, step: optional(step)};
const newMessage = optional(object({contents: optional(array(part))}));
const toolCalls = {newMessage, toolCalls: array(toolCall), usage: optional(usage)};
const oneOrMoreResults = {toolResult: optional(toolResult), toolResults: optional(array(toolResult))};
const empty = {};

type PerstackType = PerstackEvent['type'];
type Readers = {[T in PerstackType]: Reader<Extract<PerstackEvent, {type: T}>>};

/** Each event type's reader: what the wire check compares with the schema's options. */
export const perstackReaders: Readers = {
	// Lifecycle and state machine
	startRun: typed('startRun', {initialCheckpoint: checkpoint, inputMessages: optional(array(message))}),
	startGeneration: typed('startGeneration', empty),
	retry: typed('retry', {reason: optionalString, usage: optional(usage)}),
	callTools: typed('callTools', toolCalls),
	callDelegate: typed('callDelegate', toolCalls),
	callInteractiveTool: typed('callInteractiveTool', {newMessage, toolCall: optional(toolCall), toolCalls: optional(array(toolCall)), usage: optional(usage)}),
	resolveToolResults: typed('resolveToolResults', {toolResults: array(toolResult)}),
	resolveThought: typed('resolveThought', oneOrMoreResults),
	resolvePdfFile: typed('resolvePdfFile', oneOrMoreResults),
	resolveImageFile: typed('resolveImageFile', oneOrMoreResults),
	attemptCompletion: typed('attemptCompletion', {toolResult}),
	finishToolCall: typed('finishToolCall', empty),
	finishAllToolCalls: typed('finishAllToolCalls', empty),
	resumeToolCalls: typed('resumeToolCalls', empty),
	finishMcpTools: typed('finishMcpTools', empty),
	skipDelegates: typed('skipDelegates', empty),
	proceedToInteractiveTools: typed('proceedToInteractiveTools', empty),
	continueToNextStep: typed('continueToNextStep', stepEnd),
	stopRunByInteractiveTool: typed('stopRunByInteractiveTool', stepEnd),
	stopRunByDelegate: typed('stopRunByDelegate', stepEnd),
	stopRunByExceededMaxSteps: typed('stopRunByExceededMaxSteps', stepEnd),
	stopRunByError: typed('stopRunByError', {...stepEnd, error: optional(runError)}),
	completeRun: typed('completeRun', {...stepEnd, text: optionalString, usage: optional(usage)}),
	// Streaming
	startStreamingReasoning: typed('startStreamingReasoning', empty),
	streamReasoning: typed('streamReasoning', {delta: string}),
	completeStreamingReasoning: typed('completeStreamingReasoning', {text: string}),
	startStreamingRunResult: typed('startStreamingRunResult', empty),
	streamRunResult: typed('streamRunResult', {delta: string}),
	completeStreamingRunResult: typed('completeStreamingRunResult', {text: string}),
	startReasoning: typed('startReasoning', empty),
	completeReasoning: typed('completeReasoning', {text: string}),
	startRunResult: typed('startRunResult', empty),
	// Runtime
	initializeRuntime: typed('initializeRuntime', {
		runtimeVersion: optionalString,
		runtime: optionalString,
		expertName: optionalString,
		model: optionalString,
		maxSteps: looseNumber,
		query: optionalString,
		interactiveToolCall: optional(object({toolCallId: string, toolName: optionalString, skillName: optionalString, text: optionalString})),
	}),
	skillStarting: typed('skillStarting', {skillName: string, command: optionalString, args: optional(array(string))}),
	skillConnected: typed('skillConnected', {
		skillName: string,
		serverInfo: optional(object({name: optionalString, version: optionalString})),
		spawnDurationMs: looseNumber,
		handshakeDurationMs: looseNumber,
		toolDiscoveryDurationMs: looseNumber,
		connectDurationMs: looseNumber,
		totalDurationMs: looseNumber,
	}),
	skillStderr: typed('skillStderr', {skillName: string, message: string}),
	skillDisconnected: typed('skillDisconnected', {skillName: string}),
	dockerBuildProgress: typed('dockerBuildProgress', {stage: optionalString, service: optionalString, message: optionalString, progress: looseNumber}),
	dockerContainerStatus: typed('dockerContainerStatus', {status: optionalString, service: optionalString, message: optionalString}),
	proxyAccess: typed('proxyAccess', {action: optionalString, domain: optionalString, port: looseNumber, reason: optionalString}),
};

/** Every event type of the schema. */
export const perstackEventTypes: ReadonlySet<string> = new Set(Object.keys(perstackReaders));

/** The readers by type, in a Map rather than looked up as keys of an object: why in byKey (wire-reader.ts). */
const readersByType: ReadonlyMap<string, Reader<PerstackEvent>> = new Map(Object.entries(perstackReaders));

/** The event as the schema gives it, or undefined when the schema must judge it (an invalid one, at least). */
export function readPerstackEvent(value: unknown, type: string): PerstackEvent | undefined {
	const reader = readersByType.get(type);
	if (!isRecord(value) || reader === undefined) return undefined;
	return readWith(reader, value);
}
