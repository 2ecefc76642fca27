import type {Model} from '../../model/state.js';
import {activityKey} from '../tree/row-types.js';
import type {UiAction} from '../ui-state.js';

/**
 * Selects an activity, unfolding its pane and every pane above it on the way, so a search match inside a
 * folded child is shown. `context`: the tree shows the rows above it too (a jump from the timeline).
 */
export function revealActivity(model: Model, index: number, dispatch: (action: UiAction) => void, context = false): void {
	const activity = model.activities[index];
	if (!activity) return;
	let run = model.runs.get(activity.runId);
	const seen = new Set<string>();
	while (run && !seen.has(run.paneId)) {
		seen.add(run.paneId);
		const first = model.runs.get(run.paneId);
		// A pane shown as a root because its link would close a cycle has nothing above it on screen.
		run = first?.parentRunId && !first.closesCycle ? model.runs.get(first.parentRunId) : undefined;
	}

	// One change for all of them: one per pane rebuilt the rows once per level of a deep chain.
	dispatch({type: 'expandPanes', paneIds: [...seen]});
	// With several jobs, its job's row may be folded too.
	const jobId = model.runs.get(activity.runId)?.jobId;
	if (jobId !== undefined) dispatch({type: 'setJobCollapsed', jobId, collapsed: false});
	dispatch({type: 'select', key: activityKey(activity.id), index: 0, follow: false, context});
}
