import {isEmptyFilter, type Filter} from '../../query/filter.js';
import type {Model} from '../../model/state.js';
import type {Scheduler, Task} from '../../slices/scheduler.js';
import type {UiState} from '../ui-state.js';
import {PaneLists} from './pane-lists.js';
import {RowLayout, rowList, type RowList} from './row-layout.js';

/*
 * The tree's layouts of one viewer, kept per model revision, filter and width: made at once, in slices for a
 * model the load posted (the last layout made stays on screen meanwhile), or ahead of a filter's Enter
 * (search/filter-ahead.ts). Working a layout out is the costly part of the tree: the tree, the header and the
 * overlays that speak of the selection's job ask the same layouts.
 */

/** The rows of the tree for a model, the UI state and a width. */
export type TreeRows = (model: Model, ui: UiState, width: number) => RowList;

/** Two layouts are kept per model revision, so that a filter taken off finds the unfiltered layout still there. */
const keptLayouts = 2;
/** A model with fewer panes is laid out at once, even when posted: it takes less than a slice or two. */
const lagFromPanes = 5000;
/**
 * After a layout made in the background, the next one waits this many times as long as that one's slices
 * took: back to back, they kept the viewer's thread busy all through a load, and the load's worker (sharing
 * the cores) and the keys with it.
 */
const restFactor = 2;

/**
 * A layout being made in slices for a model the load posted, while the tree shows the one before it: one at a
 * time, for every rows cache that waits on it. A load in a worker posts a new model every second or so, and
 * laying out 200,000 panes at once kept every key waiting until it was done. `layout` is undefined until its
 * first slice (which waits for its rest and for the model's turn); it is then made for the newest model asked
 * for (`asked`).
 */
type Background = {
	layout: RowLayout | undefined;
	asked: {model: Model; filter: Filter; width: number};
	waiting: Set<(layout: RowLayout) => void>;
	task: Task | undefined;
	/** Time spent in its slices so far. */
	busy: number;
};

export type Lagging = {
	/** Called once the layout of a newer model is made: the tree asks for its rows again. */
	onReady: () => void;
	/** A model with fewer panes is laid out at once (`lagFromPanes` unless a test wants slices on a small one). */
	minPanes?: number;
};

export class Layouts {
	/**
	 * By the activities array, not the model: a load in a worker posts a shallow copy of the model to move the
	 * event count (several a second), and the copy holds the same state; a model the worker posts is all new.
	 */
	readonly #kept = new WeakMap<Model['activities'], RowLayout[]>();
	#background: Background | undefined;
	/** When the next layout made in the background may begin (`restFactor`). */
	#restUntil = 0;

	constructor(readonly scheduler: Scheduler) {}

	/** A layout of this model revision, filter and width already made. */
	#made(model: Model, filter: Filter, width: number): RowLayout | undefined {
		return this.#kept.get(model.activities)?.find(layout => layout.rev === model.rev && layout.filter === filter && layout.width === width);
	}

	/** The unfiltered layout a filtered one is cut from: of any width, as the places of the panes do not depend on it. */
	#baseFor(model: Model, filter: Filter, width: number): RowLayout | undefined {
		if (isEmptyFilter(filter)) return undefined;
		const known = (this.#kept.get(model.activities) ?? []).filter(layout => layout.rev === model.rev && isEmptyFilter(layout.filter));
		return known.find(layout => layout.width === width) ?? known[0];
	}

	/**
	 * A new layout, cut from a kept unfiltered one and with the pane lists of its revision when one is kept (they are
	 * found once); else lists that take over what an earlier revision's found, where the tree's shape is the same.
	 */
	#newLayout(model: Model, filter: Filter, width: number, inSlices: boolean): RowLayout {
		const kept = this.#kept.get(model.activities);
		const lists = kept?.find(layout => layout.rev === model.rev)?.lists ?? new PaneLists(model, model.rev, kept?.[0]?.lists);
		return new RowLayout(model, model.rev, filter, width, {base: this.#baseFor(model, filter, width), inSlices, lists, earlier: kept?.[0]});
	}

	/** Keeps a layout made, and the unfiltered one it was cut from, before the others of its model revision. */
	#keep(layout: RowLayout): void {
		const {model, base} = layout;
		const others = (this.#kept.get(model.activities) ?? []).filter(other => other.rev === layout.rev && other !== layout && other !== base);
		this.#kept.set(model.activities, [layout, ...(base ? [base] : []), ...others].slice(0, keptLayouts));
	}

	/** The layout of this model revision, filter and width: kept, or made now. */
	layoutFor(model: Model, filter: Filter, width: number): RowLayout {
		const found = this.#made(model, filter, width);
		if (found) return found;
		// The one being made in slices, if it is this one, is finished now rather than made again.
		const pending = this.#background?.layout;
		if (pending?.model === model && pending.rev === model.rev && pending.filter === filter && pending.width === width) {
			pending.work(() => false);
			this.#finishBackground();
			return pending;
		}

		const layout = this.#newLayout(model, filter, width, false);
		this.#keep(layout);
		return layout;
	}

	/**
	 * Makes the layout of `filter` for this model revision in slices, before the filter is applied (a filter's
	 * Enter, search/filter-ahead.ts): at the width of the layout made last for the model, the tree's. Each call of
	 * the function returned works until `until` (the scheduler's clock) and says whether the layout is made; once
	 * it is, it is kept, and the tree finds it made when the filter is applied. The caller's task holds the model's
	 * read turn meanwhile.
	 */
	layoutAhead(model: Model, filter: Filter): (until: number) => boolean {
		const width = this.#kept.get(model.activities)?.[0]?.width;
		if (width === undefined || this.#made(model, filter, width)) return () => true;
		const layout = this.#newLayout(model, filter, width, true);
		return until => {
			if (!layout.work(() => this.scheduler.now() >= until)) return false;
			if (!this.#made(model, filter, width)) this.#keep(layout);
			return true;
		};
	}

	#inBackground(model: Model, filter: Filter, width: number, onReady: (layout: RowLayout) => void): void {
		// One at a time: a newer model waits until this one is made, then is asked for again. Starting over at
		// each post could never finish when making a layout takes longer than the posts come.
		const running = this.#background;
		if (running) {
			running.waiting.add(onReady);
			if (!running.layout) running.asked = {model, filter, width};
			return;
		}

		const {scheduler} = this;
		const made: Background = {layout: undefined, asked: {model, filter, width}, waiting: new Set([onReady]), task: undefined, busy: 0};
		this.#background = made;
		made.task = scheduler.run(
			until => {
				const started = scheduler.now();
				const {asked} = made;
				const layout = (made.layout ??= this.#newLayout(asked.model, asked.filter, asked.width, true));
				const done = layout.work(() => scheduler.now() >= until);
				made.busy += scheduler.now() - started;
				if (done) this.#finishBackground();
				return done;
			},
			// It reads the model between keys: the load's posts wait until it is made, and it waits for one part way.
			{reads: true, delayMs: this.#restUntil - scheduler.now()},
		);
	}

	#finishBackground(): void {
		const made = this.#background;
		if (!made?.layout) return;
		const {layout, waiting} = made;
		this.#background = undefined;
		made.task?.cancel();
		this.#restUntil = this.scheduler.now() + restFactor * made.busy;
		this.#keep(layout);
		// Told on a later turn: the caller that finished it may be drawing.
		this.scheduler.soon(() => {
			for (const onReady of waiting) onReady(layout);
		});
	}

	/**
	 * A rows cache. Rows depend only on the model, the fold state and the width, not on the selection: it keeps
	 * the last list so moving the selection (and handling many keys in one read) works nothing out again.
	 *
	 * `lagging`: for a model the load posted (a new object, not one changed in place) with many panes, the rows of
	 * the last layout made go on being shown, folds and all, while the new one is made in slices; `onReady` says
	 * when it is made. A change of the filter or the width is answered at once.
	 */
	rowsCache(onBuild?: (ms: number) => void, lagging?: Lagging): TreeRows {
		let last: {layout: RowLayout; ui: UiState; list: RowList} | undefined;
		/** The newest layout this cache has shown. */
		let shown: RowLayout | undefined;
		/** A layout made in the background: shown from now on, unless the filter or the width changed meanwhile. */
		const ready = (layout: RowLayout): void => {
			if (shown && layout.filter === shown.filter && layout.width === shown.width) shown = layout;
			lagging?.onReady();
		};

		const laggingLayout = (model: Model, filter: Filter, width: number, lag: Lagging): RowLayout => {
			const found = this.#made(model, filter, width);
			const previous = shown;
			const small = model.panes.size < (lag.minPanes ?? lagFromPanes);
			// A model changed in place (a load on this thread) goes on changing between slices: laid out at once. A load
			// in a worker posts a new model object each time, and its posts wait while a layout is made in slices. The
			// first large tree too is made in slices, the screen staying as it was meanwhile: keys are already answered.
			if (found || small || !previous || previous.filter !== filter || previous.width !== width || previous.model === model)
				return found ?? this.layoutFor(model, filter, width);
			this.#inBackground(model, filter, width, ready);
			return previous;
		};

		return (model, ui, width) => {
			const started = performance.now();
			const layout = lagging ? laggingLayout(model, ui.filter, width, lagging) : this.layoutFor(model, ui.filter, width);
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
}
