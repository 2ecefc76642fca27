import type {AgentEvent, EventRef, Usage} from '../../../model/events.js';
import {inputOutputUsage} from '../input-output-usage.js';
import {jsonText} from '../json-values.js';
import {toolErrorOf} from '../tool-error.js';
import type {DaemonEvent, DaemonUsage} from './schema.js';
import {assertNever} from '../../../model/assert-never.js';

/* A strategy daemon event, as its schema reads it, into the one internal event shape. */

function daemonUsage(usage: DaemonUsage | undefined): Usage | undefined {
	return usage ? inputOutputUsage(usage.promptTokens, usage.completionTokens) : undefined;
}

function decodeArgs(args: unknown): unknown {
	if (typeof args !== 'string') return args;
	try {
		return JSON.parse(args);
	} catch {
		return args;
	}
}

export function fromDaemon(event: DaemonEvent, ref: EventRef): AgentEvent {
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
			return {
				...head,
				agent: event.stepName,
				kind: 'runEnd',
				status: 'completed',
				text: event.result?.text,
				message: undefined,
				usage: daemonUsage(event.result?.usage),
			};
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
				default:
					return assertNever(inner);
			}
		}
		default:
			return assertNever(event);
	}
}
