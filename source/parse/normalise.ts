import type {z} from 'zod';
import type {Line} from './line-splitter.js';
import type {AgentEvent, CheckpointInfo, Dialect, EventRef, ParsedLine, RunStatus, ToolCall, ToolResult, Usage} from '../model/events.js';
import {runStatuses} from '../model/events.js';
import {zeroUsage} from '../model/usage.js';
import {tokenCountOf} from './dialects/common.js';
import {daemonEventTypes, daemonSchemas, type DaemonEvent, type DaemonUsage} from './dialects/daemon/schema.js';
import {droverEventKinds, droverEventSchema, type DroverEvent} from './dialects/drover/schema.js';
import {perstackEventTypes, readPerstackEvent} from './dialects/perstack/fast-reader.js';
import {perstackSchemas, type PerstackCheckpoint, type PerstackEvent, type PerstackMessagePart, type PerstackToolCall, type PerstackToolResult} from './dialects/perstack/schema.js';

/** PERSCOPE_FAST=0 validates every Perstack event with the schema itself: the reference for test/perf and the bench. */
const readWithoutSchemas = process.env['PERSCOPE_FAST'] !== '0';

/**
 * Turns one line into exactly one of: a valid event, an unknown-but-well-formed event, or a diagnostic.
 * Nothing throws past this function, whatever the line holds.
 */
export function parseLine(line: Line): ParsedLine {
	let value: unknown;
	try {
		value = JSON.parse(line.text);
	} catch (error) {
		return diagnostic(line, `not JSON (${describeJsonError(error)})`);
	}

	try {
		return parseValue(value, line);
	} catch (error) {
		// Defensive: a bug in normalisation must cost one line, not the whole stream.
		return diagnostic(line, `could not read event: ${error instanceof Error ? error.message : String(error)}`);
	}
}

export function parseValue(value: unknown, line: Line): ParsedLine {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return diagnostic(line, `not an event: JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}, expected an object`);
	}

	const ref: EventRef = {source: line.source, line: line.line, offset: line.offset};
	const kind = 'kind' in value ? value.kind : undefined;
	const type = 'type' in value ? value.type : undefined;

	if (typeof kind === 'string' && typeof type !== 'string') {
		if (!droverEventKinds.has(kind)) return unknown(value, 'drover', kind, ref);
		const parsed = droverEventSchema().safeParse(value);
		if (!parsed.success) return diagnostic(line, invalid(kind, parsed.error));
		return {kind: 'event', event: fromDrover(parsed.data, ref)};
	}

	if (typeof type !== 'string') return diagnostic(line, 'not an event: no "type" or "kind" field');

	if (daemonEventTypes.has(type) && !('jobId' in value)) {
		const parsed = daemonSchemas().event.safeParse(value);
		if (!parsed.success) return diagnostic(line, invalid(type, parsed.error));
		return {kind: 'event', event: fromDaemon(parsed.data, ref)};
	}

	if (!perstackEventTypes.has(type)) return unknown(value, 'jobId' in value || 'expertKey' in value ? 'perstack' : 'daemon', type, ref);
	const read = readWithoutSchemas ? readPerstackEvent(value, type) : undefined;
	if (read) return {kind: 'event', event: fromPerstack(read, ref)};
	const parsed = perstackSchemas().event.safeParse(value);
	if (!parsed.success) return diagnostic(line, invalid(type, parsed.error));
	return {kind: 'event', event: fromPerstack(parsed.data, ref)};
}

function diagnostic(line: Line, reason: string): ParsedLine {
	return {kind: 'diagnostic', diagnostic: {line: line.line, source: line.source, reason}};
}

function describeJsonError(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	// V8 quotes the offending input in the message; keep the reason short, and never cut a surrogate pair
	// in half (a lone surrogate is not valid UTF-8 once written out).
	if (message.length <= 120) return message;
	const code = message.charCodeAt(116);
	return `${message.slice(0, code >= 0xd800 && code <= 0xdbff ? 116 : 117)}...`;
}

function invalid(type: string, error: z.ZodError): string {
	const issue = error.issues[0];
	if (!issue) return `invalid ${type} event`;
	const path = issue.path.map(String).join('.');
	return `invalid ${type} event: ${path === '' ? '' : `${path}: `}${issue.message}`;
}

/**
 * JSON text of a value that came out of JSON.parse. JSON.parse builds values nested 100,000 levels deep
 * without complaint, but JSON.stringify recurses and throws on them; that must cost a placeholder, not
 * the event.
 */
export function jsonText(value: unknown): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return '[value too deep to show]';
	}
}

function stringField(value: object, key: string): string | undefined {
	const field: unknown = Reflect.get(value, key);
	return typeof field === 'string' ? field : undefined;
}

function unknown(value: object, dialect: Dialect, wireType: string, ref: EventRef): ParsedLine {
	const runId = stringField(value, 'runId') ?? '';
	return {
		kind: 'event',
		event: {
			kind: 'unknown',
			dialect,
			wireType,
			id: stringField(value, 'id') ?? `${ref.source}:${ref.line}`,
			jobId: stringField(value, 'jobId') ?? '',
			runId,
			expertKey: stringField(value, 'expertKey'),
			step: undefined,
			timestamp: undefined,
			agent: undefined,
			ref,
		},
	};
}

// ---------------------------------------------------------------------------------------------------------
// Perstack

function toStatus(status: string): RunStatus {
	for (const known of runStatuses) if (known === status) return known;
	// A status from a newer runtime: the run is still going as far as we can tell.
	return 'proceeding';
}

export function partsText(parts: PerstackMessagePart[] | string | undefined): string {
	if (parts === undefined) return '';
	if (typeof parts === 'string') return parts;
	let out = '';
	for (const part of parts) {
		const piece = part.text ?? (part.type === 'textPart' ? '' : `[${part.type.replace(/Part$/, '')}]`);
		if (piece === '') continue;
		out = out === '' ? piece : `${out}\n${piece}`;
	}

	return out;
}

/** Tool errors arrive as ordinary result text holding JSON like `{"error":"Error","message":"…"}`. */
/**
 * The runtime's own words for a failed MCP call, as a result's text: `Error calling tool X: …` when the call
 * threw, `Error: …` when the server answered with an error. Only at the start: text that merely mentions an
 * error ("processed without error") is no error.
 */
const plainToolError = /^(?:Error calling tool \S[^\n]*?:|Error:)/;

export function toolErrorOf(text: string): string | undefined {
	const trimmed = text.trimStart();
	if (plainToolError.test(trimmed)) return trimmed.trimEnd();
	if (!trimmed.startsWith('{') || !trimmed.includes('"error"')) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(trimmed);
	} catch {
		return undefined;
	}

	if (typeof value !== 'object' || value === null || Array.isArray(value) || !('error' in value)) return undefined;
	const message = stringField(value, 'message');
	const error: unknown = value.error;
	const name = typeof error === 'string' ? error : error === true || error === null || error === undefined ? '' : jsonText(error);
	if (message !== undefined && message !== '') return message;
	return name === '' ? 'error' : name;
}

function toToolCall(call: PerstackToolCall): ToolCall {
	return {id: call.id, skillName: call.skillName, toolName: call.toolName, args: call.args};
}

function toToolResult(result: PerstackToolResult): ToolResult {
	const text = partsText(result.result);
	return {id: result.id, skillName: result.skillName, toolName: result.toolName, text, error: toolErrorOf(text)};
}

function toCheckpoint(checkpoint: PerstackCheckpoint): CheckpointInfo {
	const pending: string[] = [];
	for (const delegate of checkpoint.delegateTo ?? []) pending.push(delegate.toolCallId);
	for (const call of checkpoint.pendingToolCalls ?? []) pending.push(call.id);
	for (const result of checkpoint.partialToolResults ?? []) pending.push(result.id);
	const delegatedBy = checkpoint.delegatedBy;
	return {
		id: checkpoint.id,
		runId: checkpoint.runId,
		status: toStatus(checkpoint.status),
		step: checkpoint.stepNumber,
		pendingToolCallIds: pending,
		partialResults: (checkpoint.partialToolResults ?? []).map(toToolResult),
		delegateTo: (checkpoint.delegateTo ?? []).map(delegate => ({
			toolCallId: delegate.toolCallId,
			expertKey: delegate.expert?.key ?? delegate.toolName ?? '',
			query: delegate.query,
		})),
		delegatedBy: delegatedBy ? {runId: delegatedBy.runId, expertKey: delegatedBy.expert?.key, toolCallId: delegatedBy.toolCallId} : undefined,
		usage: checkpoint.usage,
	};
}

function lastUserText(messages: Array<{type: string; contents?: PerstackMessagePart[] | undefined}> | undefined): string | undefined {
	if (!messages) return undefined;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message?.type === 'userMessage') return partsText(message.contents);
	}

	return undefined;
}

function messageParts(parts: PerstackMessagePart[] | undefined): {text: string | undefined; thinking: string | undefined} {
	let text: string | undefined;
	let thinking: string | undefined;
	for (const part of parts ?? []) {
		if (part.type === 'textPart' && part.text) text = text === undefined ? part.text : `${text}\n${part.text}`;
		if (part.type === 'thinkingPart' && part.thinking) thinking = thinking === undefined ? part.thinking : `${thinking}\n\n${part.thinking}`;
	}

	return {text, thinking};
}

const endings = {
	continueToNextStep: 'continue',
	stopRunByInteractiveTool: 'stopByInteractiveTool',
	stopRunByDelegate: 'stopByDelegate',
	stopRunByExceededMaxSteps: 'stopByExceededMaxSteps',
	stopRunByError: 'stopByError',
	completeRun: 'complete',
} as const;

type EventHead = Pick<AgentEvent, 'dialect' | 'wireType' | 'id' | 'jobId' | 'runId' | 'expertKey' | 'step' | 'timestamp' | 'agent' | 'ref'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type EventBody = DistributiveOmit<AgentEvent, keyof EventHead> & Partial<EventHead>;

/**
 * `{...head, ...body}` for a head made fresh per event. Node 20's V8 defines every property written after
 * a spread through a slow path, which cost microseconds per event (most of a large file's load time).
 */
function withHead(head: EventHead, body: EventBody): AgentEvent {
	return Object.assign(head, body);
}

/** Exported for the fast lane of streaming lines (stream-line.ts), which builds `event` without zod. */
export function fromPerstack(event: PerstackEvent, ref: EventRef): AgentEvent {
	const head = {
		dialect: 'perstack' as const,
		wireType: event.type,
		id: event.id ?? `${ref.source}:${ref.line}`,
		jobId: event.jobId ?? '',
		runId: event.runId,
		expertKey: event.expertKey,
		step: event.stepNumber,
		timestamp: event.timestamp,
		agent: undefined,
		ref,
	};
	switch (event.type) {
		case 'initializeRuntime': {
			const answer = event.interactiveToolCall;
			return withHead(head, {
				kind: 'runtimeInit',
				...(event.expertName === undefined ? {} : {expertName: event.expertName}),
				...(event.model === undefined ? {} : {model: event.model}),
				...(event.runtimeVersion === undefined ? {} : {runtimeVersion: event.runtimeVersion}),
				...(event.maxSteps === undefined ? {} : {maxSteps: event.maxSteps}),
				...(event.query === undefined ? {} : {query: event.query}),
				...(answer === undefined ? {} : {answer: {toolCallId: answer.toolCallId, text: answer.text ?? ''}}),
			});
		}

		case 'startRun': {
			const checkpoint = toCheckpoint(event.initialCheckpoint);
			return withHead(head, {
				expertKey: event.expertKey ?? event.initialCheckpoint.expert?.key,
				step: event.stepNumber ?? checkpoint.step,
				kind: 'runStart',
				checkpoint,
				query: lastUserText(event.inputMessages),
			});
		}

		case 'startGeneration':
			return withHead(head, {kind: 'stepStart'});
		case 'retry':
			return withHead(head, {kind: 'retry', reason: event.reason ?? ''});
		case 'callTools':
		case 'callDelegate': {
			const {text, thinking} = messageParts(event.newMessage?.contents);
			return withHead(head, {kind: 'toolCalls', as: event.type === 'callTools' ? 'tool' : 'delegate', calls: event.toolCalls.map(toToolCall), text, thinking});
		}

		case 'callInteractiveTool': {
			const calls = [...(event.toolCall ? [event.toolCall] : []), ...(event.toolCalls ?? [])].map(toToolCall);
			const {text, thinking} = messageParts(event.newMessage?.contents);
			return withHead(head, {kind: 'toolCalls', as: 'interactive', calls, text, thinking});
		}

		case 'resolveToolResults':
			return withHead(head, {kind: 'toolResults', results: event.toolResults.map(toToolResult)});
		case 'resolveThought':
		case 'resolvePdfFile':
		case 'resolveImageFile':
			return withHead(head, {kind: 'toolResults', results: [...(event.toolResult ? [event.toolResult] : []), ...(event.toolResults ?? [])].map(toToolResult)});
		case 'attemptCompletion':
			return withHead(head, {kind: 'toolResults', results: [toToolResult(event.toolResult)]});
		case 'continueToNextStep':
		case 'stopRunByInteractiveTool':
		case 'stopRunByDelegate':
		case 'stopRunByExceededMaxSteps':
		case 'stopRunByError':
		case 'completeRun': {
			const checkpoint = toCheckpoint(event.checkpoint);
			const error = event.type === 'stopRunByError' ? (event.error ?? event.checkpoint.error) : undefined;
			return withHead(head, {
				expertKey: event.expertKey ?? event.checkpoint.expert?.key,
				step: checkpoint.step ?? event.stepNumber,
				kind: 'stepEnd',
				ending: endings[event.type],
				checkpoint,
				stepUsage: event.step?.usage,
				startedAt: event.step?.startedAt,
				finishedAt: event.step?.finishedAt,
				text: event.type === 'completeRun' ? event.text : undefined,
				error: error ? {name: error.name ?? 'Error', message: error.message ?? ''} : undefined,
			});
		}

		case 'startStreamingReasoning':
			return withHead(head, {kind: 'stream', channel: 'reasoning', phase: 'start', text: ''});
		case 'streamReasoning':
			return withHead(head, {kind: 'stream', channel: 'reasoning', phase: 'delta', text: event.delta});
		case 'completeStreamingReasoning':
			return withHead(head, {kind: 'stream', channel: 'reasoning', phase: 'complete', text: event.text});
		case 'startStreamingRunResult':
			return withHead(head, {kind: 'stream', channel: 'result', phase: 'start', text: ''});
		case 'streamRunResult':
			return withHead(head, {kind: 'stream', channel: 'result', phase: 'delta', text: event.delta});
		case 'completeStreamingRunResult':
			return withHead(head, {kind: 'stream', channel: 'result', phase: 'complete', text: event.text});
		case 'skillStarting':
			return withHead(head, {
				kind: 'skill',
				skillName: event.skillName,
				state: 'starting',
				detail: {...(event.command === undefined ? {} : {command: event.command}), ...(event.args === undefined ? {} : {args: event.args})},
			});
		case 'skillConnected':
			return withHead(head, {
				kind: 'skill',
				skillName: event.skillName,
				state: 'connected',
				detail: {
					...(event.serverInfo?.name === undefined ? {} : {serverName: event.serverInfo.name}),
					...(event.serverInfo?.version === undefined ? {} : {serverVersion: event.serverInfo.version}),
					...(event.totalDurationMs === undefined ? {} : {totalDurationMs: event.totalDurationMs}),
					...(event.connectDurationMs === undefined ? {} : {connectDurationMs: event.connectDurationMs}),
				},
			});
		case 'skillStderr':
			return withHead(head, {kind: 'skillStderr', skillName: event.skillName, message: event.message});
		case 'skillDisconnected':
			return withHead(head, {kind: 'skill', skillName: event.skillName, state: 'disconnected', detail: {}});
		case 'dockerBuildProgress':
			return withHead(head, {kind: 'docker', service: event.service ?? '', stage: event.stage, status: undefined, message: event.message, progress: event.progress});
		case 'dockerContainerStatus':
			return withHead(head, {kind: 'docker', service: event.service ?? '', stage: undefined, status: event.status, message: event.message, progress: undefined});
		case 'proxyAccess':
			return withHead(head, {kind: 'proxy', action: event.action ?? '', domain: event.domain ?? '', port: event.port, reason: event.reason});
		case 'finishToolCall':
		case 'finishAllToolCalls':
		case 'resumeToolCalls':
		case 'finishMcpTools':
		case 'skipDelegates':
		case 'proceedToInteractiveTools':
			return withHead(head, {kind: 'marker'});
	}
}

// ---------------------------------------------------------------------------------------------------------
// drover

/** drover and the daemon report only input and output tokens; their total is the sum. */
function tokens(input: number | undefined, output: number | undefined): Usage {
	const inputTokens = tokenCountOf(input);
	const outputTokens = tokenCountOf(output);
	return {...zeroUsage, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens};
}

function droverStatus(status: string | undefined): RunStatus {
	switch (status) {
		case 'completed':
		case 'complete':
		case 'succeeded':
		case 'success':
		case 'ok':
			return 'completed';
		case 'max_turns':
		case 'maxTurns':
			return 'stoppedByExceededMaxSteps';
		case undefined:
		default:
			return 'stoppedByError';
	}
}

function droverResult(result: unknown): {text: string; isError: boolean} {
	if (typeof result === 'string') return {text: result, isError: false};
	if (typeof result !== 'object' || result === null) return {text: result === undefined ? '' : jsonText(result), isError: false};
	const content: unknown = Reflect.get(result, 'content');
	const isError = Reflect.get(result, 'isError') === true;
	if (typeof content === 'string') return {text: content, isError};
	return {text: content === undefined ? jsonText(result) : jsonText(content), isError};
}

function fromDrover(event: DroverEvent, ref: EventRef): AgentEvent {
	const head = {
		dialect: 'drover' as const,
		wireType: event.kind,
		id: `${ref.source}:${ref.line}`,
		jobId: '',
		runId: event.runId,
		expertKey: undefined,
		step: event.turn,
		timestamp: event.ts,
		agent: undefined,
		ref,
	};
	switch (event.kind) {
		case 'run_start':
			return {...head, expertKey: event.agentId, kind: 'childRunStart', childRunId: event.runId, childExpertKey: event.agentId ?? event.runId, query: undefined, viaToolName: undefined};
		case 'turn_start':
			return {...head, kind: 'stepStart'};
		case 'thinking':
			return {...head, kind: 'stream', channel: 'reasoning', phase: 'complete', text: event.text};
		case 'assistant_text':
			return {...head, kind: 'stream', channel: 'result', phase: 'complete', text: event.text};
		case 'tool_call_start':
			return {
				...head,
				kind: 'toolCalls',
				as: event.toolName === 'task' ? 'delegate' : 'tool',
				calls: [{id: event.toolUseId, skillName: '', toolName: event.toolName, args: event.input}],
				text: undefined,
				thinking: undefined,
			};
		case 'tool_call_end': {
			const {text, isError} = droverResult(event.result);
			return {
				...head,
				kind: 'toolResults',
				results: [{id: event.toolUseId, skillName: '', toolName: event.toolName ?? '', text, error: isError ? text || 'error' : undefined}],
			};
		}

		case 'usage':
			return {
				...head,
				kind: 'usage',
				usage: tokens(event.usage.inputTokens, event.usage.outputTokens),
			};
		case 'subagent_start':
			return {...head, kind: 'childRunStart', childRunId: event.childRunId, childExpertKey: event.agentId ?? event.childRunId, query: undefined, viaToolName: 'task'};
		case 'subagent_end':
			return {...head, runId: event.childRunId, kind: 'runEnd', status: droverStatus(event.status), text: undefined, message: event.status, usage: undefined};
		case 'output_retry':
			return {...head, kind: 'retry', reason: event.reason ?? `output retry ${event.attempt ?? ''}`.trim()};
		case 'run_end':
			return {...head, kind: 'runEnd', status: droverStatus(event.status), text: undefined, message: event.status, usage: undefined};
		case 'error':
			return {...head, kind: 'runError', name: event.tag ?? 'error', message: event.message ?? ''};
		case 'input_validated':
		case 'llm_call':
		case 'compaction':
		case 'output_validated':
			return {...head, kind: 'marker'};
	}
}

// ---------------------------------------------------------------------------------------------------------
// strategy daemon

function daemonUsage(usage: DaemonUsage | undefined): Usage | undefined {
	return usage ? tokens(usage.promptTokens, usage.completionTokens) : undefined;
}

function decodeArgs(args: unknown): unknown {
	if (typeof args !== 'string') return args;
	try {
		return JSON.parse(args);
	} catch {
		return args;
	}
}

function fromDaemon(event: DaemonEvent, ref: EventRef): AgentEvent {
	const head = {
		dialect: 'daemon' as const,
		wireType: event.type,
		id: `${ref.source}:${ref.line}`,
		jobId: event.runId,
		runId: event.runId,
		expertKey: undefined,
		step: undefined,
		timestamp: event.ts,
		agent: undefined,
		ref,
	};
	switch (event.type) {
		case 'step_started':
			// The child run's id depends on how many times this step already ran: the reducer assigns it.
			return {...head, kind: 'childRunStart', childRunId: '', childExpertKey: event.stepName, query: event.message, viaToolName: event.stepName};
		case 'step_completed':
			return {...head, agent: event.stepName, kind: 'runEnd', status: 'completed', text: event.result?.text, message: undefined, usage: daemonUsage(event.result?.usage)};
		case 'agent_output':
			return {...head, agent: event.agentName, kind: 'runEnd', status: 'completed', text: event.text, message: undefined, usage: daemonUsage(event.usage)};
		case 'agent_streaming': {
			const agentHead = {...head, agent: event.agentName, wireType: `agent_streaming/${event.event.type}`};
			const inner = event.event;
			switch (inner.type) {
				case 'text':
					return {...agentHead, kind: 'stream', channel: 'result', phase: 'delta', text: inner.text};
				case 'tool-call':
					return {
						...agentHead,
						kind: 'toolCalls',
						as: 'tool',
						calls: [{id: '', skillName: '', toolName: inner.toolName, args: decodeArgs(inner.args)}],
						text: undefined,
						thinking: undefined,
					};
				case 'tool-result': {
					const text = typeof inner.output === 'string' ? inner.output : jsonText(inner.output);
					return {...agentHead, kind: 'toolResults', results: [{id: '', skillName: '', toolName: inner.toolName, text, error: toolErrorOf(text)}]};
				}

				case 'step-start':
					return {...agentHead, kind: 'stepStart'};
				case 'done':
					return {...agentHead, kind: 'stream', channel: 'result', phase: 'complete', text: inner.result?.text ?? ''};
			}
		}
	}
}
