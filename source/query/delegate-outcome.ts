import {assertNever} from '../model/assert-never.js';
import type {Activity, DelegateActivity, Model, ToolOutcome} from '../model/state.js';

/*
 * What a delegation came to when its parent never took the answer in: the runtime hands a delegate's answer to
 * its parent only when the parent resumes, and a job that ends first (one of several parallel delegates failed,
 * so the runtime aborted it) leaves every delegation without one, though each child ended in its own way.
 */

/**
 * The delegation's result: its own once the parent resumed, else what its children ended with once all of them
 * have ended: the last child's answer, or the error of the first that failed. Undefined while a child runs.
 */
export function delegateOutcome(model: Model, activity: DelegateActivity): ToolOutcome | undefined {
	if (activity.result !== undefined || activity.childRunIds.length === 0) return activity.result;
	let answer: ToolOutcome | undefined;
	for (const childId of activity.childRunIds) {
		const child = model.runs.get(childId);
		const pane = child ? model.panes.get(child.paneId) : undefined;
		// A child that delegated in turn and resumed: its pane's last run says how it ended.
		const last = pane ? model.runs.get(pane.runIds.at(-1) ?? '') : child;
		if (!last) return undefined;
		switch (last.status) {
			case 'completed':
				answer = {text: completeText(model, pane?.activityIndices ?? []), error: undefined, ref: activity.ref};
				continue;
			case 'stoppedByError':
				return {text: '', error: last.error ? `${last.error.name}: ${last.error.message}` : 'failed', ref: activity.ref};
			case 'stoppedByExceededMaxSteps':
				return {text: '', error: 'stopped at max steps', ref: activity.ref};
			case 'init':
			case 'proceeding':
			case 'stoppedByDelegate':
			case 'stoppedByInteractiveTool':
				return undefined;
			default:
				return assertNever(last.status);
		}
	}

	return answer;
}

/** The activity with its outcome as `delegateOutcome` gives it, for the views of a delegation still without one. */
export function withDelegateOutcome(model: Model, activity: Activity): Activity {
	if (activity.type !== 'delegate' || activity.result !== undefined) return activity;
	const result = delegateOutcome(model, activity);
	return result === undefined ? activity : {...activity, result};
}

function completeText(model: Model, indices: readonly number[]): string {
	for (let i = indices.length - 1; i >= 0; i--) {
		const activity = model.activities[indices[i]!];
		if (activity?.type === 'complete') return activity.text;
	}

	return '';
}
