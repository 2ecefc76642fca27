import type {Model} from '../../model/state.js';
import {isSelectableRow, type Row} from './row-types.js';
import {RowLayout, rowList, type RowList} from './row-layout.js';
import type {UiState} from '../ui-state.js';

/*
 * The tree as one-line rows. The screen shows a window onto them, so only the rows that fit are ever made
 * (row-layout.ts) and turned into Ink elements: a 100,000-activity log costs the same to draw as a short one.
 */

export {activityKey, isSelectableRow, jobKey, maxShownDepth, paneKey, type Row} from './row-types.js';
export {growLiveText, indentWidth, lastRun, liveTail, paneIsLive} from './row-tail.js';
export {isPaneCollapsed} from './folds.js';
export {panesWithMatches, parentPaneOf} from './pane-lists.js';
export type {RowList} from './row-layout.js';

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
 * The row that is selected: while following, the newest activity of a running pane (else the last row), the
 * remembered one otherwise, or the row now at its old place when it disappeared.
 */
export function selectedRowIndex(rows: RowList, ui: UiState): number {
	if (rows.length === 0) return -1;
	// The newest activity, not the live text under it (which cannot be selected).
	if (ui.follow) return rows.followed();

	const found = rows.indexOfKey(ui.selectedKey);
	if (found !== -1) return found;
	// Its row is gone (folded away, or hidden by a filter such as `x`): the row that can be selected nearest its
	// place, above it first, so the selection is on a row that is shown, never on a filter's note.
	return nearestSelectable(rows, ui.selectedIndex, -1);
}

/** The row that can be selected nearest `index`, looking in direction `step` first (live text, notices and notes are skipped). */
export function nearestSelectable(rows: RowList, index: number, step: 1 | -1): number {
	let i = Math.max(0, Math.min(rows.length - 1, index));
	while (i >= 0 && i < rows.length && !isSelectableRow(rows.at(i)!)) i += step;
	if (i < 0 || i >= rows.length) {
		i = Math.max(0, Math.min(rows.length - 1, index));
		while (i >= 0 && i < rows.length && !isSelectableRow(rows.at(i)!)) i -= step;
	}

	return Math.max(0, Math.min(rows.length - 1, i));
}
