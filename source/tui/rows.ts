import {describeFilter, filterText, isEmptyFilter, matches as filterMatches, showsErrorsOnly, type Filter} from '../query/filter.js';
import type {Model, Pane, Run} from '../model/state.js';
import {interactiveStop} from '../query/resume-command.js';
import {childPanes, endedWhileWaiting, isLive, rootMarks, rootPanes, shownStatus} from '../query/tree.js';
import {argsDetail} from '../present/describe-activity.js';
import {sanitizeBlock} from '../present/sanitize.js';
import {wrapToWidth} from '../present/wrap.js';
import type {UiState} from './ui-state.js';
import {jobFoldCheck} from './job-folds.js';

/*
 * The tree as a flat list of one-line rows. The screen shows a window onto this list, so only the rows
 * that fit are ever turned into Ink elements: a 100,000-activity log costs the same to draw as a short one.
 */

export type Row =
	/** A job's one-line summary, above its panes when there are several jobs (job-row.tsx). */
	| {kind: 'job'; key: string; jobId: string; collapsed: boolean}
	/** `depth` is where the row is drawn: capped at `maxShownDepth`, past which the pane says its depth. */
	| {kind: 'pane'; key: string; paneId: string; depth: number; collapsed: boolean; orphan: boolean; cycle: boolean}
	| {kind: 'activity'; key: string; index: number; depth: number; paneId: string}
	| {kind: 'live'; key: string; paneId: string; depth: number; channel: 'reasoning' | 'result'; text: string}
	/** Something the person must act on, under its pane: the question an interactive tool asked. */
	| {kind: 'notice'; key: string; paneId: string; depth: number; text: string; part: 'question' | 'command' | 'ended'}
	/** Under a filter: how many panes it hid, or that nothing matches at all. Not selectable. */
	| {kind: 'filtered'; key: string; text: string; part: 'hidden' | 'none'};

/** Live streaming text shows its latest lines only; the rest is in the inspector once it completes. */
const liveReasoningLines = 3;
const liveResultLines = 6;

export function paneKey(paneId: string): string {
	return `p:${paneId}`;
}

export function jobKey(jobId: string): string {
	return `j:${jobId}`;
}

export function activityKey(activityId: string): string {
	return `a:${activityId}`;
}

export function isPaneCollapsed(model: Model, ui: UiState, pane: Pane, depth: number): boolean {
	// Under a filter every pane on screen holds a match, so it is open unless folded while filtering; the
	// person's own folds stay in `collapsed` and come back when the filter goes.
	if (!isEmptyFilter(ui.filter)) return ui.filterFolds.folds.get(pane.paneId) ?? ui.filterFolds.all;
	const explicit = ui.collapsed.get(pane.paneId);
	if (explicit !== undefined) return explicit;
	if (ui.defaultCollapse === 'expanded') return false;
	if (ui.defaultCollapse === 'collapsed') return true;
	// A finished child collapses to its header; the coordinator and anything still running stay open.
	return depth > 0 && !paneIsLive(model, pane);
}

export function paneIsLive(model: Model, pane: Pane): boolean {
	const last = lastRun(model, pane);
	return last !== undefined && isLive(shownStatus(last));
}

export function lastRun(model: Model, pane: Pane): Run | undefined {
	const runId = pane.runIds[pane.runIds.length - 1];
	return runId === undefined ? undefined : model.runs.get(runId);
}

/**
 * Rows are indented by delegation depth up to here; deeper panes are drawn at this depth and say their own.
 * A malformed log can chain 100,000 runs, and indenting by the true depth would push every row off screen.
 */
export const maxShownDepth = 16;

/** What is left to do while building rows, in order: a pane to lay out, a row to add, or a pane's closing rows. */
type Task =
	| {kind: 'pane'; pane: Pane; depth: number; orphan: boolean; cycle: boolean}
	| {kind: 'row'; row: Row}
	| {kind: 'tail'; pane: Pane; depth: number};

/**
 * The panes that hold an activity the filter matches, or have a descendant pane that does: the panes a
 * filtered tree shows. One pass over the activities, then up each new pane's ancestors until one already
 * known: linear in the log, whatever its depth.
 */
export function panesWithMatches(model: Model, filter: Filter): Set<string> {
	const holding = new Set<string>();
	for (const activity of model.activities) {
		if (!filterMatches(filter, activity, model)) continue;
		let paneId = model.runs.get(activity.runId)?.paneId;
		while (paneId !== undefined && !holding.has(paneId)) {
			holding.add(paneId);
			paneId = parentPaneOf(model, paneId);
		}
	}

	return holding;
}

/** The pane a pane hangs under on screen; none for a root, an orphan or a pane whose link would close a cycle. */
export function parentPaneOf(model: Model, paneId: string): string | undefined {
	const first = model.runs.get(paneId);
	// A pane shown as a root because its link would close a cycle has no parent on screen.
	if (!first || first.parentRunId === null || first.closesCycle) return undefined;
	return model.runs.get(first.parentRunId)?.paneId;
}

/** `holding`: `panesWithMatches` for this model and filter, when the caller keeps it between builds. */
export function buildRows(model: Model, ui: UiState, width: number, holding?: ReadonlySet<string>): Row[] {
	const rows: Row[] = [];
	const visited = new Set<string>();
	const showJobs = model.jobs.size > 1;
	const filtered = !isEmptyFilter(ui.filter);
	const shownPanes = filtered ? (holding ?? panesWithMatches(model, ui.filter)) : undefined;
	const jobCollapsed = jobFoldCheck(model, ui);
	for (const job of model.jobs.values()) {
		if (job.runIds.length === 0) continue;
		const roots = rootPanes(model, job).filter(pane => shownPanes === undefined || shownPanes.has(pane.paneId));
		if (shownPanes !== undefined && roots.length === 0) continue;
		if (showJobs) {
			const collapsed = jobCollapsed(job);
			rows.push({kind: 'job', key: jobKey(job.jobId), jobId: job.jobId, collapsed});
			if (collapsed) continue;
		}

		for (const pane of roots) addTree(model, ui, {kind: 'pane', pane, depth: 0, ...rootMarks(model, pane)}, width, rows, visited, shownPanes);
	}

	if (shownPanes !== undefined && model.panes.size > 0) addFilteredNote(model, ui.filter, shownPanes, rows);
	return rows;
}

/** Says what the filter left out: the count of hidden panes, or in words that nothing matches. */
function addFilteredNote(model: Model, filter: Filter, shownPanes: ReadonlySet<string>, rows: Row[]): void {
	const hidden = model.panes.size - shownPanes.size;
	if (shownPanes.size === 0) {
		// Errors-only alone reads best as a fact about the run; anything else names the filter.
		const errorsOnly = showsErrorsOnly(filter) && filterText(filter) === 'errors';
		rows.push({kind: 'filtered', key: 'f:none', text: errorsOnly ? 'no errors' : `nothing matches ${describeFilter(filter)}`, part: 'none'});
	}

	if (hidden > 0) rows.push({kind: 'filtered', key: 'f:hidden', text: `${hidden} ${hidden === 1 ? 'pane' : 'panes'} without matches hidden`, part: 'hidden'});
}

/**
 * A pane and everything under it, depth first, with its own stack of tasks: delegations can nest deeper than
 * the call stack goes.
 */
function addTree(model: Model, ui: UiState, root: Task, width: number, rows: Row[], visited: Set<string>, shownPanes: ReadonlySet<string> | undefined): void {
	const stack: Task[] = [root];
	const filtered = shownPanes !== undefined;
	while (stack.length > 0) {
		const task = stack.pop()!;
		if (task.kind === 'row') {
			rows.push(task.row);
			continue;
		}

		if (task.kind === 'tail') {
			addTail(model, task.pane, Math.min(task.depth, maxShownDepth), width, rows);
			continue;
		}

		const {pane, depth} = task;
		// A malformed log can make a parent cycle; each pane is shown once.
		if (visited.has(pane.paneId)) continue;
		visited.add(pane.paneId);
		const shown = Math.min(depth, maxShownDepth);
		const collapsed = isPaneCollapsed(model, ui, pane, depth);
		rows.push({kind: 'pane', key: paneKey(pane.paneId), paneId: pane.paneId, depth: shown, collapsed, orphan: task.orphan, cycle: task.cycle});
		if (collapsed) continue;

		// This pane's rows and child panes in order, then pushed reversed so that the first is done first.
		const allChildren = childPanes(model, pane);
		const placed = new Set<string>();
		// By pane id: one run can delegate to a hundred thousand, and each delegation looks up its own.
		const childOrder = new Map<string, number>();
		const todo: Task[] = [];
		const child = (childPane: Pane): Task => ({kind: 'pane', pane: childPane, depth: depth + 1, orphan: false, cycle: false});
		// Under a filter, child panes without a match anywhere in them are left out (and counted).
		const children = shownPanes === undefined ? allChildren : allChildren.filter(childPane => shownPanes.has(childPane.paneId));
		for (const [at, childPane] of children.entries()) childOrder.set(childPane.paneId, at);
		for (const index of pane.activityIndices) {
			const activity = model.activities[index];
			if (!activity) continue;
			// A hidden delegation still shows its child pane: the child is placed after the activities.
			if (filtered && !filterMatches(ui.filter, activity, model)) continue;
			todo.push({kind: 'row', row: {kind: 'activity', key: activityKey(activity.id), index, depth: shown, paneId: pane.paneId}});
			if (activity.type !== 'delegate' || activity.childRunIds.length === 0) continue;
			// Child panes sit right under the activity that delegated them, in the order they started.
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

/** What follows a pane's activities and children: its live text and what the person must act on. */
function addTail(model: Model, pane: Pane, depth: number, width: number, rows: Row[]): void {
	addLiveText(model, pane, depth, width, rows);
	const last = lastRun(model, pane);
	const ended = last ? endedWhileWaiting(model, last) : undefined;
	if (ended) rows.push({kind: 'notice', key: `n:${pane.paneId}:e`, paneId: pane.paneId, depth, text: ended.reason, part: 'ended'});
	const stop = last ? interactiveStop(model, last) : undefined;
	if (stop) {
		rows.push({kind: 'notice', key: `n:${pane.paneId}:q`, paneId: pane.paneId, depth, text: `${stop.toolName}: ${argsDetail(stop.args)}`, part: 'question'});
		rows.push({kind: 'notice', key: `n:${pane.paneId}:c`, paneId: pane.paneId, depth, text: stop.command, part: 'command'});
	}
}

function addLiveText(model: Model, pane: Pane, depth: number, width: number, rows: Row[]): void {
	const run = lastRun(model, pane);
	if (!run || !isLive(shownStatus(run))) return;
	let latest = -Infinity;
	for (const step of run.streams.keys()) latest = Math.max(latest, step);
	const stream = run.streams.get(latest);
	if (!stream) return;
	const textWidth = Math.max(10, width - indentWidth(depth) - 4);
	for (const channel of ['reasoning', 'result'] as const) {
		const text = stream[channel];
		if (text.isEmpty) continue;
		const keep = channel === 'reasoning' ? liveReasoningLines : liveResultLines;
		const lines = wrapToWidth(sanitizeBlock(liveTail(text.text, keep, textWidth)), textWidth);
		const shown = lines.slice(-keep);
		shown.forEach((line, n) => {
			rows.push({kind: 'live', key: `l:${pane.paneId}:${channel}:${n}`, paneId: pane.paneId, depth, channel, text: line});
		});
	}
}

/** Within one very long line, where the live tail may start: a multiple of this from the line's start. */
const liveTailStep = 4096;

/**
 * The end of a streaming text that its last `keep` lines, wrapped to `width`, come from. A stream can grow
 * to hundreds of kilobytes and is redrawn ten times a second: wrapping all of it every frame would cost
 * more than the rest of the frame. Lines wrap the same on their own, so the tail starts at the start of a
 * line (the last lines then read exactly as they would with everything wrapped); only inside one very long
 * line does it start elsewhere, at a step from the line's start, so that the wrapped lines stay put while
 * the text grows.
 */
export function liveTail(text: string, keep: number, width: number): string {
	const enough = keep * Math.max(1, width) * 4;
	if (text.length <= 2 * enough) return text;
	// The start of the `keep`-th line from the end: each line wraps to one row or more.
	let start = text.length;
	for (let lines = 0; lines < keep && start > 0; lines++) start = text.lastIndexOf('\n', start - 2) + 1;
	if (text.length - start <= 2 * enough) return text.slice(start);
	const within = text.length - enough;
	const lineStart = text.lastIndexOf('\n', within - 1) + 1;
	return text.slice(lineStart + Math.floor((within - lineStart) / liveTailStep) * liveTailStep);
}

export function indentWidth(depth: number): number {
	return depth * 2;
}

/** Row index of a key, or -1. */
export function indexOfKey(rows: Row[], key: string | undefined): number {
	if (key === undefined) return -1;
	for (let i = 0; i < rows.length; i++) if (rows[i]!.key === key) return i;
	return -1;
}

/** Live text, notices and the filter's note are read, not selected. */
export function isSelectableRow(row: Row): boolean {
	return row.kind !== 'live' && row.kind !== 'notice' && row.kind !== 'filtered';
}

/**
 * The row that is selected: the last one while following, the remembered one otherwise, or the row now
 * at its old place when it disappeared.
 */
export function selectedRowIndex(rows: Row[], ui: UiState): number {
	if (rows.length === 0) return -1;
	if (ui.follow) {
		// The newest activity, not the live text under it (which cannot be selected).
		for (let i = rows.length - 1; i >= 0; i--) if (isSelectableRow(rows[i]!)) return i;
		return rows.length - 1;
	}

	const found = indexOfKey(rows, ui.selectedKey);
	if (found !== -1) return found;
	return Math.max(0, Math.min(rows.length - 1, ui.selectedIndex));
}

/**
 * Rows depend only on the model, the fold state and the width, not on the selection: keep the last result
 * so moving the selection (and handling many keys in one read) does not rebuild them.
 */
export function createRowsCache(onBuild?: (ms: number) => void): (model: Model, ui: UiState, width: number) => Row[] {
	let last:
		| {rev: number; collapsed: UiState['collapsed']; filterFolds: UiState['filterFolds']; jobFolds: UiState['jobFolds']; defaultCollapse: UiState['defaultCollapse']; filter: Filter; width: number; model: Model; rows: Row[]}
		| undefined;
	// Which panes hold matches changes only with the log and the filter, not with folding or the width.
	let holding: {model: Model; rev: number; filter: Filter; panes: Set<string>} | undefined;
	return (model, ui, width) => {
		if (
			last &&
			last.model === model &&
			last.rev === model.rev &&
			last.collapsed === ui.collapsed &&
			last.filterFolds === ui.filterFolds &&
			last.jobFolds === ui.jobFolds &&
			last.defaultCollapse === ui.defaultCollapse &&
			last.filter === ui.filter &&
			last.width === width
		) {
			return last.rows;
		}

		const started = performance.now();
		if (isEmptyFilter(ui.filter)) holding = undefined;
		else if (!holding || holding.model !== model || holding.rev !== model.rev || holding.filter !== ui.filter) {
			holding = {model, rev: model.rev, filter: ui.filter, panes: panesWithMatches(model, ui.filter)};
		}

		const rows = buildRows(model, ui, width, holding?.panes);
		onBuild?.(performance.now() - started);
		last = {rev: model.rev, collapsed: ui.collapsed, filterFolds: ui.filterFolds, jobFolds: ui.jobFolds, defaultCollapse: ui.defaultCollapse, filter: ui.filter, width, model, rows};
		return rows;
	};
}
