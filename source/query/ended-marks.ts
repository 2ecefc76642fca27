import type {Model} from '../model/state.js';
import {endedWhileWaiting, endedWithoutFinalEvent, shownStatus} from './tree.js';

/**
 * Once the input has ended, where the runs that did not end well are seen, beside the error activities `errors`
 * shows: by activity id, the run it stands for. A run that ended without a final event: its pane's last activity,
 * where it was when it was cut off. A run that ended while waiting for its delegates: its delegations of the
 * delegates that failed or were cut off (else its pane's last activity). So `x` shows their panes, the pane's
 * status and the reason under it, as `--print --filter errors` writes their end lines. Worked out once the input
 * has ended, for that model revision (one pass over the panes).
 */
// eslint-disable-next-line no-restricted-syntax -- a side table of the model's own derived data, keyed by its activities array and dying with it: model/ may not hold query/'s types (docs/architecture.md)
const endedMarks = new WeakMap<Model['activities'], {rev: number; marks: ReadonlyMap<string, string>}>();

export function endedRunMarks(model: Model): ReadonlyMap<string, string> {
	if (model.inputEnd === undefined) return noMarks;
	const known = endedMarks.get(model.activities);
	if (known && known.rev === model.rev) return known.marks;
	const marks = new Map<string, string>();
	for (const pane of model.panes.values()) {
		const last = model.runs.get(pane.runIds.at(-1) ?? '');
		if (!last) continue;
		if (endedWhileWaiting(model, last)) {
			const culprits = culpritDelegations(model, pane.activityIndices, last.runId);
			for (const id of culprits) marks.set(id, last.runId);
			if (culprits.length === 0 && pane.lastActivityId !== null) marks.set(pane.lastActivityId, last.runId);
		} else if (endedWithoutFinalEvent(model, last) && pane.lastActivityId !== null) {
			marks.set(pane.lastActivityId, last.runId);
		}
	}

	endedMarks.set(model.activities, {rev: model.rev, marks});
	return marks;
}

const noMarks: ReadonlyMap<string, string> = new Map();

/** The delegations at the end of a waiting run's activities whose delegate failed, stopped at max steps or was cut off. */
function culpritDelegations(model: Model, indices: readonly number[], runId: string): string[] {
	const out: string[] = [];
	for (let i = indices.length - 1; i >= 0; i--) {
		const activity = model.activities[indices[i]!];
		if (!activity || activity.runId !== runId) break;
		if (activity.type !== 'delegate' || activity.result !== undefined) continue;
		const failed = activity.childRunIds.some(childId => {
			// How the delegate's pane stands now: its last run (it may have resumed after delegating in turn).
			const first = model.runs.get(childId);
			const child = first ? model.runs.get(model.panes.get(first.paneId)?.runIds.at(-1) ?? '') : undefined;
			if (!child) return false;
			const status = shownStatus(child);
			return (
				status === 'stoppedByError' ||
				status === 'stoppedByExceededMaxSteps' ||
				endedWithoutFinalEvent(model, child) ||
				endedWhileWaiting(model, child) !== undefined
			);
		});
		if (failed) out.push(activity.id);
	}

	return out;
}
