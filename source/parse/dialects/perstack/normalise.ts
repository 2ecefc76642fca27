import type {AgentEvent, CheckpointInfo, EventRef, RunStatus, ToolCall, ToolResult} from '../../../model/events.js';
import {runStatuses} from '../../../model/events.js';
import {withHead} from '../event-head.js';
import {toolErrorOf} from '../tool-error.js';
import type {PerstackCheckpoint, PerstackEvent, PerstackMessagePart, PerstackToolCall, PerstackToolResult} from './schema.js';
import {assertNever} from '../../../model/assert-never.js';

/*
 * A Perstack event, as the schema (or the fast reader, which gives the same) reads it, into the one internal
 * event shape.
 */

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
		delegatedBy: delegatedBy
			? {runId: delegatedBy.runId, expertKey: delegatedBy.expert?.key, toolCallId: delegatedBy.toolCallId, checkpointId: delegatedBy.checkpointId}
			: undefined,
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
				...(event.runtime === undefined ? {} : {runtime: event.runtime}),
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
			return withHead(head, {
				kind: 'toolCalls',
				as: event.type === 'callTools' ? 'tool' : 'delegate',
				calls: event.toolCalls.map(toToolCall),
				text,
				thinking,
				...(event.usage === undefined ? {} : {generationUsage: event.usage}),
			});
		}

		case 'callInteractiveTool': {
			const calls = [...(event.toolCall ? [event.toolCall] : []), ...(event.toolCalls ?? [])].map(toToolCall);
			const {text, thinking} = messageParts(event.newMessage?.contents);
			return withHead(head, {
				kind: 'toolCalls',
				as: 'interactive',
				calls,
				text,
				thinking,
				...(event.usage === undefined ? {} : {generationUsage: event.usage}),
			});
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
		case 'startReasoning':
			return withHead(head, {kind: 'stream', channel: 'reasoning', phase: 'start', text: ''});
		case 'streamReasoning':
			return withHead(head, {kind: 'stream', channel: 'reasoning', phase: 'delta', text: event.delta});
		case 'completeStreamingReasoning':
		case 'completeReasoning':
			return withHead(head, {kind: 'stream', channel: 'reasoning', phase: 'complete', text: event.text});
		case 'startStreamingRunResult':
		case 'startRunResult':
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
			return withHead(head, {
				kind: 'docker',
				service: event.service ?? '',
				stage: event.stage,
				status: undefined,
				message: event.message,
				progress: event.progress,
			});
		case 'dockerContainerStatus':
			return withHead(head, {
				kind: 'docker',
				service: event.service ?? '',
				stage: undefined,
				status: event.status,
				message: event.message,
				progress: undefined,
			});
		case 'proxyAccess':
			return withHead(head, {kind: 'proxy', action: event.action ?? '', domain: event.domain ?? '', port: event.port, reason: event.reason});
		case 'finishToolCall':
		case 'finishAllToolCalls':
		case 'resumeToolCalls':
		case 'finishMcpTools':
		case 'skipDelegates':
		case 'proceedToInteractiveTools':
			return withHead(head, {kind: 'marker'});
		default:
			return assertNever(event);
	}
}
