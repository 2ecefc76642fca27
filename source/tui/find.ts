import {isEmptyFilter, matches, type Filter} from '../query/filter.js';
import {findMatches} from '../query/search.js';
import type {Model} from '../model/state.js';
import {paneKey, activityKey} from './rows.js';
import type {UiAction} from './ui-state.js';

/** Search matches, recomputed only when the model, the query or the filter changes. */
export function createMatchCache(): (model: Model, query: string, filter: Filter) => number[] {
	let last: {model: Model; rev: number; query: string; filter: Filter; found: number[]} | undefined;
	return (model, query, filter) => {
		if (last && last.model === model && last.rev === model.rev && last.query === query && last.filter === filter) return last.found;
		const include = isEmptyFilter(filter) ? undefined : (activity: Parameters<typeof matches>[1]) => matches(filter, activity, model);
		const found = query === '' ? [] : findMatches(model, query, include ? {include} : {});
		last = {model, rev: model.rev, query, filter, found};
		return found;
	};
}

/** Hidden-activity count for the header, recomputed only when the model or the filter changes. */
export function createHiddenCounter(): (model: Model, filter: Filter) => number {
	let last: {model: Model; rev: number; filter: Filter; hidden: number} | undefined;
	return (model, filter) => {
		if (isEmptyFilter(filter)) return 0;
		if (last && last.model === model && last.rev === model.rev && last.filter === filter) return last.hidden;
		let hidden = 0;
		for (const activity of model.activities) if (!matches(filter, activity, model)) hidden++;
		last = {model, rev: model.rev, filter, hidden};
		return hidden;
	};
}

/**
 * Selects an activity, unfolding its pane and every pane above it on the way, so a search match inside a
 * folded child is shown.
 */
export function revealActivity(model: Model, index: number, dispatch: (action: UiAction) => void): void {
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
	dispatch({type: 'select', key: activityKey(activity.id), index: 0, follow: false});
}

export {paneKey};
