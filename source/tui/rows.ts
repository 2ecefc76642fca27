import {isEmptyFilter, type Filter} from '../query/filter.js';
import type {Model} from '../model/state.js';
import {isSelectableRow, type Row} from './row-types.js';
import {RowLayout, rowList, type RowList} from './row-index.js';
import type {UiState} from './ui-state.js';

/*
 * The tree as one-line rows. The screen shows a window onto them, so only the rows that fit are ever made
 * (row-index.ts) and turned into Ink elements: a 100,000-activity log costs the same to draw as a short one.
 */

export {activityKey, isSelectableRow, jobKey, maxShownDepth, paneKey, type Row} from './row-types.js';
export {indentWidth, lastRun, liveTail, paneIsLive} from './row-tail.js';
export {isPaneCollapsed, panesWithMatches, parentPaneOf, type RowList} from './row-index.js';

/**
 * Every row, in order: for tests and anything headless that wants the whole tree. The viewer asks a
 * `RowList` for the window it shows instead.
 */
export function buildRows(model: Model, ui: UiState, width: number): Row[] {
	const list = rowList(new RowLayout(model, model.rev, ui.filter, width), ui);
	return list.slice(0, list.length);
}

/** Row index of a key, or -1. */
export function indexOfKey(rows: RowList, key: string | undefined): number {
	return rows.indexOfKey(key);
}

/**
 * The row that is selected: the last one while following, the remembered one otherwise, or the row now
 * at its old place when it disappeared.
 */
export function selectedRowIndex(rows: RowList, ui: UiState): number {
	if (rows.length === 0) return -1;
	if (ui.follow) {
		// The newest activity, not the live text under it (which cannot be selected).
		for (let i = rows.length - 1; i >= 0; i--) if (isSelectableRow(rows.at(i)!)) return i;
		return rows.length - 1;
	}

	const found = rows.indexOfKey(ui.selectedKey);
	if (found !== -1) return found;
	return Math.max(0, Math.min(rows.length - 1, ui.selectedIndex));
}

/**
 * The layouts of each model, shared by every cache: the tree and the app ask for the same rows, and working a
 * layout out is the costly part. Two are kept per model revision, so that a filter taken off finds the
 * unfiltered layout still there.
 */
// By the activities array, not the model: a load in a worker posts a shallow copy of the model to move the
// event count (several a second), and the copy holds the same state; a model the worker posts is all new.
const layouts = new WeakMap<Model['activities'], RowLayout[]>();
const keptLayouts = 2;

function layoutFor(model: Model, filter: Filter, width: number): RowLayout {
	const known = (layouts.get(model.activities) ?? []).filter(layout => layout.rev === model.rev);
	const found = known.find(layout => layout.filter === filter && layout.width === width);
	if (found) return found;
	// A filtered layout is cut from the unfiltered one, which is kept beside it (of any width: the places of
	// the panes do not depend on it).
	const base = isEmptyFilter(filter) ? undefined : (known.find(layout => isEmptyFilter(layout.filter) && layout.width === width) ?? known.find(layout => isEmptyFilter(layout.filter)));
	const layout = new RowLayout(model, model.rev, filter, width, base);
	const made = layout.base;
	const kept = made ? [layout, made, ...known.filter(other => other !== made)] : [layout, ...known];
	layouts.set(model.activities, kept.slice(0, keptLayouts));
	return layout;
}

/**
 * Rows depend only on the model, the fold state and the width, not on the selection: keep the last list so
 * moving the selection (and handling many keys in one read) works nothing out again.
 */
export function createRowsCache(onBuild?: (ms: number) => void): (model: Model, ui: UiState, width: number) => RowList {
	let last: {layout: RowLayout; ui: UiState; list: RowList} | undefined;
	return (model, ui, width) => {
		const started = performance.now();
		const layout = layoutFor(model, ui.filter, width);
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
