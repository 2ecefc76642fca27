import {isEmptyFilter, type Filter} from '../../query/filter.js';
import type {Model} from '../../model/state.js';
import {RowLayout, rowList, type RowList} from './row-layout.js';
import type {UiState} from '../ui-state.js';
import {idleTimers, startRetryMs} from '../idle-time.js';

/*
 * The rows the tree shows, from layouts kept per model revision, filter and width: made at once, or in slices for
 * a model the load posted (the last layout made stays on screen meanwhile), or ahead of a filter's Enter.
 */

/**
 * The layouts of each model, shared by every cache: the tree and the app ask for the same rows, and working a
 * layout out is the costly part. Two are kept per model revision, so that a filter taken off finds the
 * unfiltered layout still there.
 */
// By the activities array, not the model: a load in a worker posts a shallow copy of the model to move the
// event count (several a second), and the copy holds the same state; a model the worker posts is all new.
const layouts = new WeakMap<Model['activities'], RowLayout[]>();
const keptLayouts = 2;

/** A layout of this model revision, filter and width already made. */
function madeLayout(model: Model, filter: Filter, width: number): RowLayout | undefined {
	return layouts.get(model.activities)?.find(layout => layout.rev === model.rev && layout.filter === filter && layout.width === width);
}

/** The unfiltered layout a filtered one is cut from: of any width, as the places of the panes do not depend on it. */
function baseFor(model: Model, filter: Filter, width: number): RowLayout | undefined {
	if (isEmptyFilter(filter)) return undefined;
	const known = (layouts.get(model.activities) ?? []).filter(layout => layout.rev === model.rev && isEmptyFilter(layout.filter));
	return known.find(layout => layout.width === width) ?? known[0];
}

/** The pane lists of this model revision, from a layout of it already made (they are found once per revision). */
function listsFor(model: Model) {
	return layouts.get(model.activities)?.find(layout => layout.rev === model.rev)?.lists;
}

/** Keeps a layout made, and the unfiltered one it was cut from, before the others of its model revision. */
function keep(layout: RowLayout): void {
	const {model, base} = layout;
	const others = (layouts.get(model.activities) ?? []).filter(other => other.rev === layout.rev && other !== layout && other !== base);
	layouts.set(model.activities, [layout, ...(base ? [base] : []), ...others].slice(0, keptLayouts));
}

function layoutFor(model: Model, filter: Filter, width: number): RowLayout {
	const found = madeLayout(model, filter, width);
	if (found) return found;
	// The one being made in slices, if it is this one, is finished now rather than made again.
	const pending = background?.layout;
	if (pending?.model === model && pending.rev === model.rev && pending.filter === filter && pending.width === width) {
		pending.work(Number.POSITIVE_INFINITY);
		finishBackground();
		return pending;
	}

	const layout = new RowLayout(model, model.rev, filter, width, {base: baseFor(model, filter, width), lists: listsFor(model)});
	keep(layout);
	return layout;
}

/** The layout `layoutAhead` is making, until it is made or dropped: one filter is worked out at a time. */
let ahead: RowLayout | undefined;

/**
 * Makes the layout of `filter` for this model revision in slices, before the filter is applied (a filter's
 * Enter, tui/find.ts): at the width of the layout made last for the model, the tree's. Each call of the
 * function returned works until `deadline` (`performance.now()`) and says whether the layout is made; once it
 * is, it is kept, and the tree finds it made when the filter is applied.
 */
export function layoutAhead(model: Model, filter: Filter): (deadline: number) => boolean {
	const width = layouts.get(model.activities)?.[0]?.width;
	ahead = undefined;
	if (width === undefined || madeLayout(model, filter, width)) return () => true;
	const layout = new RowLayout(model, model.rev, filter, width, {base: baseFor(model, filter, width), inSlices: true, lists: listsFor(model)});
	ahead = layout;
	return deadline => {
		if (!layout.work(deadline)) return false;
		if (ahead === layout) ahead = undefined;
		if (!madeLayout(model, filter, width)) keep(layout);
		return true;
	};
}

/** Drops the layout being made ahead (its filter was cancelled): nothing waits on it any more. */
export function dropLayoutAhead(): void {
	ahead = undefined;
}

/**
 * Whether a layout is being made in slices now: the tree's, of a model the load posted, or a filter's ahead of
 * its Enter. Such a layout reads the model between keys and frames, so what changes the model in place waits
 * until it is made (the load's posts: LoadOptions.holdPosts).
 */
export function layoutInSlices(): boolean {
	return ahead !== undefined || background?.layout !== undefined;
}

/**
 * A layout being made in slices for a model the load posted, while the tree shows the one before it: one at a
 * time, for every cache that waits on it. A load in a worker posts a new model every second or so, and laying
 * out 200,000 panes at once kept every key waiting until it was done. `layout` is undefined while it waits for
 * its turn (`restUntil`); it is then made for the newest model asked for (`asked`).
 */
type Background = {
	layout: RowLayout | undefined;
	asked: {model: Model; filter: Filter; width: number};
	waiting: Set<(layout: RowLayout) => void>;
	scheduler: Scheduling;
	/** Time spent in its slices so far. */
	busy: number;
};

let background: Background | undefined;

/** How long one slice of a layout made in the background runs before keys and frames get their turn. */
const sliceMs = 8;
/**
 * After a layout made in the background, the next one waits this many times as long as that one's slices
 * took: back to back, they kept the viewer's thread busy all through a load, and the load's worker (sharing
 * the cores) and the keys with it.
 */
const restFactor = 2;
let restUntil = 0;

export type Lagging = {
	/** Called once the layout of a newer model is made: the tree asks for its rows again. */
	onReady: () => void;
	/** Runs a step after the keys and frames already waiting; `setImmediate` unless a test steps by hand. */
	soon?: (step: () => void) => void;
	/** Runs a step after `ms`; `setTimeout` unless a test steps by hand. */
	later?: (step: () => void, ms: number) => void;
	/** A model with fewer panes is laid out at once: it takes less than a slice or two. */
	minPanes?: number;
	/** How long a slice runs; `sliceMs` unless a test wants each slice to do its least (0). */
	sliceMs?: number;
	/**
	 * Whether a layout may begin now: not while the model is part way through taking in a post of the load
	 * (ViewStore.modelChanging). Once begun, the posts wait for it (`layoutInSlices`).
	 */
	canStart?: () => boolean;
};

type Scheduling = Required<Pick<Lagging, 'soon' | 'later' | 'sliceMs' | 'canStart'>>;

const lagFromPanes = 5000;

function inBackground(model: Model, filter: Filter, width: number, onReady: (layout: RowLayout) => void, scheduler: Scheduling): void {
	// One at a time: a newer model waits until this one is made, then is asked for again. Starting over at
	// each post could never finish when making a layout takes longer than the posts come. (One stepped by
	// another scheduler, a test's, is left.)
	if (background?.scheduler.soon === scheduler.soon) {
		background.waiting.add(onReady);
		if (!background.layout) background.asked = {model, filter, width};
		return;
	}

	const made: Background = {layout: undefined, asked: {model, filter, width}, waiting: new Set([onReady]), scheduler, busy: 0};
	background = made;
	const step = (): void => {
		if (background !== made) return;
		if (!made.layout && !scheduler.canStart()) {
			scheduler.later(step, startRetryMs);
			return;
		}

		const started = performance.now();
		const {asked} = made;
		const layout = (made.layout ??= new RowLayout(asked.model, asked.model.rev, asked.filter, asked.width, {base: baseFor(asked.model, asked.filter, asked.width), inSlices: true, lists: listsFor(asked.model)}));
		const done = layout.work(started + scheduler.sliceMs);
		made.busy += performance.now() - started;
		if (done) finishBackground();
		else scheduler.soon(step);
	};

	const rest = restUntil - performance.now();
	if (rest > 0) scheduler.later(step, rest);
	else scheduler.soon(step);
}

function finishBackground(): void {
	const made = background;
	if (!made?.layout) return;
	const {layout, waiting, scheduler} = made;
	background = undefined;
	restUntil = performance.now() + restFactor * made.busy;
	keep(layout);
	// Told on a later turn: the caller that finished it may be drawing.
	scheduler.soon(() => {
		for (const onReady of waiting) onReady(layout);
	});
}

/**
 * Rows depend only on the model, the fold state and the width, not on the selection: keep the last list so
 * moving the selection (and handling many keys in one read) works nothing out again.
 *
 * `lagging`: for a model the load posted (a new object, not one changed in place) with many panes, the rows of
 * the last layout made go on being shown, folds and all, while the new one is made in slices; `onReady` says
 * when it is made. A change of the filter or the width is answered at once.
 */
export function createRowsCache(onBuild?: (ms: number) => void, lagging?: Lagging): (model: Model, ui: UiState, width: number) => RowList {
	let last: {layout: RowLayout; ui: UiState; list: RowList} | undefined;
	/** The newest layout this cache has shown. */
	let shown: RowLayout | undefined;
	/** A layout made in the background: shown from now on, unless the filter or the width changed meanwhile. */
	const ready = (layout: RowLayout): void => {
		if (shown && layout.filter === shown.filter && layout.width === shown.width) shown = layout;
		lagging?.onReady();
	};

	const laggingLayout = (model: Model, filter: Filter, width: number, lag: Lagging): RowLayout => {
		const found = madeLayout(model, filter, width);
		const previous = shown;
		const small = model.panes.size < (lag.minPanes ?? lagFromPanes);
		// A model changed in place (a load on this thread) goes on changing between slices: laid out at once. A load
		// in a worker posts a new model object each time, and its posts wait while a layout is made in slices. The
		// first large tree too is made in slices, the screen staying as it was meanwhile: keys are already answered.
		if (found || small || !previous || previous.filter !== filter || previous.width !== width || previous.model === model) return found ?? layoutFor(model, filter, width);
		inBackground(model, filter, width, ready, {soon: lag.soon ?? idleTimers.soon, later: lag.later ?? idleTimers.later, sliceMs: lag.sliceMs ?? sliceMs, canStart: lag.canStart ?? (() => true)});
		return previous;
	};

	return (model, ui, width) => {
		const started = performance.now();
		const layout = lagging ? laggingLayout(model, ui.filter, width, lagging) : layoutFor(model, ui.filter, width);
		shown = layout;
		if (
			last &&
			last.layout === layout &&
			last.ui.collapsed === ui.collapsed &&
			last.ui.filterFolds === ui.filterFolds &&
			last.ui.jobFolds === ui.jobFolds &&
			last.ui.defaultCollapse === ui.defaultCollapse
		) {
			return last.list;
		}

		const list = rowList(layout, ui);
		// The cost of the layout when it was worked out again, else of applying the folds.
		onBuild?.(performance.now() - started);
		last = {layout, ui, list};
		return list;
	};
}
