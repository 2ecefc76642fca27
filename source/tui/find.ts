import {filterMatches, isEmptyFilter, type Filter} from '../query/filter.js';
import {findMatches, narrows} from '../query/search.js';
import type {Model} from '../model/state.js';
import {paneKey, activityKey} from './rows.js';
import type {UiAction} from './ui-state.js';

/** Queries kept per model revision and filter: typing and deleting back finds the earlier ones again. */
const keptQueries = 8;

/**
 * Search matches for each model, shared by every view that asks (the tree, the prompt, the footer), kept for
 * the last few queries of one model revision and filter. A query that holds an earlier one (`tes` → `test`)
 * is searched among that one's matches only: a keystroke of an incremental search over a million activities
 * then looks at the few that still match, not at all of them again.
 */
const searches = new WeakMap<Model, {rev: number; filter: Filter; found: Map<string, number[]>}>();

export function sharedMatches(model: Model, query: string, filter: Filter): number[] {
	if (query === '') return [];
	let known = searches.get(model);
	if (!known || known.rev !== model.rev || known.filter !== filter) {
		known = {rev: model.rev, filter, found: new Map()};
		searches.set(model, known);
	}

	const cached = known.found.get(query);
	if (cached) return cached;
	let within: readonly number[] | undefined;
	for (const [earlier, found] of known.found) if (narrows(earlier, query) && (within === undefined || found.length < within.length)) within = found;
	const shown = isEmptyFilter(filter) ? undefined : filterMatches(model, filter).shown;
	const found = findMatches(model, query, {...(shown ? {include: (_activity, index) => shown[index] === 1} : {}), ...(within ? {within} : {})});
	known.found.set(query, found);
	if (known.found.size > keptQueries) known.found.delete(known.found.keys().next().value!);
	return found;
}

/** Search matches, recomputed only when the model, the query or the filter changes. */
export function createMatchCache(): (model: Model, query: string, filter: Filter) => number[] {
	return sharedMatches;
}

/** Hidden-activity count for the header, recomputed only when the model or the filter changes. */
export function createHiddenCounter(): (model: Model, filter: Filter) => number {
	return (model, filter) => (isEmptyFilter(filter) ? 0 : model.activities.length - filterMatches(model, filter).shownCount);
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
