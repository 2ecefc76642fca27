import {timestampOf, toNumber, usageOf, type Usage} from '../common.js';
import type {PerstackCheckpoint, PerstackEvent, PerstackMessagePart, PerstackToolCall, PerstackToolResult} from './schema.js';

/*
 * Reads a parsed Perstack event without zod: what perstack.ts's schema gives for it, or undefined when the
 * event is not valid (or anything about it is unexpected), and then the schema judges it, giving the reason.
 * Loading zod and building the schemas costs more than reading a small log, and validating with them is a
 * good part of reading a large one; most logs never need them now.
 *
 * Each reader follows its schema line by line: a required string must be a string, an optional one a string
 * or absent, `.default('')` gives '' when absent, an object must be a non-array object (extra keys are not
 * read), numbers and timestamps go through the same functions as the schemas' transforms, and `unknown`
 * values are kept as they are. The readers table must name every type of the schema (the compiler checks
 * that), and test/model/perstack-fast.test.ts checks, for events with every field the schema declares and
 * for every fixture and mutations of them, that both give the same event or the reader gives none.
 */

type Json = Record<string, unknown>;

/** Thrown (never seen outside this file) when the value is not what the schema accepts. */
const invalid = new Error('not valid for the Perstack schema');

function isRecord(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Json {
	if (!isRecord(value)) throw invalid;
	return value;
}

function string(value: unknown): string {
	if (typeof value !== 'string') throw invalid;
	return value;
}

function optionalString(value: unknown): string | undefined {
	if (value !== undefined && typeof value !== 'string') throw invalid;
	return value;
}

/** `z.string().default('')` */
function stringOrEmpty(value: unknown): string {
	if (value === undefined) return '';
	if (typeof value !== 'string') throw invalid;
	return value;
}

function optionalBoolean(value: unknown): boolean | undefined {
	if (value !== undefined && typeof value !== 'boolean') throw invalid;
	return value;
}

function array<T>(value: unknown, read: (element: unknown) => T): T[] {
	if (!Array.isArray(value)) throw invalid;
	const out: T[] = [];
	for (const element of value) out.push(read(element));
	return out;
}

function optional<T>(value: unknown, read: (value: unknown) => T): T | undefined {
	return value === undefined ? undefined : read(value);
}

function usage(value: unknown): Usage {
	return usageOf(record(value));
}

function part(value: unknown): PerstackMessagePart {
	const object = record(value);
	return {type: string(object['type']), text: optionalString(object['text']), thinking: optionalString(object['thinking'])};
}

function parts(value: unknown): PerstackMessagePart[] {
	return array(value, part);
}

/** `z.union([z.string(), z.array(part)]).optional()` */
function toolResultContent(value: unknown): string | PerstackMessagePart[] | undefined {
	if (value === undefined || typeof value === 'string') return value;
	return parts(value);
}

function toolCall(value: unknown): PerstackToolCall {
	const object = record(value);
	return {id: string(object['id']), skillName: stringOrEmpty(object['skillName']), toolName: string(object['toolName']), args: object['args']};
}

function toolCalls(value: unknown): PerstackToolCall[] {
	return array(value, toolCall);
}

function toolResult(value: unknown): PerstackToolResult {
	const object = record(value);
	return {id: string(object['id']), skillName: stringOrEmpty(object['skillName']), toolName: stringOrEmpty(object['toolName']), result: toolResultContent(object['result'])};
}

function toolResults(value: unknown): PerstackToolResult[] {
	return array(value, toolResult);
}

function expertRef(value: unknown): {key: string; name?: string | undefined; version?: string | undefined} {
	const object = record(value);
	return {key: string(object['key']), name: optionalString(object['name']), version: optionalString(object['version'])};
}

function delegatedBy(value: unknown): NonNullable<PerstackCheckpoint['delegatedBy']> {
	const object = record(value);
	return {
		expert: optional(object['expert'], expertRef),
		toolCallId: optionalString(object['toolCallId']),
		toolName: optionalString(object['toolName']),
		checkpointId: optionalString(object['checkpointId']),
		runId: string(object['runId']),
	};
}

function delegate(value: unknown): NonNullable<PerstackCheckpoint['delegateTo']>[number] {
	const object = record(value);
	return {
		expert: optional(object['expert'], expertRef),
		toolCallId: string(object['toolCallId']),
		toolName: optionalString(object['toolName']),
		query: optionalString(object['query']),
	};
}

function nameAndMessage(value: unknown): {name?: string | undefined; message?: string | undefined} {
	const object = record(value);
	return {name: optionalString(object['name']), message: optionalString(object['message'])};
}

function checkpoint(value: unknown): PerstackCheckpoint {
	const object = record(value);
	return {
		id: optionalString(object['id']),
		runId: optionalString(object['runId']),
		status: string(object['status']),
		stepNumber: toNumber(object['stepNumber']),
		expert: optional(object['expert'], expertRef),
		usage: optional(object['usage'], usage),
		delegatedBy: optional(object['delegatedBy'], delegatedBy),
		delegateTo: optional(object['delegateTo'], list => array(list, delegate)),
		pendingToolCalls: optional(object['pendingToolCalls'], toolCalls),
		partialToolResults: optional(object['partialToolResults'], toolResults),
		error: optional(object['error'], nameAndMessage),
	};
}

function step(value: unknown) {
	const object = record(value);
	return {
		stepNumber: toNumber(object['stepNumber']),
		usage: optional(object['usage'], usage),
		startedAt: timestampOf(object['startedAt']),
		finishedAt: timestampOf(object['finishedAt']),
	};
}

function message(value: unknown): {type: string; contents?: PerstackMessagePart[] | undefined} {
	const object = record(value);
	return {type: string(object['type']), contents: optional(object['contents'], parts)};
}

function newMessage(value: unknown): {contents?: PerstackMessagePart[] | undefined} {
	return {contents: optional(record(value)['contents'], parts)};
}

function runError(value: unknown): {name?: string | undefined; message?: string | undefined; isRetryable?: boolean | undefined} {
	const object = record(value);
	return {name: optionalString(object['name']), message: optionalString(object['message']), isRetryable: optionalBoolean(object['isRetryable'])};
}

/** The fields every event has, followed by the type's own. */
function event<T extends object>(value: Json, own: T) {
	const base = {
		id: optionalString(value['id']),
		expertKey: optionalString(value['expertKey']),
		timestamp: timestampOf(value['timestamp']),
		jobId: optionalString(value['jobId']),
		runId: string(value['runId']),
		stepNumber: toNumber(value['stepNumber']),
	};
	return Object.assign(base, own);
}

function stepEnd<T extends string>(value: Json, type: T) {
	return event(value, {type, checkpoint: checkpoint(value['checkpoint']), step: optional(value['step'], step)});
}

function oneOrMoreResults<T extends string>(value: Json, type: T) {
	return event(value, {type, toolResult: optional(value['toolResult'], toolResult), toolResults: optional(value['toolResults'], toolResults)});
}

type PerstackType = PerstackEvent['type'];
type Readers = {[T in PerstackType]: (value: Json, type: T) => Extract<PerstackEvent, {type: T}>};

const readers: Readers = {
	startRun: (value, type) =>
		event(value, {type, initialCheckpoint: checkpoint(value['initialCheckpoint']), inputMessages: optional(value['inputMessages'], list => array(list, message))}),
	startGeneration: (value, type) => event(value, {type}),
	retry: (value, type) => event(value, {type, reason: optionalString(value['reason']), usage: optional(value['usage'], usage)}),
	callTools: (value, type) =>
		event(value, {type, newMessage: optional(value['newMessage'], newMessage), toolCalls: toolCalls(value['toolCalls']), usage: optional(value['usage'], usage)}),
	callDelegate: (value, type) =>
		event(value, {type, newMessage: optional(value['newMessage'], newMessage), toolCalls: toolCalls(value['toolCalls']), usage: optional(value['usage'], usage)}),
	callInteractiveTool: (value, type) =>
		event(value, {
			type,
			newMessage: optional(value['newMessage'], newMessage),
			toolCall: optional(value['toolCall'], toolCall),
			toolCalls: optional(value['toolCalls'], toolCalls),
			usage: optional(value['usage'], usage),
		}),
	resolveToolResults: (value, type) => event(value, {type, toolResults: toolResults(value['toolResults'])}),
	resolveThought: oneOrMoreResults,
	resolvePdfFile: oneOrMoreResults,
	resolveImageFile: oneOrMoreResults,
	attemptCompletion: (value, type) => event(value, {type, toolResult: toolResult(value['toolResult'])}),
	finishToolCall: (value, type) => event(value, {type}),
	finishAllToolCalls: (value, type) => event(value, {type}),
	resumeToolCalls: (value, type) => event(value, {type}),
	finishMcpTools: (value, type) => event(value, {type}),
	skipDelegates: (value, type) => event(value, {type}),
	proceedToInteractiveTools: (value, type) => event(value, {type}),
	continueToNextStep: stepEnd,
	stopRunByInteractiveTool: stepEnd,
	stopRunByDelegate: stepEnd,
	stopRunByExceededMaxSteps: stepEnd,
	stopRunByError: (value, type) => Object.assign(stepEnd(value, type), {error: optional(value['error'], runError)}),
	completeRun: (value, type) => Object.assign(stepEnd(value, type), {text: optionalString(value['text']), usage: optional(value['usage'], usage)}),
	startStreamingReasoning: (value, type) => event(value, {type}),
	streamReasoning: (value, type) => event(value, {type, delta: string(value['delta'])}),
	completeStreamingReasoning: (value, type) => event(value, {type, text: string(value['text'])}),
	startStreamingRunResult: (value, type) => event(value, {type}),
	streamRunResult: (value, type) => event(value, {type, delta: string(value['delta'])}),
	completeStreamingRunResult: (value, type) => event(value, {type, text: string(value['text'])}),
	initializeRuntime: (value, type) => {
		const answer = value['interactiveToolCall'];
		return event(value, {
			type,
			runtimeVersion: optionalString(value['runtimeVersion']),
			expertName: optionalString(value['expertName']),
			model: optionalString(value['model']),
			maxSteps: toNumber(value['maxSteps']),
			query: optionalString(value['query']),
			interactiveToolCall:
				answer === undefined
					? undefined
					: {
							toolCallId: string(record(answer)['toolCallId']),
							toolName: optionalString(record(answer)['toolName']),
							skillName: optionalString(record(answer)['skillName']),
							text: optionalString(record(answer)['text']),
						},
		});
	},
	skillStarting: (value, type) =>
		event(value, {type, skillName: string(value['skillName']), command: optionalString(value['command']), args: optional(value['args'], list => array(list, string))}),
	skillConnected: (value, type) => {
		const info = optional(value['serverInfo'], record);
		return event(value, {
			type,
			skillName: string(value['skillName']),
			serverInfo: info && {name: optionalString(info['name']), version: optionalString(info['version'])},
			spawnDurationMs: toNumber(value['spawnDurationMs']),
			handshakeDurationMs: toNumber(value['handshakeDurationMs']),
			toolDiscoveryDurationMs: toNumber(value['toolDiscoveryDurationMs']),
			connectDurationMs: toNumber(value['connectDurationMs']),
			totalDurationMs: toNumber(value['totalDurationMs']),
		});
	},
	skillStderr: (value, type) => event(value, {type, skillName: string(value['skillName']), message: string(value['message'])}),
	skillDisconnected: (value, type) => event(value, {type, skillName: string(value['skillName'])}),
	dockerBuildProgress: (value, type) =>
		event(value, {
			type,
			stage: optionalString(value['stage']),
			service: optionalString(value['service']),
			message: optionalString(value['message']),
			progress: toNumber(value['progress']),
		}),
	dockerContainerStatus: (value, type) =>
		event(value, {type, status: optionalString(value['status']), service: optionalString(value['service']), message: optionalString(value['message'])}),
	proxyAccess: (value, type) =>
		event(value, {
			type,
			action: optionalString(value['action']),
			domain: optionalString(value['domain']),
			port: toNumber(value['port']),
			reason: optionalString(value['reason']),
		}),
};

/** Every event type of the schema. */
export const perstackEventTypes: ReadonlySet<string> = new Set(Object.keys(readers));

function isPerstackType(type: string): type is PerstackType {
	return Object.hasOwn(readers, type);
}

function read<T extends PerstackType>(value: Json, type: T): PerstackEvent {
	const reader: Readers[T] = readers[type];
	return reader(value, type);
}

/** The event as the schema gives it, or undefined when the schema must judge it (an invalid one, at least). */
export function readPerstackEvent(value: unknown, type: string): PerstackEvent | undefined {
	if (!isRecord(value) || !isPerstackType(type)) return undefined;
	try {
		return read(value, type);
	} catch (error) {
		if (error === invalid) return undefined;
		throw error;
	}
}
