import type {Job} from '../../model/state.js';
import {filterMatches, filterText, showsErrorsOnly, type Filter} from '../../query/filter.js';
import {shownStart} from '../line-window.js';
import {PaneNode} from './pane-node.js';
import {stepSize} from './pane-lists.js';
import {carryEntries, isAscending, placeChildren, type CutMark, type Placement} from './placement.js';
import {tailRows} from './row-tail.js';

/*
 * A filtered placement is cut from the unfiltered one of the same model revision, which has already found every
 * pane's place: which panes hold a match (their own activities, then up the unfiltered tree), then those panes
 * copied in the same places with the activities the filter shows. Arrays by node number instead of lookups by
 * run id: the lookups were most of a filter's Enter.
 */

/** Activities or nodes read between two pauses of the cut: a read is cheaper than placing a pane. */
const activityStep = 16_384;
/** A filter named in a note is cut to this many columns: wider than any screen, and a pasted filter is not drawn whole every frame. */
const noteColumns = 1024;

/**
 * Cuts `placement` (filtered, its `base` placed) from its base, pausing every few thousand panes. `earlier`: a cut
 * of the same model object and filter at an earlier revision (changed in place since), whose leading jobs are
 * carried over where they would be cut the same (`keptJobs`).
 */
export function* cutSteps(placement: Placement, filter: Filter, earlier?: Placement): Generator<void, void> {
	const {model, base} = placement;
	if (!base) throw new Error('a filtered placement is cut from an unfiltered one');
	const {shown} = filterMatches(model, filter);
	const nodes = base.order;
	// Which panes show a match, and how many of their activities, from the activities in order: arrays
	// read in order, where asking each pane for its activities reads objects all over the heap.
	const hits = new Uint8Array(nodes.length);
	const shownActs = new Int32Array(nodes.length);
	const {nodeOfActivity} = base;
	if (nodeOfActivity) {
		const end = Math.min(shown.length, nodeOfActivity.length);
		for (let index = 0; index < end; index++) {
			if (index % activityStep === activityStep - 1) yield;
			if (shown[index] !== 1) continue;
			const no = nodeOfActivity[index]! - 1;
			if (no === -1) continue;
			hits[no] = 1;
			shownActs[no] = shownActs[no]! + 1;
		}
	}

	// Children come after their parent in `order`: walking it backwards marks a parent after all its children.
	const {parentNo} = base;
	let shownCount = 0;
	for (let no = nodes.length - 1; no >= 0; no--) {
		if (no % activityStep === 0) yield;
		if (hits[no] !== 1) continue;
		shownCount++;
		const parent = parentNo[no]!;
		if (parent !== -1) hits[parent] = 1;
	}

	placement.fromBase = new Array<PaneNode | undefined>(nodes.length).fill(undefined);
	const cut: Cut = {placement, base, hits, shown, shownActs};
	const showJobs = model.jobs.size > 1;
	placement.showJobs = showJobs;
	const jobs = [...model.jobs.values()];
	const marks: CutMark[] = [];
	const kept = earlier ? yield* keptJobs(placement, earlier, shown) : 0;
	if (kept > 0) {
		const last = earlier!.cutMarks!.jobs[kept - 1]!;
		yield* carryEntries(placement, earlier!, last);
		// The base's nodes of those jobs are numbered as in the base the earlier cut was cut from (placement.ts).
		const {fromBase} = earlier!;
		const baseEnd = Math.min(base.jobMarks![kept - 1]!.orderEnd, fromBase.length);
		for (let no = 0; no < baseEnd; no++) {
			const node = fromBase[no];
			if (node && node.no < last.orderEnd) placement.fromBase[no] = placement.order[node.no];
		}

		marks.push(...earlier!.cutMarks!.jobs.slice(0, kept));
	}

	for (let at = kept; at < jobs.length; at++) {
		const job = jobs[at]!;
		yield* cutJob(cut, job, showJobs);
		marks.push({jobId: job.jobId, topEnd: placement.top.length, orderEnd: placement.order.length});
	}

	if (model.panes.size > 0) addFilteredNote(placement, filter, shownCount);
	// Marked only where the base was marked: a model changed in place (placement.ts).
	if (base.jobMarks) placement.cutMarks = {shown, jobs: marks};
}

/** A job's panes that hold a match, copied from the base in their places, under its job row when jobs are shown. */
function* cutJob(cut: Cut, job: Job, showJobs: boolean): Generator<void, void> {
	const {placement, base, hits} = cut;
	if (job.runIds.length === 0) return;
	const roots: PaneNode[] = [];
	for (const {pane} of placement.lists.rootPanesOf(job)) {
		const node = base.byPane.get(pane.paneId);
		if (node && hits[node.no] === 1) roots.push(node);
	}

	if (roots.length === 0) return;
	if (showJobs) placement.addJobRow(job.jobId);
	const first = placement.top.length;
	for (const root of roots) if (placement.fromBase[root.no] === undefined) yield* copyTree(cut, root);
	if (showJobs) placement.markJob(job.jobId, first);
}

/**
 * How many leading jobs an earlier cut of the same model, filter and width placed as this cut would: those its
 * base placed as this one's does, and whose activities the filter matches as it did then. A live stream read on
 * the viewer's thread changes the model a frame at a time, mostly in its last job, and with a filter on, cutting
 * every job again each frame was most of a frame late in a day's stream (the soak of #33), and a filter's Enter
 * cut them twice: once ahead, once for the revision after.
 */
function* keptJobs(placement: Placement, earlier: Placement, shown: Uint8Array): Generator<void, number> {
	const {model, base} = placement;
	const marks = earlier.cutMarks;
	const earlierMarks = earlier.base?.jobMarks;
	if (!base?.jobMarks || !base.nodeOfActivity || !marks || !earlierMarks || earlier.model !== model) return 0;
	if (earlier.width !== placement.width || earlier.showJobs !== placement.showJobs) return 0;
	// The leading jobs both bases placed alike: carried over with their marks (placement.ts).
	const limit = Math.min(base.jobMarks.length, earlierMarks.length, marks.jobs.length);
	let kept = 0;
	while (kept < limit && base.jobMarks[kept] === earlierMarks[kept]) kept++;
	if (kept === 0) return 0;
	// The first node of those jobs whose activities the filter matches otherwise now (a call's result, a text).
	const baseEnd = base.jobMarks[kept - 1]!.orderEnd;
	const {nodeOfActivity} = base;
	const before = marks.shown;
	let changedAt = baseEnd;
	for (let index = 0; index < nodeOfActivity.length; index++) {
		if (index % activityStep === activityStep - 1) yield;
		const no = nodeOfActivity[index]! - 1;
		if (no === -1 || no >= changedAt) continue;
		if (index >= before.length || shown[index] !== before[index]) changedAt = no;
	}

	while (kept > 0 && base.jobMarks[kept - 1]!.orderEnd > changedAt) kept--;
	return kept;
}

/** What a cut reads: the unfiltered placement, and by its node numbers, which panes hold a match and how many of their activities. */
type Cut = {placement: Placement; base: Placement; hits: Uint8Array; shown: Uint8Array; shownActs: Int32Array};

/** An unfiltered pane and the panes under it that hold matches, as the filter shows them, depth first. */
function* copyTree(cut: Cut, root: PaneNode): Generator<void, void> {
	const {placement, base, hits} = cut;
	// A pane's children are all made when it is, before their own children: a node comes after its parent
	// in `order`, which is all the folds need. Only panes with children of their own wait on the stack, so
	// 200,000 children of one pane are not each pushed and popped.
	const stack: Array<[from: PaneNode, node: PaneNode]> = [[root, copyNode(cut, root, undefined, 0)]];
	let paused = placement.order.length;
	while (stack.length > 0) {
		if (placement.order.length - paused >= stepSize) {
			paused = placement.order.length;
			yield;
		}

		const [from, node] = stack.pop()!;
		const made: Array<[from: PaneNode, node: PaneNode]> = [];
		const add = (child: PaneNode, after: number): void => {
			const copy = copyNode(cut, child, node, after);
			if (child.children.length > 0) made.push([child, copy]);
		};

		// Without a delegation among its activities, a pane's children all come after them, in the order
		// they started, as in the unfiltered layout.
		if (!from.delegates) {
			for (const child of from.children) if (hits[child.no] === 1) add(child, node.acts.length);
		} else {
			// A delegation the filter hides places none: the children are placed again among the shown activities.
			const children: PaneNode[] = [];
			for (const {pane} of placement.lists.childPanesOf(from.pane)) {
				const child = base.byPane.get(pane.paneId);
				if (child?.parent === from && hits[child.no] === 1) children.push(child);
			}

			for (const {child, after} of placeChildren(placement.model, node.acts, children, child => child.pane.paneId)) add(child, after);
		}

		for (let k = made.length - 1; k >= 0; k--) stack.push(made[k]!);
	}
}

/** One unfiltered pane as the filter shows it, placed under `parent` (at the top without one). */
function copyNode({placement, base, shown, shownActs}: Cut, from: PaneNode, parent: PaneNode | undefined, after: number): PaneNode {
	const all = shownActs[from.no] === from.acts.length;
	const list = all ? from.acts : from.acts.filter(index => shown[index] === 1);
	// A subsequence of an ascending list is ascending.
	const ascending = all || from.actsAscending || isAscending(list);
	// The tail does not depend on the filter: the unfiltered one is reused at the same width.
	const tail = placement.width === base.width ? from.tail : tailRows(placement.model, from.pane, from.shownDepth, placement.width, from.last);
	const slot = parent ? parent.children.length : placement.top.length;
	const node = new PaneNode(from.facts, list, ascending, tail, parent, slot, placement.order.length);
	if (parent) parent.addChild(node, after);
	else placement.top.push(node);
	placement.fromBase[from.no] = node;
	placement.order.push(node);
	return node;
}

/** Says what the filter left out: the count of hidden panes, or in words that nothing matches. */
function addFilteredNote(placement: Placement, filter: Filter, shownCount: number): void {
	const hidden = placement.model.panes.size - shownCount;
	if (shownCount === 0) {
		// Errors-only alone reads best as a fact about the run; anything else names the filter.
		const errorsOnly = showsErrorsOnly(filter) && filterText(filter) === 'errors';
		placement.topTail.push({
			kind: 'filtered',
			key: 'f:none',
			text: errorsOnly ? 'no errors' : `nothing matches ${shownStart(filterText(filter), noteColumns)}`,
			part: 'none',
		});
	}

	if (hidden > 0)
		placement.topTail.push({kind: 'filtered', key: 'f:hidden', text: `${hidden} ${hidden === 1 ? 'pane' : 'panes'} without matches hidden`, part: 'hidden'});
}
