import type {StepRecord} from '../../../model/state.js';
import {spanIdOf} from './ids.js';

/** What a tool call's span id is made of. */
export type ToolIdParts = {readonly id: string; readonly runId: string; readonly toolCallId: string};

export function chatSpanId(jobId: string, runId: string, step: number): string {
	return spanIdOf(jobId, 'chat', runId, String(step));
}

/*
 * Live export maps the model again every second and needs each span's id to know whether it was sent; an
 * activity or a step record is kept as the same object while it does not change (see state.ts), so its id is
 * remembered with it rather than hashed again each time. One `SpanIds` per export (its `SpanTracker` owns it),
 * never one for the process: what one export remembers is nobody else's.
 */
export class SpanIds {
	readonly #tools = new WeakMap<ToolIdParts, string>();
	readonly #chats = new WeakMap<StepRecord, string>();

	tool(jobId: string, activity: ToolIdParts): string {
		let id = this.#tools.get(activity);
		if (id === undefined) {
			id = spanIdOf(jobId, 'tool', activity.runId, activity.toolCallId === '' ? activity.id : activity.toolCallId);
			this.#tools.set(activity, id);
		}

		return id;
	}

	chat(jobId: string, runId: string, step: StepRecord): string {
		let id = this.#chats.get(step);
		if (id === undefined) {
			id = chatSpanId(jobId, runId, step.step);
			this.#chats.set(step, id);
		}

		return id;
	}
}
