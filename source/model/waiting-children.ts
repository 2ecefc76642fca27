import {appended} from './run-collections.js';
import type {Model} from './state.js';
import {recordsOf} from './storage/run-store.js';

/*
 * Child runs that started before the delegation that made them was seen (`Model.orphanChildren`), by parent and
 * tool call id. A model that keeps its runs as records (storage/) keeps them there, as bytes.
 */

export function awaitDelegation(model: Model, parentRunId: string, toolCallId: string, childRunId: string): void {
	const records = recordsOf(model);
	if (records) {
		records.waiting.awaitDelegation(parentRunId, toolCallId, childRunId);
		return;
	}

	let waiting = model.orphanChildren.get(parentRunId);
	if (!waiting) {
		waiting = new Map();
		model.orphanChildren.set(parentRunId, waiting);
	}

	const previous = waiting.get(toolCallId);
	// Most wait alone, and a list of one would cost more than the id.
	waiting.set(toolCallId, previous === undefined ? childRunId : appended(typeof previous === 'string' ? [previous] : previous, childRunId));
}

/** The children waiting for the delegation of `toolCallId`, in the order they came; they wait no longer. */
export function takeWaitingChildren(model: Model, parentRunId: string, toolCallId: string): readonly string[] | undefined {
	const records = recordsOf(model);
	if (records) return records.waiting.takeWaiting(parentRunId, toolCallId);
	const byCall = model.orphanChildren.get(parentRunId);
	const waiting = byCall?.get(toolCallId);
	if (!byCall || !waiting) return undefined;
	byCall.delete(toolCallId);
	if (byCall.size === 0) model.orphanChildren.delete(parentRunId);
	return typeof waiting === 'string' ? [waiting] : waiting;
}
