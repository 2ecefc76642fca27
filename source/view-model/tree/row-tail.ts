import type {Model, Pane, Run, StepStream} from '../../model/state.js';
import {interactiveStop} from '../../query/resume-command.js';
import {childPanes, endedWhileWaiting, isLive, shownStatus} from '../../query/tree.js';
import {argsDetail} from '../../text/describe-activity.js';
import {sanitizeBlock} from '../../text/sanitize.js';
import {wrapToWidth} from '../../text/wrap.js';
import type {Row} from './row-types.js';

/** Live streaming text shows its latest lines only; the rest is in the inspector once it completes. */
const liveReasoningLines = 3;
const liveResultLines = 6;

export function lastRun(model: Model, pane: Pane): Run | undefined {
	const runId = pane.runIds[pane.runIds.length - 1];
	return runId === undefined ? undefined : model.runs.get(runId);
}

export function paneIsLive(model: Model, pane: Pane): boolean {
	const last = lastRun(model, pane);
	return last !== undefined && isLive(shownStatus(last));
}

/**
 * Whether the pane or any pane under it runs: the tree keeps such a pane open, so a coordinator waiting for its
 * delegates does not fold away the delegates at work. Walks the panes under it (with its own stack, each once):
 * for one pane at a time (tests, the flattening oracle); the row index marks every pane in one pass.
 */
export function paneHoldsLive(model: Model, pane: Pane): boolean {
	const stack = [pane];
	const seen = new Set<string>();
	while (stack.length > 0) {
		const at = stack.pop()!;
		if (seen.has(at.paneId)) continue;
		seen.add(at.paneId);
		if (paneIsLive(model, at)) return true;
		for (const child of childPanes(model, at)) stack.push(child);
	}

	return false;
}

const noRows: readonly Row[] = [];

/** What follows a pane's activities and children: its live text and what the person must act on. */
export function tailRows(model: Model, pane: Pane, depth: number, width: number, last = lastRun(model, pane)): readonly Row[] {
	if (!last) return noRows;
	const live = isLive(shownStatus(last));
	const ended = live ? undefined : endedWhileWaiting(model, last);
	const stop = live ? undefined : interactiveStop(model, last);
	// Most panes have none: no array is made for them.
	if (!live && !ended && !stop) return noRows;
	const rows: Row[] = [];
	if (live) addLiveText(last, pane, depth, width, rows);
	if (ended) rows.push({kind: 'notice', key: `n:${pane.paneId}:e`, paneId: pane.paneId, depth, text: ended.reason, part: 'ended'});
	if (stop) {
		rows.push({kind: 'notice', key: `n:${pane.paneId}:q`, paneId: pane.paneId, depth, text: `${stop.toolName}: ${argsDetail(stop.args)}`, part: 'question'});
		rows.push({kind: 'notice', key: `n:${pane.paneId}:c`, paneId: pane.paneId, depth, text: stop.command, part: 'command'});
	}

	return rows;
}

function addLiveText(run: Run, pane: Pane, depth: number, width: number, rows: Row[]): void {
	const stream = latestStream(run);
	if (!stream) return;
	for (const channel of ['reasoning', 'result'] as const) {
		if (stream[channel].isEmpty) continue;
		const keep = channel === 'reasoning' ? liveReasoningLines : liveResultLines;
		liveLines(run, channel, keep, liveTextWidth(depth, width)).forEach((line, n) => {
			rows.push({kind: 'live', key: `l:${pane.paneId}:${channel}:${n}`, paneId: pane.paneId, depth, channel, text: line});
		});
	}
}

/**
 * The stream a run's live rows show: its latest step's, unless every text of it is complete and the run has gone on
 * to a later step since. A Claude Code run keeps running while its sub-agents work, and the thinking of the step
 * that started them, shown below their rows (a pane's tail follows its children), read as theirs.
 */
function latestStream(run: Run): StepStream | undefined {
	let latest = -Infinity;
	for (const step of run.streams.keys()) latest = Math.max(latest, step);
	const stream = run.streams.get(latest);
	if (stream === undefined || run.currentStep === undefined || latest >= run.currentStep) return stream;
	const done = (text: StepStream['reasoning']) => text.isEmpty || text.isComplete;
	return done(stream.reasoning) && done(stream.result) ? undefined : stream;
}

/**
 * The room for live text on a row: the width less the cursor's column, the pane's indent and its activities' two
 * columns (LiveRow), and the gutter (`│ `). A wrapped line one column wider was cut with an ellipsis.
 */
function liveTextWidth(depth: number, width: number): number {
	return Math.max(10, width - 1 - indentWidth(depth) - 2 - 2);
}

/** The last `keep` lines of the run's live text on `channel`, wrapped to `textWidth`. */
function liveLines(run: Run, channel: 'reasoning' | 'result', keep: number, textWidth: number): string[] {
	const text = latestStream(run)?.[channel];
	if (!text || text.isEmpty) return [];
	return wrapToWidth(sanitizeBlock(liveTail(text.text, keep, textWidth)), textWidth).slice(-keep);
}

/**
 * The rows of a tree that leaves `free` rows of the screen empty, with its live text grown into them (#32 §3.8):
 * a streaming answer shows more of itself than its usual 6 lines when nothing else needs the room. The free rows
 * go to the live texts in turn, a row at a time, while they have more lines to show. Only for a tree that fits on
 * the screen, so it is small: the rows are its whole list.
 */
export function growLiveText(model: Model, rows: readonly Row[], free: number, width: number): readonly Row[] {
	if (free <= 0) return rows;
	type Group = {at: number; count: number; row: Extract<Row, {kind: 'live'}>; lines: string[]};
	const groups: Group[] = [];
	for (const [at, row] of rows.entries()) {
		if (row.kind !== 'live') continue;
		const last = groups.at(-1);
		if (last && last.row.paneId === row.paneId && last.row.channel === row.channel && last.at + last.count === at) {
			last.count++;
			continue;
		}

		const pane = model.panes.get(row.paneId);
		const run = pane ? lastRun(model, pane) : undefined;
		const lines = run
			? liveLines(run, row.channel, row.channel === 'result' ? liveResultLines + free : liveReasoningLines + free, liveTextWidth(row.depth, width))
			: [];
		groups.push({at, count: 1, row, lines});
	}

	// A row at a time to each text that has more to show, answers before thinking, until no row is free.
	const shown = groups.map(group => group.count);
	let left = free;
	const order = groups.map((_, index) => index).sort((a, b) => Number(groups[a]!.row.channel === 'reasoning') - Number(groups[b]!.row.channel === 'reasoning'));
	for (let grew = true; left > 0 && grew; ) {
		grew = false;
		for (const index of order) {
			if (left === 0) break;
			if (shown[index]! >= groups[index]!.lines.length) continue;
			shown[index]!++;
			left--;
			grew = true;
		}
	}

	if (left === free) return rows;
	const grown: Row[] = [];
	let next = 0;
	for (const [index, group] of groups.entries()) {
		grown.push(...rows.slice(next, group.at));
		const {row} = group;
		group.lines.slice(-shown[index]!).forEach((text, n) => {
			grown.push({...row, key: `l:${row.paneId}:${row.channel}:${n}`, text});
		});
		next = group.at + group.count;
	}

	grown.push(...rows.slice(next));
	return grown;
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
