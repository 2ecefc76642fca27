import {isEmptyFilter} from '../../query/filter.js';
import type {Model, Pane} from '../../model/state.js';
import type {UiState} from '../ui-state.js';
import {paneHoldsLive} from './row-tail.js';

/*
 * Which panes are folded: by hand (`collapsed`, or `filterFolds` under a filter), by `e` / `E`, or by the default
 * rule (a finished child folds to its header). The counts that follow from the folds are fold-counts.ts.
 */

/** What the folds depend on. */
export type Folds = Pick<UiState, 'collapsed' | 'filterFolds' | 'jobFolds' | 'defaultCollapse' | 'filter'>;

/** Whether a pane is folded under these folds (`depth` 0: a root, which the default rule leaves open). */
export function isPaneCollapsed(model: Model, ui: Folds, pane: Pane, depth: number): boolean {
	return foldOf(ui, pane.paneId, depth, () => paneHoldsLive(model, pane));
}

/** The fold every pane has under these folds when it is the same for all (`E`, `e`, none folded by hand), else undefined. */
export function uniformFold(ui: Folds): boolean | undefined {
	if (!isEmptyFilter(ui.filter)) return ui.filterFolds.folds.size === 0 ? ui.filterFolds.all : undefined;
	if (ui.collapsed.size > 0) return undefined;
	if (ui.defaultCollapse === 'expanded') return false;
	if (ui.defaultCollapse === 'collapsed') return true;
	return undefined;
}

/** `live`: whether the pane or a pane under it runs, or how to find out (asked only when needed). */
export function foldOf(ui: Folds, paneId: string, depth: number, live: boolean | (() => boolean)): boolean {
	// Under a filter every pane on screen holds a match, so it is open unless folded while filtering; the
	// person's own folds stay in `collapsed` and come back when the filter goes.
	if (!isEmptyFilter(ui.filter)) return ui.filterFolds.folds.size === 0 ? ui.filterFolds.all : (ui.filterFolds.folds.get(paneId) ?? ui.filterFolds.all);
	const explicit = ui.collapsed.size === 0 ? undefined : ui.collapsed.get(paneId);
	if (explicit !== undefined) return explicit;
	if (ui.defaultCollapse === 'expanded') return false;
	if (ui.defaultCollapse === 'collapsed') return true;
	// A finished child collapses to its header; the coordinator, anything still running and anything with a run
	// going on under it stay open.
	return depth > 0 && !(typeof live === 'boolean' ? live : live());
}
/** More explicit fold changes than this at once (a search unfolding a deep chain) are applied in one pass. */
const maxRefolds = 64;

/**
 * The panes whose explicit fold differs between two fold states that differ only in explicit folds; undefined
 * when they differ otherwise (`e`, `E`, the filter) or in too many panes.
 */
export function changedFolds(before: Folds, after: Folds): string[] | undefined {
	if (before.defaultCollapse !== after.defaultCollapse || before.filter !== after.filter) return undefined;
	const filtered = !isEmptyFilter(after.filter);
	if (filtered && before.filterFolds.all !== after.filterFolds.all) return undefined;
	const a = filtered ? before.filterFolds.folds : before.collapsed;
	const b = filtered ? after.filterFolds.folds : after.collapsed;
	if (a === b) return [];
	if (Math.abs(a.size - b.size) > maxRefolds) return undefined;
	const changed: string[] = [];
	for (const [paneId, value] of b) {
		if (a.get(paneId) === value) continue;
		changed.push(paneId);
		if (changed.length > maxRefolds) return undefined;
	}

	for (const paneId of a.keys()) {
		if (b.has(paneId)) continue;
		changed.push(paneId);
		if (changed.length > maxRefolds) return undefined;
	}

	return changed;
}

export function sameFolds(a: Folds, b: Folds): boolean {
	return (
		a.collapsed === b.collapsed &&
		a.filterFolds === b.filterFolds &&
		a.jobFolds === b.jobFolds &&
		a.defaultCollapse === b.defaultCollapse &&
		a.filter === b.filter
	);
}
