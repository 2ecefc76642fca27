import {filterMatches, isEmptyFilter, type Filter} from '../query/filter.js';
import {findMatches, narrows, prepareTexts} from '../query/search.js';
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
const searches = new WeakMap<Model['activities'], {rev: number; filter: Filter; found: Map<string, number[]>}>();

export function sharedMatches(model: Model, query: string, filter: Filter): number[] {
	if (query === '') return [];
	let known = searches.get(model.activities);
	if (!known || known.rev !== model.rev || known.filter !== filter) {
		known = {rev: model.rev, filter, found: new Map()};
		searches.set(model.activities, known);
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

/** How long one slice of making search texts ahead may hold the thread: a key pressed meanwhile waits for it. */
const prepareSliceMs = 8;
/**
 * Texts are made ahead only up to this many characters (about as many bytes): a log of half a million tool
 * results would otherwise hold a folded copy of every result, searched or not. Past it, the first search
 * makes the rest, as it did before texts were made ahead.
 */
export const prepareAheadChars = 48 * 1024 * 1024;
/** While `busy` (a file read on this thread), how long to wait before asking again. */
const busyRetryMs = 250;

export type Scheduler = {
	/** Runs `step` after the keys and frames already waiting. */
	soon: (step: () => void) => () => void;
	later: (step: () => void, ms: number) => () => void;
	now: () => number;
};

const timers: Scheduler = {
	soon(step) {
		const handle = setImmediate(step);
		// Never what keeps the process alive: quitting must not wait for texts nobody will search.
		handle.unref();
		return () => {
			clearImmediate(handle);
		};
	},
	later(step, ms) {
		const handle = setTimeout(step, ms);
		handle.unref();
		return () => {
			clearTimeout(handle);
		};
	},
	now: () => performance.now(),
};

/** The one model whose texts are being made ahead; a newer model (or revision) takes its place. */
let preparing: {model: Model; rev: number; cancel: () => void; done: boolean} | undefined;

/**
 * Makes every activity's searchable text ahead, in short slices on idle time, so that the first keystroke of
 * a search after a load reads texts instead of making them all. Slices yield to keys (each is a separate
 * turn of the event loop) and wait while `busy` says the thread is reading a file. Calling it again for the
 * same model revision does nothing; a new model or revision starts over (texts already made are kept by
 * activity, so starting over skips them cheaply), and it stops at `budget` characters of text. Returns when
 * the first slice is scheduled.
 */
export function prepareSearchAhead(model: Model, busy: () => boolean = () => false, scheduler: Scheduler = timers, budget = prepareAheadChars): void {
	if (preparing && preparing.model === model && preparing.rev === model.rev) return;
	preparing?.cancel();
	let cancelTimer: () => void = () => undefined;
	let next = 0;
	let made = 0;
	const job = {
		model,
		rev: model.rev,
		done: false,
		cancel() {
			cancelTimer();
			job.done = true;
		},
	};
	const step = () => {
		if (job.done) return;
		if (busy()) {
			cancelTimer = scheduler.later(step, busyRetryMs);
			return;
		}

		const until = scheduler.now() + prepareSliceMs;
		let sliceChars = 0;
		next = prepareTexts(model, next, chars => {
			sliceChars = chars;
			return scheduler.now() >= until || made + chars >= budget;
		});
		made += sliceChars;
		if (next < model.activities.length && made < budget) cancelTimer = scheduler.soon(step);
		else job.done = true;
	};

	preparing = job;
	cancelTimer = scheduler.soon(step);
}

/** Whether making texts ahead for this model revision is over: all made, or the budget reached (for tests). */
export function searchPrepared(model: Model): boolean {
	return preparing !== undefined && preparing.model === model && preparing.rev === model.rev && preparing.done;
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
