import {emptyFilter, filterText, isEmptyFilter, type Filter} from '../../query/filter.js';
import type {Model} from '../../model/state.js';
import {cutSteps} from './filter-cut.js';
import {FoldCounts} from './fold-counts.js';
import type {Folds} from './folds.js';
import {followedPosition, positionOfKey} from './key-index.js';
import {drain, PaneLists} from './pane-lists.js';
import {Placement, placeSteps} from './placement.js';
import type {Row} from './row-types.js';
import {rowsBetween, type FoldedTree} from './seek.js';

/*
 * The tree as an index, not as a list of rows. A log can hold 200,000 panes or a million activities in one
 * pane, and flattening all of them into rows on every key made each key wait for the whole log. Instead:
 *
 * - the placement (which activities and child panes each pane shows, in order) is worked out once per model
 *   revision, filter and width, without making a row (placement.ts; a filter's is cut from the unfiltered
 *   one, filter-cut.ts);
 * - the folds give each pane a count of the rows it takes, bottom up in one pass over the panes, and each
 *   pane with child panes the running sums of its children's counts when first asked after a fold
 *   (folds.ts, fold-counts.ts);
 * - a row at a position, or the position of a key, is then found by walking down (or up) the tree, with a
 *   binary search among a pane's children: the depth of the tree, not its size (seek.ts, key-index.ts);
 * - rows are made only for the window on screen.
 */

/** Which row list a caller has: the index answers it without ever holding every row. */
export type RowList = {
	readonly length: number;
	at(index: number): Row | undefined;
	/** The rows from `from` up to (not including) `to`. */
	slice(from: number, to: number): Row[];
	/** Position of the row with this key, or -1 when it is not shown (folded away, filtered out, unknown). */
	indexOfKey(key: string | undefined): number;
	/** The row follow mode selects (`followedIndex`), or -1 when there are no rows. */
	followed(): number;
};

export type LayoutOptions = {
	/** With a filter: the unfiltered layout of this model revision, at any width (made here when missing). */
	base?: RowLayout | undefined;
	/** Made in slices by `work` rather than at once; asking it for rows finishes it first. */
	inSlices?: boolean | undefined;
	/** The pane lists of this model revision, when another layout of it has them (they are found once). */
	lists?: PaneLists | undefined;
	/**
	 * A layout made last for the same model object (changed in place since, by a load on the viewer's thread): the
	 * jobs its unfiltered placement placed that have not changed since are carried over (placement.ts).
	 */
	earlier?: RowLayout | undefined;
};

/**
 * The layout of the tree for one model revision, filter and width: which rows each pane shows when open.
 * Folds are applied on top (`applyFolds`) without working the layout out again. A filtered layout is cut
 * from the unfiltered one of the same revision (`base`), which has already found every pane's place.
 */
export class RowLayout {
	readonly #base: RowLayout | undefined;
	readonly #tree: FoldedTree;
	/** What is left to do of making the layout. */
	#steps: Generator<void, void> | undefined;
	/**
	 * The rows last made for a window of two or more (the screen's), and the last single row asked for, under the
	 * folds they were made for (`FoldCounts.version`). A frame asks for its window and then for the selected row a
	 * few times over (the tree, the header's job, the footer); each ask walked down from the top again, which in a
	 * chain of 100,000 panes is 100,000 steps (`G` on the chain of #33 took 35 ms of CPU, mostly those walks).
	 */
	#window: {version: number; from: number; rows: Row[]} | undefined;
	#single: {version: number; index: number; row: Row | undefined} | undefined;
	/** The position of the key last asked for, likewise: the selection's, asked by each view of a frame, a walk up the tree each. */
	#position: {version: number; key: string | undefined; at: number} | undefined;

	constructor(
		readonly model: Model,
		readonly rev: number,
		readonly filter: Filter,
		readonly width: number,
		options: LayoutOptions = {},
	) {
		const {base, inSlices = false, earlier} = options;
		const given = options.lists?.holdsFor(model, rev) ? options.lists : undefined;
		this.#base = isEmptyFilter(filter)
			? undefined
			: base?.model === model && base.rev === rev && isEmptyFilter(base.filter)
				? base
				: new RowLayout(model, rev, emptyFilter, width, {inSlices, lists: given, earlier});
		const lists = this.#base?.lists ?? given ?? new PaneLists(model, rev);
		const placement = new Placement(model, width, lists, this.#base ? this.#base.#tree.placement : undefined);
		this.#tree = {placement, counts: new FoldCounts(placement, filter)};
		// Only the unfiltered placement, the earlier layout's own or its base, is carried from; `placeSteps` checks it is
		// of this model.
		const earlierPlacement = earlier && (earlier.#base ?? earlier).#tree.placement;
		// A filtered layout carries from the earlier one of the same filter (filter-cut.ts checks the rest).
		const earlierCut = earlier && earlier.#base && filterText(earlier.filter) === filterText(filter) ? earlier.#tree.placement : undefined;
		this.#steps = this.#layOutSteps(earlierPlacement, earlierCut);
		if (!inSlices) this.#finish();
	}

	/** For a filtered layout, the unfiltered one it was cut from. */
	get base(): RowLayout | undefined {
		return this.#base;
	}

	/** Which panes hang under which, for this model revision: shared by its layouts. */
	get lists(): PaneLists {
		return this.#tree.placement.lists;
	}

	/** Goes on making the layout until it is made (true) or `enough` says to pause, after at least one step (false). */
	work(enough: () => boolean): boolean {
		while (this.#steps) {
			if (this.#steps.next().done) this.#steps = undefined;
			else if (enough()) return false;
		}

		return true;
	}

	#finish(): void {
		if (this.#steps) drain(this.#steps);
		this.#steps = undefined;
	}

	*#layOutSteps(earlier: Placement | undefined, earlierCut: Placement | undefined): Generator<void, void> {
		const {placement, counts} = this.#tree;
		if (this.#base) {
			// The unfiltered layout first, in its own slices, then the cut from it, pausing every few thousand panes.
			while (!this.#base.work(() => true)) yield;
			yield* cutSteps(placement, this.filter, earlierCut);
		} else {
			yield* placeSteps(placement, earlier);
		}

		yield* counts.openCountSteps();
	}

	/** Counts every pane's rows for these folds (fold-counts.ts), the layout made first if it is not yet. */
	applyFolds(ui: Folds): void {
		this.#finish();
		this.#tree.counts.apply(ui);
	}

	get length(): number {
		return this.#tree.counts.length;
	}

	/** The rows from `from` to `to`, made as the walk goes. */
	slice(from: number, to: number): Row[] {
		const known = this.#knownRows(from, to);
		if (known) return known;
		const rows = rowsBetween(this.#tree, from, to);
		// Kept only once the layout is whole: rows of one still being made change as it goes on.
		if (!this.#steps && rows.length > 1) this.#window = {version: this.#tree.counts.version, from: Math.max(0, from), rows};
		return rows;
	}

	/** Rows `from` to `to` out of the window last made, when it holds them all under the folds of now. */
	#knownRows(from: number, to: number): Row[] | undefined {
		const window = this.#window;
		if (!window || this.#steps || window.version !== this.#tree.counts.version || from < window.from || to > window.from + window.rows.length) return undefined;
		return window.rows.slice(from - window.from, to - window.from);
	}

	at(index: number): Row | undefined {
		if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
		const single = this.#single;
		if (single && !this.#steps && single.index === index && single.version === this.#tree.counts.version) return single.row;
		const row = this.slice(index, index + 1)[0];
		if (!this.#steps) this.#single = {version: this.#tree.counts.version, index, row};
		return row;
	}

	/** Position of a row by its key, walking up from its pane: the depth of the tree, not its size. */
	indexOfKey(key: string | undefined): number {
		const known = this.#position;
		const {version} = this.#tree.counts;
		if (known && !this.#steps && known.key === key && known.version === version) return known.at;
		const at = positionOfKey(this.#tree, key);
		if (!this.#steps) this.#position = {version, key, at};
		return at;
	}

	/** The row follow mode selects (key-index.ts). */
	followedIndex(): number {
		return followedPosition(this.#tree);
	}
}

/** A row list for one set of folds over a layout; it re-applies its folds should another list have changed them. */
export function rowList(layout: RowLayout, folds: Folds): RowList {
	layout.applyFolds(folds);
	// The followed row depends on the layout and the folds only: worked out once per list.
	let followed: number | undefined;
	return {
		get length() {
			layout.applyFolds(folds);
			return layout.length;
		},
		at(index) {
			layout.applyFolds(folds);
			return layout.at(index);
		},
		slice(from, to) {
			layout.applyFolds(folds);
			return layout.slice(from, to);
		},
		indexOfKey(key) {
			layout.applyFolds(folds);
			return layout.indexOfKey(key);
		},
		followed() {
			layout.applyFolds(folds);
			followed ??= layout.followedIndex();
			return followed;
		},
	};
}
