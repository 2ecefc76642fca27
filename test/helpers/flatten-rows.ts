import {describeFilter, filterText, isEmptyFilter, matches as filterMatches, showsErrorsOnly} from '../../source/query/filter.js';
import type {Model, Pane} from '../../source/model/state.js';
import {childPanes, rootMarks, rootPanes} from '../../source/query/tree.js';
import {tailRows} from '../../source/view-model/tree/row-tail.js';
import {isPaneCollapsed} from '../../source/view-model/tree/folds.js';
import {panesWithMatches} from '../../source/view-model/tree/pane-lists.js';
import {activityKey, maxShownDepth, paneKey, type Row} from '../../source/view-model/tree/row-types.js';
import {jobFoldCheck} from '../../source/view-model/tree/job-folds.js';
import type {UiState} from '../../source/view-model/ui-state.js';

/*
 * The tree flattened the way the viewer did before the row index: every row, one pane after another with a
 * stack of tasks. Kept as the oracle the index is checked against (rows.test.ts).
 */

type Task = {kind: 'pane'; pane: Pane; depth: number; orphan: boolean; cycle: boolean} | {kind: 'row'; row: Row} | {kind: 'tail'; pane: Pane; depth: number};

export function flattenRows(model: Model, ui: UiState, width: number): Row[] {
	const rows: Row[] = [];
	const visited = new Set<string>();
	const showJobs = model.jobs.size > 1;
	const jobCollapsed = jobFoldCheck(model, ui);
	const shownPanes = isEmptyFilter(ui.filter) ? undefined : panesWithMatches(model, ui.filter);
	for (const job of model.jobs.values()) {
		if (job.runIds.length === 0) continue;
		const roots = rootPanes(model, job).filter(pane => shownPanes === undefined || shownPanes.has(pane.paneId));
		if (shownPanes !== undefined && roots.length === 0) continue;
		if (showJobs) {
			const collapsed = jobCollapsed(job);
			rows.push({kind: 'job', key: `j:${job.jobId}`, jobId: job.jobId, collapsed});
			if (collapsed) continue;
		}

		for (const pane of roots) addTree(model, ui, {kind: 'pane', pane, depth: 0, ...rootMarks(model, pane)}, width, rows, visited, shownPanes);
	}

	if (shownPanes !== undefined && model.panes.size > 0) {
		const hidden = model.panes.size - shownPanes.size;
		if (shownPanes.size === 0) {
			const errorsOnly = showsErrorsOnly(ui.filter) && filterText(ui.filter) === 'errors';
			rows.push({kind: 'filtered', key: 'f:none', text: errorsOnly ? 'no errors' : `nothing matches ${describeFilter(ui.filter)}`, part: 'none'});
		}

		if (hidden > 0) rows.push({kind: 'filtered', key: 'f:hidden', text: `${hidden} ${hidden === 1 ? 'pane' : 'panes'} without matches hidden`, part: 'hidden'});
	}

	return rows;
}

function addTree(model: Model, ui: UiState, root: Task, width: number, rows: Row[], visited: Set<string>, shownPanes: ReadonlySet<string> | undefined): void {
	const stack: Task[] = [root];
	while (stack.length > 0) {
		const task = stack.pop()!;
		if (task.kind === 'row') {
			rows.push(task.row);
			continue;
		}

		if (task.kind === 'tail') {
			rows.push(...tailRows(model, task.pane, Math.min(task.depth, maxShownDepth), width));
			continue;
		}

		const {pane, depth} = task;
		if (visited.has(pane.paneId)) continue;
		visited.add(pane.paneId);
		const shown = Math.min(depth, maxShownDepth);
		const collapsed = isPaneCollapsed(model, ui, pane, depth);
		rows.push({kind: 'pane', key: paneKey(pane.paneId), paneId: pane.paneId, depth: shown, collapsed, orphan: task.orphan, cycle: task.cycle});
		if (collapsed) continue;
		const allChildren = childPanes(model, pane);
		const placed = new Set<string>();
		const childOrder = new Map<string, number>();
		const todo: Task[] = [];
		const child = (childPane: Pane): Task => ({kind: 'pane', pane: childPane, depth: depth + 1, orphan: false, cycle: false});
		const children = shownPanes === undefined ? allChildren : allChildren.filter(childPane => shownPanes.has(childPane.paneId));
		for (const [at, childPane] of children.entries()) childOrder.set(childPane.paneId, at);
		for (const index of pane.activityIndices) {
			const activity = model.activities[index];
			if (!activity) continue;
			if (shownPanes !== undefined && !filterMatches(ui.filter, activity, model)) continue;
			todo.push({kind: 'row', row: {kind: 'activity', key: activityKey(activity.id), index, depth: shown, paneId: pane.paneId}});
			if (activity.type !== 'delegate' || activity.childRunIds.length === 0) continue;
			const mine: number[] = [];
			for (const childRunId of activity.childRunIds) {
				const at = childOrder.get(childRunId);
				if (at !== undefined && !placed.has(childRunId)) mine.push(at);
			}

			mine.sort((a, b) => a - b);
			for (const at of mine) {
				const childPane = children[at]!;
				if (placed.has(childPane.paneId)) continue;
				placed.add(childPane.paneId);
				todo.push(child(childPane));
			}
		}

		for (const childPane of children) if (!placed.has(childPane.paneId)) todo.push(child(childPane));
		todo.push({kind: 'tail', pane, depth});
		for (let i = todo.length - 1; i >= 0; i--) stack.push(todo[i]!);
	}
}
