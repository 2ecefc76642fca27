import {continueFilterScan, filterMatches, filterScanShare, isEmptyFilter, startFilterScan, type Filter, type FilterScan} from '../../query/filter.js';
import {continueScan, keptTextChars, narrows, prepareTexts, scanCovered, startScan, stepKnown, textsFull, type MatchScan, type ScanStart} from '../../query/search.js';
import type {Model} from '../../model/state.js';
import {paneKey, activityKey} from '../tree/rows.js';
import {dropLayoutAhead, layoutAhead} from '../tree/rows-cache.js';
import type {UiAction} from '../ui-state.js';
import {idleTimers as timers, type Scheduler} from '../idle-time.js';

/** Queries kept per model revision and filter: typing and deleting back finds the earlier ones again. */
const keptQueries = 8;
/**
 * How long one slice of a search (or of making texts ahead) may hold the thread: a key pressed meanwhile
 * waits for it. The first slice runs on the key itself, so a small log's search is done before its frame.
 */
const sliceMs = 8;
/** The first slice searches at least this many activities, however slow the machine: a small log is searched whole on the key. */
const firstSliceActivities = 2048;
/** How often a search still running tells the views: each time redraws the prompt and the footer. */
const progressEveryMs = 100;

/**
 * The searches of each model, shared by every view that asks (the tree, the prompt, the footer), kept for the
 * last few queries of one model revision and filter. A query that holds an earlier one (`tes` → `test`) is
 * searched among that one's matches only, as far as that one had got: a keystroke of an incremental search
 * over a million activities then looks at the few that still match, not at all of them again.
 */
const searches = new WeakMap<Model['activities'], {rev: number; filter: Filter; scans: Map<string, MatchScan>}>();

function scansFor(model: Model, filter: Filter): Map<string, MatchScan> {
	let known = searches.get(model.activities);
	if (!known || known.rev !== model.rev || known.filter !== filter) {
		known = {rev: model.rev, filter, scans: new Map()};
		searches.set(model.activities, known);
	}

	return known.scans;
}

/** Of the earlier searches this query narrows, the one that leaves the least to search. */
function narrowedFrom(scans: Map<string, MatchScan>, query: string, total: number): ScanStart['within'] {
	let best: {matches: readonly number[]; end: number; work: number} | undefined;
	for (const [earlier, scan] of scans) {
		if (!narrows(earlier, query)) continue;
		const end = scan.done ? total : scanCovered(scan);
		const work = scan.matches.length + (total - end);
		if (!best || work < best.work) best = {matches: scan.matches, end, work};
	}

	return best && {matches: best.matches, end: best.end};
}

/** The search being worked on in slices: the one last asked for. A newer one takes its place. */
let running: {scan: MatchScan; cancel: () => void} | undefined;
/** A jump waiting for the search to find its target (`jumpWhenFound`). */
let pending: {model: Model; query: string; filter: Filter; scan: MatchScan; from: number | undefined; direction: 1 | -1; found: (index: number) => void; none: () => void} | undefined;

const listeners = new Set<() => void>();
let version = 0;

/** Tells `listener` whenever a search running in slices has found more, or is done. Returns the unsubscribe. */
export function subscribeSearch(listener: () => void): () => void {
	listeners.add(listener);
	return () => {
		listeners.delete(listener);
	};
}

/** Moves whenever `subscribeSearch`'s listeners are told: for `useSyncExternalStore`. */
export function searchVersion(): number {
	return version;
}

function tell(): void {
	version++;
	for (const listener of listeners) listener();
}

/**
 * The search for `query` in `model`, among the activities `filter` shows: done, or going on in slices of idle
 * time (the views are told as it finds more, `subscribeSearch`). A new search does its first slice at once,
 * so the key that started it answers with what it found so far; the search asked for last is the one worked
 * on, so a newer keystroke leaves the older one where it was (kept, for deleting back to it or narrowing).
 * What it finds when done is exactly what a search in one go finds (`findMatches`).
 */
export function searchFor(model: Model, query: string, filter: Filter, scheduler: Scheduler = timers): MatchScan {
	const scans = scansFor(model, filter);
	let scan = scans.get(query);
	if (!scan) {
		const shown = isEmptyFilter(filter) ? undefined : filterMatches(model, filter).shown;
		const within = narrowedFrom(scans, query, model.activities.length);
		scan = startScan(model, query, {...(shown ? {include: (_activity, index) => shown[index] === 1} : {}), ...(within ? {within} : {})});
		scans.set(query, scan);
		if (scans.size > keptQueries) scans.delete(scans.keys().next().value!);
		const until = scheduler.now() + sliceMs;
		continueScan(model, scan, () => scheduler.now() >= until && scan!.tested >= (scheduler.firstSlice ?? firstSliceActivities));
	}

	// A jump waiting on an earlier revision's search for the same query waits on this one now.
	if (pending && pending.scan !== scan && pending.query === query && pending.filter === filter && pending.model.activities === model.activities) {
		pending = {...pending, model, scan};
		settleJump();
	}

	if (!scan.done) run(model, scan, scheduler);
	return scan;
}

function run(model: Model, scan: MatchScan, scheduler: Scheduler): void {
	if (running?.scan === scan) return;
	running?.cancel();
	let stop: () => void = () => undefined;
	const job = {
		scan,
		cancel() {
			stop();
			if (running === job) running = undefined;
		},
	};
	running = job;
	stop = inSlices(scheduler, until => {
		const done = continueScan(model, scan, () => scheduler.now() >= until);
		if (pending?.scan === scan) settleJump();
		if (done) {
			job.cancel();
			tell();
		}

		return done;
	});
}

/**
 * Runs `slice` on idle time, a slice a turn, each given until when it may hold the thread, until it says it is
 * done (or stops itself); tells the views how far it has got at most every `progressEveryMs`. Returns what stops it.
 */
function inSlices(scheduler: Scheduler, slice: (until: number) => boolean): () => void {
	let cancelTimer: () => void = () => undefined;
	let stopped = false;
	let told = scheduler.now();
	const step = (): void => {
		if (slice(scheduler.now() + sliceMs) || stopped) return;
		if (scheduler.now() - told >= progressEveryMs) {
			told = scheduler.now();
			tell();
		}

		cancelTimer = scheduler.soon(step);
	};

	cancelTimer = scheduler.soon(step);
	return () => {
		stopped = true;
		cancelTimer();
	};
}

/** Search matches in one go (tests, and anything that needs them all now): `searchFor` worked to its end. */
export function sharedMatches(model: Model, query: string, filter: Filter): number[] {
	if (query === '') return [];
	const scan = searchFor(model, query, filter);
	if (!scan.done) {
		continueScan(model, scan);
		if (running?.scan === scan) running.cancel();
		if (pending?.scan === scan) settleJump();
	}

	return scan.matches;
}

/**
 * Jumps to the match `n` (+1) or `N` (-1) gives from `from` as soon as the search knows it (`stepKnown`): at
 * once when it is among the matches found so far, else when the search gets there. `none` when it is done and
 * there is no match. A newer jump takes the place of one still waiting. Returns whether it is waiting.
 */
export function jumpWhenFound(
	model: Model,
	query: string,
	filter: Filter,
	from: number | undefined,
	direction: 1 | -1,
	found: (index: number) => void,
	none: () => void,
	scheduler: Scheduler = timers,
): boolean {
	const scan = searchFor(model, query, filter, scheduler);
	pending = {model, query, filter, scan, from, direction, found, none};
	settleJump();
	return pending !== undefined;
}

/** Forgets a jump still waiting (the prompt was closed, or the query cleared). */
export function cancelJump(): void {
	pending = undefined;
}

function settleJump(): void {
	if (!pending) return;
	const target = stepKnown(pending.scan, pending.from, pending.direction);
	if (target === 'wait') return;
	const {found, none} = pending;
	pending = undefined;
	if (target === undefined) none();
	else found(target);
}

/** A filter being worked out in slices before it is applied: the one last asked for. */
type FilterJob = {filter: Filter; scan: FilterScan; layout: ((deadline: number) => boolean) | undefined; cancel: () => void};
let filtering: FilterJob | undefined;

export type FilterRequest = {
	filter: Filter;
	/** The model now: a load may replace it or add to it between slices (the work then starts over on it). */
	model: () => Model;
	/** The filter applied now: when it changes before this one is ready (`C`, `x`), this one is dropped. */
	current: () => Filter;
	/** Applies the filter, its bitmap and layout made. */
	apply: (filter: Filter) => void;
};

/**
 * A filter's Enter: works out which activities the filter shows, then the filtered tree's layout, in slices of
 * idle time, and applies the filter once both are made, so the tree goes on showing what it showed until then
 * (`filterProgress` says how far it has got, for the footer). The first slice runs on the key, so on a small
 * log the filter is applied at once, as before. A newer request takes the place of one in progress.
 */
export function filterWhenReady(request: FilterRequest, scheduler: Scheduler = timers): void {
	filtering?.cancel();
	const {filter} = request;
	const was = request.current();
	const scan = startFilterScan(request.model(), filter);
	let stop: () => void = () => undefined;
	let layoutModel: Model | undefined;
	let layoutRev = -1;
	const job: FilterJob = {
		filter,
		scan,
		layout: undefined,
		cancel() {
			stop();
			dropLayoutAhead();
			if (filtering === job) {
				filtering = undefined;
				tell();
			}
		},
	};
	/** One slice: the bitmap, then the layout; true when both are made for the model of now. */
	const work = (until: number, minimum: number): boolean => {
		const model = request.model();
		const enough = () => scheduler.now() >= until && scan.next >= minimum;
		if (!continueFilterScan(model, scan, enough)) return false;
		if (!job.layout || layoutModel !== model || layoutRev !== model.rev) {
			job.layout = layoutAhead(model, filter);
			layoutModel = model;
			layoutRev = model.rev;
		}

		// A log the first slice's minimum covers is laid out whole on the key too: it shows at once, as before.
		return job.layout(model.activities.length <= minimum ? Number.POSITIVE_INFINITY : until);
	};

	const finish = (): void => {
		stop();
		const wasRunning = filtering === job;
		if (wasRunning) filtering = undefined;
		request.apply(filter);
		if (wasRunning) tell();
	};

	if (work(scheduler.now() + sliceMs, scheduler.firstSlice ?? firstSliceActivities)) {
		finish();
		return;
	}

	filtering = job;
	tell();
	stop = inSlices(scheduler, until => {
		if (filtering !== job) return true;
		if (request.current() !== was) {
			job.cancel();
			return true;
		}

		if (!work(until, 0)) return false;
		finish();
		return true;
	});
}

/** The filter being worked out and how far (0 to 1), or undefined when none is. Its layout counts as the last tenth. */
export function filterProgress(): {filter: Filter; share: number} | undefined {
	if (!filtering) return undefined;
	const share = filteringShare(filtering.scan, filtering.scan.matches !== undefined && filtering.layout !== undefined);
	return {filter: filtering.filter, share};
}

function filteringShare(scan: FilterScan, laying: boolean): number {
	return laying ? 0.9 : filterScanShare(scan) * 0.9;
}

/** Drops the filter being worked out (`C`, `x`: a newer change of the filter). */
export function cancelFilter(): void {
	filtering?.cancel();
}

/** While `busy` (a file read on this thread), how long to wait before asking again. */
const busyRetryMs = 250;
/** Texts are made ahead as far as they are kept (`keptTextChars`). */
export const prepareAheadChars = keptTextChars;

/** The one model whose texts are being made ahead; a newer model (or revision) takes its place. */
let preparing: {model: Model; rev: number; cancel: () => void; done: boolean} | undefined;

/**
 * Makes every activity's searchable text ahead, in short slices on idle time, so that the first keystroke of
 * a search after a load reads texts instead of making them all. Slices yield to keys (each is a separate
 * turn of the event loop) and wait while `busy` says the thread is reading a file. Calling it again for the
 * same model revision does nothing; a new model or revision starts over (texts already made are kept by
 * activity, so starting over skips them cheaply), and it stops at `budget` characters of text or where no
 * more texts are kept. Returns when the first slice is scheduled.
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

		const until = scheduler.now() + sliceMs;
		let sliceChars = 0;
		next = prepareTexts(model, next, chars => {
			sliceChars = chars;
			return scheduler.now() >= until || made + chars >= budget;
		});
		made += sliceChars;
		if (next < model.activities.length && made < budget && !textsFull(model)) cancelTimer = scheduler.soon(step);
		else job.done = true;
	};

	preparing = job;
	cancelTimer = scheduler.soon(step);
}

/** Whether making texts ahead for this model revision is over: all made, or the budget reached (for tests). */
export function searchPrepared(model: Model): boolean {
	return preparing !== undefined && preparing.model === model && preparing.rev === model.rev && preparing.done;
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
