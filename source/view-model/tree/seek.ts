import type {FoldCounts} from './fold-counts.js';
import {PaneNode} from './pane-node.js';
import type {Placement} from './placement.js';
import {activityKey, paneKey, type Row} from './row-types.js';

/*
 * A row at a position, found by walking down the tree with a binary search among a pane's children: the depth
 * of the tree, not its size. Rows are made only for the window asked for.
 */

/** A placement with the counts of the folds of now: what the walks read. */
export type FoldedTree = {placement: Placement; counts: FoldCounts};

type Frame = {node: PaneNode; headerDone: boolean; act: number; child: number; tail: number};
type Cursor = {top: number; topTail: number; frame: Frame | undefined};

/** The rows from `from` to `to`, made as the walk goes. */
export function rowsBetween(tree: FoldedTree, from: number, to: number): Row[] {
	const start = Math.max(0, from);
	const end = Math.min(tree.counts.length, to);
	const rows: Row[] = [];
	if (start >= end) return rows;
	const cursor = seek(tree, start);
	while (rows.length < end - start) {
		const row = next(tree, cursor);
		if (!row) break;
		rows.push(row);
	}

	return rows;
}

/** How far a walk climbs from the pane the last one ended in before it starts from the top instead. */
const nearClimb = 64;

/**
 * A cursor whose next row is row `index`: the walk down the tree to it, from the pane the last walk ended in
 * when the row is under it or a few panes above (a window next to the last one, a row of it): in a chain
 * 100,000 deep, a walk from the top is 100,000 steps. Each pane passed on the way has its place noted.
 */
function seek(tree: FoldedTree, index: number): Cursor {
	const {placement, counts} = tree;
	const near = nearPane(counts, index);
	if (near) return walkDown(counts, near, index - counts.knownStart(near)!, index);
	const {top} = placement;
	const sums = counts.topSums();
	const topRows = sums[top.length]!;
	if (index >= topRows) return {top: top.length, topTail: index - topRows, frame: undefined};
	const k = lastAtMost(sums, top.length, index);
	const entry = top[k]!;
	if (!(entry instanceof PaneNode)) return {top: k, topTail: 0, frame: undefined};
	return walkDown(counts, entry, index - sums[k]!, index);
}

/** The pane the last walk ended in, or one a few above it, whose rows hold row `index`; else undefined. */
function nearPane(counts: FoldCounts, index: number): PaneNode | undefined {
	let node = counts.lastSought;
	for (let climbed = 0; node && climbed < nearClimb; climbed++) {
		const start = counts.knownStart(node);
		if (start === undefined || start === -1) return undefined;
		if (start <= index && index < start + node.count) return node;
		node = node.parent;
	}

	return undefined;
}

/** The walk down from `node`, whose header is row `index - offset`, to row `index`. */
function walkDown(counts: FoldCounts, from: PaneNode, fromOffset: number, index: number): Cursor {
	let node = from;
	let offset = fromOffset;
	for (;;) {
		counts.noteStart(node, index - offset);
		counts.lastSought = node;
		if (offset === 0) return {top: 0, topTail: 0, frame: {node, headerDone: false, act: 0, child: 0, tail: 0}};
		offset -= 1;
		const items = counts.itemsOf(node);
		if (offset >= items) return {top: 0, topTail: 0, frame: {node, headerDone: true, act: node.acts.length, child: node.children.length, tail: offset - items}};
		// The last child that starts at or before the offset: children start at their place among the
		// activities plus the rows of the children before them.
		let low = 0;
		let high = node.children.length - 1;
		let found = -1;
		while (low <= high) {
			const middle = (low + high) >>> 1;
			if (node.childAfter[middle]! + counts.childOffset(node, middle) <= offset) {
				found = middle;
				low = middle + 1;
			} else high = middle - 1;
		}

		if (found !== -1) {
			const child = node.children[found]!;
			const childStart = node.childAfter[found]! + counts.childOffset(node, found);
			if (offset < childStart + child.count) {
				node = child;
				offset -= childStart;
				continue;
			}
		}

		return {top: 0, topTail: 0, frame: {node, headerDone: true, act: offset - counts.childOffset(node, found + 1), child: found + 1, tail: 0}};
	}
}

/**
 * The next row, moving the cursor past it. Only the innermost pane's place is kept: where its parent goes
 * on is known from the pane's own slot, so a cursor deep in a chain holds one frame, not 100,000.
 */
function next({placement, counts}: FoldedTree, cursor: Cursor): Row | undefined {
	for (;;) {
		const {frame} = cursor;
		if (!frame) {
			const entry = placement.top[cursor.top];
			if (entry === undefined) return placement.topTail[cursor.topTail++];
			cursor.top++;
			if (!(entry instanceof PaneNode)) return entry.kind === 'job' ? {...entry, collapsed: counts.jobFolded(entry.jobId)} : entry;
			if (counts.hiddenByJob(entry)) continue;
			cursor.frame = {node: entry, headerDone: false, act: 0, child: 0, tail: 0};
			continue;
		}

		const {node} = frame;
		if (!frame.headerDone) {
			frame.headerDone = true;
			if (node.collapsed) leave(cursor, node);
			return header(node);
		}

		if (frame.child < node.children.length && node.childAfter[frame.child]! <= frame.act) {
			const child = node.children[frame.child++]!;
			cursor.frame = {node: child, headerDone: false, act: 0, child: 0, tail: 0};
			continue;
		}

		if (frame.act < node.acts.length) return activityRow(placement, node, node.acts[frame.act++]!);
		if (frame.tail < node.tail.length) return node.tail[frame.tail++];
		leave(cursor, node);
	}
}

/** The cursor goes on after a pane: in its parent, after its slot, or at the top after it. */
function leave(cursor: Cursor, node: PaneNode): void {
	const {parent, slot} = node;
	if (parent) cursor.frame = {node: parent, headerDone: true, act: parent.childAfter[slot]!, child: slot + 1, tail: 0};
	else {
		cursor.frame = undefined;
		cursor.top = slot + 1;
	}
}

function header(node: PaneNode): Row {
	const {paneId} = node.pane;
	return {kind: 'pane', key: paneKey(paneId), paneId, depth: node.shownDepth, collapsed: node.collapsed, orphan: node.orphan, cycle: node.cycle};
}

function activityRow(placement: Placement, node: PaneNode, index: number): Row {
	const activity = placement.model.activities[index]!;
	return {kind: 'activity', key: activityKey(activity.id), index, depth: node.shownDepth, paneId: node.pane.paneId};
}

/** The last k < `count` with `sums[k] <= value` (sums ascending from 0). */
function lastAtMost(sums: Int32Array, count: number, value: number): number {
	let low = 0;
	let high = count - 1;
	let found = 0;
	while (low <= high) {
		const middle = (low + high) >>> 1;
		if (sums[middle]! <= value) {
			found = middle;
			low = middle + 1;
		} else high = middle - 1;
	}

	return found;
}
