import type {AgentEvent, CheckpointInfo, Dialect, EventRef} from '../../model/events.js';

/*
 * The fields every event has (its head) and how an event is made of a head and what its kind says (its body).
 * Not with `{...head, kind, …}`: Node 20's V8 defines every property written after a spread in an object
 * literal through a slow path, some microseconds an event, which was most of the time an agent CLI's stream took
 * to read (docs/performance.md). `Object.assign` onto a head made fresh for the event costs a fraction of that.
 */

export type EventHead = Pick<AgentEvent, 'dialect' | 'wireType' | 'id' | 'jobId' | 'runId' | 'expertKey' | 'step' | 'timestamp' | 'agent' | 'ref'>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What an event says beyond its head; it may set head fields too (another run's event made while reading a line). */
export type EventBody = DistributiveOmit<AgentEvent, keyof EventHead | 'continuesLine'> & Partial<EventHead>;

/** `{...head, ...body}`, for a head made for this event alone (it becomes the event). */
export function withHead(head: EventHead, body: EventBody): AgentEvent {
	// A body of the union, assigned onto the fields every event has: one event of the union.
	return Object.assign(head, body) as AgentEvent;
}

/** `{...head, ...body}`, for a head that several events share: the event has a copy of it. */
export function withSharedHead(head: EventHead, body: EventBody): AgentEvent {
	return withHead(copyHead(head), body);
}

export function copyHead(head: EventHead): EventHead {
	return {
		dialect: head.dialect,
		wireType: head.wireType,
		id: head.id,
		jobId: head.jobId,
		runId: head.runId,
		expertKey: head.expertKey,
		step: head.step,
		timestamp: head.timestamp,
		agent: head.agent,
		ref: head.ref,
	};
}

/**
 * The head of an event of a run of an agent CLI whose main loop's expert is the CLI itself (Codex, Gemini CLI):
 * the run's job, run and step, the line's place, and the time (the line's own, or its arrival's).
 */
export function runEventHead(
	dialect: Dialect,
	run: {readonly jobId: string; readonly runId: string; readonly step: number | undefined},
	wireType: string,
	ref: EventRef,
	timestamp: number | undefined,
): EventHead {
	return {
		dialect,
		wireType,
		id: `${ref.source}:${ref.line}`,
		jobId: run.jobId,
		runId: run.runId,
		expertKey: dialect,
		step: run.step,
		timestamp,
		agent: undefined,
		ref,
	};
}

/**
 * The checkpoint of an agent CLI's step that ends with nothing pending (Codex, Gemini CLI, opencode): no call
 * waits, no delegation, no usage of its own (a dialect reports usage as events of their own).
 */
export function stepCheckpoint(runId: string, status: CheckpointInfo['status'], step: number | undefined): CheckpointInfo {
	return {
		id: undefined,
		runId,
		status,
		step,
		pendingToolCallIds: [],
		partialResults: [],
		delegateTo: [],
		delegatedBy: undefined,
		usage: undefined,
	};
}

/**
 * Hands on a line's events in order, the second and later marked as continuing the line (the model counts a line
 * as one event: stream-dialect.ts). The events must be the reader's own, made for this line.
 */
export function outLineEvents(events: readonly AgentEvent[], out: (parsed: {kind: 'event'; event: AgentEvent}) => void): void {
	for (let index = 0; index < events.length; index++) {
		const event = events[index]!;
		if (index > 0) event.continuesLine = true;
		out({kind: 'event', event});
	}
}
