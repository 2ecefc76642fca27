import {isLive, shownStatus} from '../../query/tree.js';
import type {PaneNode} from './pane-node.js';
import {lastRun} from './row-tail.js';
import {activityKey, isSelectableRow} from './row-types.js';
import {rowsBetween, type FoldedTree} from './seek.js';

/*
 * The position of a row by its key, walking up from its pane: the depth of the tree, not its size. And the row
 * follow mode selects, found from the newest activities.
 */

/**
 * Following looks for a running pane's newest activity among this many of the newest activities, and in at most
 * this many panes, before it settles for the last row: a frame must not read the whole log.
 */
const followScan = 4096;
const followPanes = 64;

/** Position of the row with this key, or -1 when it is not shown (folded away, filtered out, unknown). */
export function positionOfKey(tree: FoldedTree, key: string | undefined): number {
	if (key === undefined) return -1;
	const {placement, counts} = tree;
	const {model} = placement;
	const kind = key.slice(0, 2);
	const rest = key.slice(2);
	switch (kind) {
		case 'p:': {
			const node = placement.nodeOf(rest);
			return node ? shownStart(tree, node) : -1;
		}

		case 'a:': {
			const index = model.activityIndexById.get(rest);
			const activity = index === undefined ? undefined : model.activities[index];
			const paneId = activity ? model.runs.get(activity.runId)?.paneId : undefined;
			const node = paneId === undefined ? undefined : placement.nodeOf(paneId);
			if (index === undefined || !node || node.collapsed) return -1;
			const position = actPosition(node, index);
			if (position === -1) return -1;
			const head = shownStart(tree, node);
			if (head === -1) return -1;
			const before = childrenBefore(node, position);
			return head + 1 + position + counts.childOffset(node, before);
		}

		case 'j:': {
			const slot = placement.topSlotOfJob.get(rest);
			return slot === undefined ? -1 : counts.topSums()[slot]!;
		}

		case 'f:': {
			const at = placement.topTail.findIndex(row => row.key === key);
			return at === -1 ? -1 : counts.topSums()[placement.top.length]! + at;
		}

		case 'l:':
		case 'n:': {
			// The pane id sits between the kind and the last part (`n:<paneId>:q`, `l:<paneId>:<channel>:<n>`).
			for (const node of tailOwners(tree, rest)) {
				const at = node.tail.findIndex(row => row.key === key);
				if (at === -1) continue;
				const head = node.collapsed ? -1 : shownStart(tree, node);
				return head === -1 ? -1 : head + 1 + counts.itemsOf(node) + at;
			}

			return -1;
		}

		default:
			return -1;
	}
}

/**
 * The row follow mode selects: the newest activity of a pane still running, wherever it is in the tree (with
 * two delegates at work, the one that acted last, though the other's pane comes below it), else the last row
 * that can be selected. Only the newest activities are looked at, and each pane once, so that a frame costs
 * the same on a long log; a running pane folded by hand, or filtered out, is passed over.
 */
export function followedPosition(tree: FoldedTree): number {
	const {model} = tree.placement;
	// Once the input has ended nothing runs any more (what still stands as running ended without a final event).
	if (model.inputEnd === undefined) {
		const {activities} = model;
		const looked = new Set<string>();
		const stop = Math.max(0, activities.length - followScan);
		for (let index = activities.length - 1; index >= stop && looked.size < followPanes; index--) {
			const activity = activities[index];
			const paneId = activity ? model.runs.get(activity.runId)?.paneId : undefined;
			if (!activity || paneId === undefined || looked.has(paneId)) continue;
			looked.add(paneId);
			const pane = model.panes.get(paneId);
			const last = pane ? lastRun(model, pane) : undefined;
			if (!last || !isLive(shownStatus(last))) continue;
			const at = positionOfKey(tree, activityKey(activity.id));
			if (at !== -1) return at;
		}
	}

	const {length} = tree.counts;
	for (let i = length - 1; i >= 0; i--) if (isSelectableRow(rowsBetween(tree, i, i + 1)[0]!)) return i;
	return length - 1;
}

/** The panes a tail row's key could name: every prefix of it that is a pane id, as ids may hold colons. */
function* tailOwners({placement}: FoldedTree, rest: string): Generator<PaneNode> {
	for (let at = rest.indexOf(':'); at !== -1; at = rest.indexOf(':', at + 1)) {
		const node = placement.nodeOf(rest.slice(0, at));
		if (node) yield node;
	}
}

/**
 * Position of a pane's header, or -1 when it is not on screen (a pane above it folded, or its job): a walk up to
 * the nearest pane whose place is known under these folds (or to the top), then back down noting each pane's,
 * so that the next walk from anywhere below stops there (a chain 100,000 deep took a walk of 100,000 panes
 * each time a frame asked).
 */
function shownStart({counts}: FoldedTree, node: PaneNode): number {
	const path: PaneNode[] = [];
	let at = node;
	let start = counts.knownStart(at);
	while (start === undefined) {
		const {parent} = at;
		if (!parent) {
			start = counts.hiddenByJob(at) ? -1 : counts.topSums()[at.slot]!;
			counts.noteStart(at, start);
			break;
		}

		path.push(at);
		at = parent;
		start = counts.knownStart(at);
	}

	for (let k = path.length - 1; k >= 0; k--) {
		const child = path[k]!;
		const parent = child.parent!;
		start = start === -1 || parent.collapsed ? -1 : start + 1 + parent.childAfter[child.slot]! + counts.childOffset(parent, child.slot);
		counts.noteStart(child, start);
	}

	// The screen's window is asked next, around the selection whose place this was: its walk starts here.
	if (start !== -1) counts.lastSought = node;
	return start;
}

/** Where an activity index sits among a pane's activities, or -1. */
function actPosition(node: PaneNode, index: number): number {
	const {acts} = node;
	if (node.actsAscending) {
		let low = 0;
		let high = acts.length - 1;
		while (low <= high) {
			const middle = (low + high) >>> 1;
			const value = acts[middle]!;
			if (value === index) return middle;
			if (value < index) low = middle + 1;
			else high = middle - 1;
		}

		return -1;
	}

	if (!node.actPosition) {
		node.actPosition = new Map();
		for (const [position, act] of acts.entries()) node.actPosition.set(act, position);
	}

	return node.actPosition.get(index) ?? -1;
}

/** How many of a pane's children come before its activity at `position`. */
function childrenBefore(node: PaneNode, position: number): number {
	let low = 0;
	let high = node.childAfter.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (node.childAfter[middle]! <= position) low = middle + 1;
		else high = middle;
	}

	return low;
}
