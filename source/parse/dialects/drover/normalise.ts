import type {AgentEvent, EventRef, RunStatus} from '../../../model/events.js';
import {inputOutputUsage} from '../input-output-usage.js';
import {jsonText} from '../json-values.js';
import type {DroverEvent} from './schema.js';
import {assertNever} from '../../../model/assert-never.js';

/* A drover event, as its schema reads it, into the one internal event shape. */

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

export function fromDrover(event: DroverEvent, ref: EventRef): AgentEvent {
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
			return {
				...head,
				expertKey: event.agentId,
				kind: 'childRunStart',
				childRunId: event.runId,
				childExpertKey: event.agentId ?? event.runId,
				query: undefined,
				viaToolName: undefined,
			};
		case 'turn_start':
			return {...head, kind: 'stepStart', counted: true};
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
				usage: inputOutputUsage(event.usage.inputTokens, event.usage.outputTokens),
			};
		case 'subagent_start':
			return {
				...head,
				kind: 'childRunStart',
				childRunId: event.childRunId,
				childExpertKey: event.agentId ?? event.childRunId,
				query: undefined,
				viaToolName: 'task',
			};
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
		default:
			return assertNever(event);
	}
}
