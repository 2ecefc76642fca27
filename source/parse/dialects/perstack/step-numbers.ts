import {isBadStepNumber} from '../common.js';
import {isRecord} from '../wire-reader.js';
import type {PerstackEvent} from './schema.js';

/*
 * The step numbers a Perstack event's reader reads (the event's own, its checkpoint's and its step's), looked
 * at on the raw event once it has been read, to report one that is not a step number: the readers read such a
 * value as none (common.ts, `stepNumberOf`), and without a word the step it belonged to simply went missing.
 */

/** The first step number of `raw` that its reading (`event`) dropped as not one: where, and what it was. */
export function badStepNumber(raw: unknown, event: PerstackEvent): {path: string; value: unknown} | undefined {
	if (!isRecord(raw)) return undefined;
	if (isBadStepNumber(raw.stepNumber)) return {path: 'stepNumber', value: raw.stepNumber};
	// Only where the event's type reads the object: a field no reader reads is not judged.
	const read: Record<string, unknown> = event;
	for (const key of ['initialCheckpoint', 'checkpoint', 'step']) {
		if (read[key] === undefined) continue;
		const inner = raw[key];
		if (isRecord(inner) && isBadStepNumber(inner.stepNumber)) return {path: `${key}.stepNumber`, value: inner.stepNumber};
	}

	return undefined;
}
