import type {Job, Model, Pane, Run} from '../../model/state.js';
import {isLive, rootMarks, shownStatus} from '../../query/tree.js';
import {PaneFacts, PaneNode, type TopEntry} from './pane-node.js';
import {stepSize, type PaneLists} from './pane-lists.js';
import {lastRun, tailRows} from './row-tail.js';
import {jobKey, maxShownDepth, type Row} from './row-types.js';

/*
 * Where each shown pane sits, before any fold: the first part of a layout (row-layout.ts). An unfiltered
 * placement is worked out from the model here (`placeSteps`); a filtered one is cut from the unfiltered one of
 * the same revision (filter-cut.ts).
 */

/** The panes of one model revision, filter and width in their places: the nodes, and how to find them. */
export class Placement {
	readonly top: TopEntry[] = [];
	readonly topTail: Row[] = [];
	/** Panes in the order they are shown, each before its children. */
	readonly order: PaneNode[] = [];
	readonly topSlotOfJob = new Map<string, number>();
	/** Unfiltered: the panes' nodes by pane id; a filtered placement finds its own through `fromBase`. */
	readonly byPane = new Map<string, PaneNode>();
	/** Unfiltered: by activity index, 1 + the `no` of the pane showing it (0: none). */
	nodeOfActivity: Int32Array | undefined;
	/** Unfiltered: by `no`, the parent's `no` (-1: none). */
	readonly parentNo: number[] = [];
	/** Filtered: by the unfiltered node's `no`, this placement's node of that pane. */
	fromBase: Array<PaneNode | undefined> = [];
	/**
	 * Unfiltered, of a model changed in place: each job as it was placed, in the model's order of jobs, once every
	 * job is (`placeSteps`); what a later placement of the same model carries over (`carriedFrom`).
	 */
	jobMarks: JobMark[] | undefined;

	/** Whether job rows were shown when it was placed or cut (`carriedFrom`, filter-cut.ts). */
	showJobs = false;
	/**
	 * Filtered, of a model changed in place, once cut: the filter's matches it was cut with, and where each job's
	 * entries at the top and nodes in `order` end, in the model's order of jobs; what a later cut of the same model
	 * and filter carries over (filter-cut.ts).
	 */
	cutMarks: {shown: Uint8Array; jobs: CutMark[]} | undefined;

	constructor(
		readonly model: Model,
		readonly width: number,
		readonly lists: PaneLists,
		/** With a filter: the unfiltered placement it is cut from. */
		readonly base: Placement | undefined,
	) {}

	/** This placement's node of a pane. */
	nodeOf(paneId: string): PaneNode | undefined {
		if (!this.base) return this.byPane.get(paneId);
		const from = this.base.byPane.get(paneId);
		return from && this.fromBase[from.no];
	}

	/** A job's row at the top (a log of several jobs). */
	addJobRow(jobId: string): void {
		this.topSlotOfJob.set(jobId, this.top.length);
		this.top.push({kind: 'job', key: jobKey(jobId), jobId, collapsed: false});
	}

	/** The root panes from top slot `first` on belong to this job, whose fold hides them. */
	markJob(jobId: string, first: number): void {
		for (let slot = first; slot < this.top.length; slot++) {
			const entry = this.top[slot];
			if (entry instanceof PaneNode) entry.jobId = jobId;
		}
	}
}

/**
 * A job as a placement placed it: its stamp (`jobStamp`) then, and where its entries at the top and its nodes in
 * `order` end. A job carried over keeps its mark, the same object: two placements with the same mark for a job
 * placed it the same, its nodes numbered the same (filter-cut.ts relies on it).
 */
export type JobMark = CutMark & {stamp: JobStamp; runtimeName: string | undefined};

/** A job as a filtered placement cut it: where its entries at the top and its nodes in `order` end. */
export type CutMark = {jobId: string; topEnd: number; orderEnd: number};

/**
 * What a job's panes are placed from: each of its runs' `rev` and its panes' `rev` moves with every change to them
 * (the same the posts of a load in a worker rely on, load/viewer/change-tracker.ts), and only ever grows. The runs'
 * sum then grows with any change to a run, a new run included; with none, each run is in the same pane as before,
 * and the panes' sum grows with any change to them. The same stamp at two revisions: the job's panes place the same.
 */
type JobStamp = {runs: number; panes: number};

function jobStamp(model: Model, job: Job): JobStamp {
	let runs = job.runIds.length;
	let panes = 0;
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		runs += run.rev;
		panes += model.panes.get(run.paneId)?.rev ?? 0;
	}

	return {runs, panes};
}

/** Whether a job places as it did when marked: its runs and panes as they were, and the runtime its resume command names. */
function sameJob(mark: JobMark, job: Job, stamp: JobStamp): boolean {
	return mark.jobId === job.jobId && mark.stamp.runs === stamp.runs && mark.stamp.panes === stamp.panes && mark.runtimeName === job.runtimeName;
}

/**
 * The placement of the same model at an earlier revision whose jobs may be carried over: a live stream read on
 * this thread changes the model in place, a frame at a time, and mostly in its last job, while placing every pane
 * of every job again each frame was most of a frame's layout late in a day's stream (the soak of #33). Its nodes
 * are copied (`carryEntries`).
 */
function carriedFrom(placement: Placement, earlier: Placement | undefined, showJobs: boolean): Placement | undefined {
	const {model} = placement;
	// The input's end changes what a pane waiting on its delegates says: `endInput` moves those runs' `rev`.
	if (!earlier?.jobMarks || earlier.base || earlier.model !== model || earlier.width !== placement.width) return undefined;
	// A log of one job shows no job rows; its second job brings them to every job.
	return earlier.showJobs === showJobs ? earlier : undefined;
}

/** `run`: a run of the pane already looked up, which is its last when the pane has one run. */
type PaneTask = {pane: Pane; run: Run | undefined; depth: number; orphan: boolean; cycle: boolean; parent: PaneNode | undefined; after: number};

/**
 * Places every pane of an unfiltered placement, job by job, pausing every few thousand panes. `earlier`: a
 * placement of the same model object at an earlier revision (changed in place since), whose leading jobs that
 * have not changed are carried over rather than placed again.
 */
export function* placeSteps(placement: Placement, earlier?: Placement): Generator<void, void> {
	const {model, lists} = placement;
	const showJobs = model.jobs.size > 1;
	placement.showJobs = showJobs;
	// Jobs are marked only for a model seen changed in place: a load in a worker posts a new model each time.
	const jobs = [...model.jobs.values()];
	const stamps = earlier?.model === model ? jobs.map(job => jobStamp(model, job)) : undefined;
	const carried = carriedFrom(placement, earlier, showJobs);
	// The leading jobs that have not changed since `carried` placed them.
	let kept = 0;
	const earlierMarks = carried?.jobMarks ?? [];
	while (kept < jobs.length && kept < earlierMarks.length && sameJob(earlierMarks[kept]!, jobs[kept]!, stamps![kept]!)) kept++;
	const marks: JobMark[] | undefined = stamps && [];
	if (kept > 0) {
		const last = earlierMarks[kept - 1]!;
		placement.nodeOfActivity = carriedActivities(placement, carried!, last.orderEnd);
		yield* carryJobs(placement, carried!, last);
		marks?.push(...earlierMarks.slice(0, kept));
	}

	for (let at = kept; at < jobs.length; at++) {
		const job = jobs[at]!;
		if (job.runIds.length > 0) {
			if (showJobs) placement.addJobRow(job.jobId);
			const first = placement.top.length;
			const roots = yield* lists.rootPaneSteps(job);
			for (const {pane, run} of roots) yield* addTree(placement, {pane, run, depth: 0, ...rootMarks(model, pane), parent: undefined, after: 0});
			if (showJobs) placement.markJob(job.jobId, first);
		}

		marks?.push({jobId: job.jobId, stamp: stamps![at]!, runtimeName: job.runtimeName, topEnd: placement.top.length, orderEnd: placement.order.length});
	}

	yield* markLiveAncestors(placement);
	placement.jobMarks = marks;
}

/**
 * The entries at the top and the nodes of the leading jobs `earlier` placed, up to the end of `last`'s, where they
 * were: each node keeps its number and its slot.
 */
function* carryJobs(placement: Placement, earlier: Placement, last: JobMark): Generator<void, void> {
	yield* carryEntries(placement, earlier, last);
	for (let no = 0; no < last.orderEnd; no++) {
		const node = placement.order[no]!;
		placement.byPane.set(node.pane.paneId, node);
		placement.parentNo.push(node.parent ? node.parent.no : -1);
	}
}

/**
 * Copies of an earlier placement's entries at the top before `topEnd` and of its nodes before `orderEnd`, into an
 * empty placement, each where it was: the same number, slot and place under its parent. A node's parent comes
 * before it in `order`. Nodes are copied, not shared: the folds write into a layout's nodes, and the earlier
 * layout may still be drawn.
 */
export function* carryEntries(placement: Placement, earlier: Placement, {topEnd, orderEnd}: {topEnd: number; orderEnd: number}): Generator<void, void> {
	const {top, order} = placement;
	for (let slot = 0; slot < topEnd; slot++) {
		const entry = earlier.top[slot]!;
		// A root pane's node is put in its slot below, as it is copied.
		top.push(entry);
		if (!(entry instanceof PaneNode) && entry.kind === 'job') placement.topSlotOfJob.set(entry.jobId, slot);
	}

	for (let no = 0; no < orderEnd; no++) {
		if (no % stepSize === stepSize - 1) yield;
		const from = earlier.order[no]!;
		const parent = from.parent ? order[from.parent.no] : undefined;
		const node = new PaneNode(from.facts, from.acts, from.actsAscending, from.tail, parent, from.slot, no);
		node.jobId = from.jobId;
		node.actPosition = from.actPosition;
		if (parent) parent.addChild(node, from.parent!.childAfter[from.slot]!);
		else top[from.slot] = node;
		order.push(node);
	}
}

/**
 * The pane of each activity, as the earlier placement had it for the nodes it may carry over (numbers up to
 * `carriable`); the rest are set as their panes are placed.
 */
function carriedActivities(placement: Placement, earlier: Placement, carriable: number): Int32Array {
	const into = new Int32Array(placement.model.activities.length);
	const from = earlier.nodeOfActivity;
	if (!from) return into;
	const end = Math.min(into.length, from.length);
	for (let index = 0; index < end; index++) {
		const no = from[index]!;
		if (no <= carriable) into[index] = no;
	}

	return into;
}

/** Every pane above a live one holds live work: children come after their parent in `order`, so one pass backwards. */
function* markLiveAncestors({order}: Placement): Generator<void, void> {
	for (let i = order.length - 1; i >= 0; i--) {
		if (i % stepSize === 0) yield;
		const node = order[i]!;
		if (node.parent && node.holdsLive) node.parent.facts.liveBelow = true;
	}
}

/**
 * A pane and everything under it, depth first, with its own stack of tasks: delegations can nest deeper
 * than the call stack goes. Each pane is placed once (a malformed log can make a parent cycle), at the
 * first place the walk reaches it.
 */
function* addTree(placement: Placement, root: PaneTask): Generator<void, void> {
	const {model, lists, width} = placement;
	placement.nodeOfActivity ??= new Int32Array(model.activities.length);
	const {nodeOfActivity} = placement;
	const stack: PaneTask[] = [root];
	let work = 0;
	while (stack.length > 0) {
		if (++work % stepSize === 0) yield;
		const task = stack.pop()!;
		const {pane, depth, parent} = task;
		if (placement.byPane.has(pane.paneId)) continue;
		const content = lists.contents.of(pane);
		const slot = parent ? parent.children.length : placement.top.length;
		// The pane's last run is looked up once: with 200,000 panes, each lookup in the model's maps counts.
		const last = pane.runIds.length === 1 && task.run?.runId === pane.runIds[0] ? task.run : lastRun(model, pane);
		const live = last !== undefined && isLive(shownStatus(last));
		const facts = new PaneFacts(pane, depth, task.orphan, task.cycle, live, last);
		const node = new PaneNode(
			facts,
			content.list,
			content.ascending,
			tailRows(model, pane, Math.min(depth, maxShownDepth), width, last),
			parent,
			slot,
			placement.order.length,
		);
		if (parent) parent.addChild(node, task.after);
		else placement.top.push(node);
		placement.byPane.set(pane.paneId, node);
		placement.order.push(node);
		placement.parentNo.push(parent ? parent.no : -1);
		const {list} = content;
		for (let k = 0; k < list.length; k++) nodeOfActivity[list[k]!] = node.no + 1;

		if (pane.runIds.length === 1 && last?.childRunIds.length === 0) continue;
		const children = yield* lists.childPaneSteps(pane);
		if (children.length === 0) continue;
		facts.delegates = content.delegates;
		if (!facts.delegates) {
			// All after the activities, in the order they started: pushed as they are, with pauses, as one
			// run can have 200,000 children.
			for (let k = children.length - 1; k >= 0; k--) {
				if (k % stepSize === 0) yield;
				const child = children[k]!;
				stack.push({pane: child.pane, run: child.run, depth: depth + 1, orphan: false, cycle: false, parent: node, after: list.length});
			}

			continue;
		}

		const placed = lists.contents.placedAmong(content, children, () => placeChildren(model, list, children, child => child.pane.paneId, content.delegations));
		for (let k = placed.length - 1; k >= 0; k--) {
			const {child, after} = placed[k]!;
			stack.push({pane: child.pane, run: child.run, depth: depth + 1, orphan: false, cycle: false, parent: node, after});
		}
	}
}

/**
 * Where a pane's child panes go among its activities `acts`: right under the activity that delegated them, in
 * the order they started; the rest (and those whose delegation is not shown) after the activities, in the
 * order they started. `children` are in the order they started. `delegations`: where the delegations sit in
 * `acts`, when known (pane-contents.ts); only those places are looked at, as any other activity places none.
 */
export function placeChildren<Child>(
	model: Model,
	acts: readonly number[],
	children: readonly Child[],
	idOf: (child: Child) => string,
	delegations?: readonly number[],
): Array<{child: Child; after: number}> {
	const out: Array<{child: Child; after: number}> = [];
	// By pane id, made at the first delegation: one run can delegate to a hundred thousand, and each
	// delegation looks up its own; a run whose children came without a delegation needs none.
	let childOrder: Map<string, number> | undefined;
	const placed = new Set<string>();
	const places = delegations?.length ?? acts.length;
	for (let k = 0; k < places; k++) {
		const position = delegations ? delegations[k]! : k;
		const activity = model.activities[acts[position]!];
		if (activity?.type !== 'delegate' || activity.childRunIds.length === 0) continue;
		childOrder ??= new Map(children.map((child, at) => [idOf(child), at]));
		const mine: number[] = [];
		for (const childRunId of activity.childRunIds) {
			const at = childOrder.get(childRunId);
			if (at !== undefined && !placed.has(childRunId)) mine.push(at);
		}

		mine.sort((a, b) => a - b);
		for (const at of mine) {
			const child = children[at]!;
			const id = idOf(child);
			if (placed.has(id)) continue;
			placed.add(id);
			out.push({child, after: position + 1});
		}
	}

	for (const child of children) if (placed.size === 0 || !placed.has(idOf(child))) out.push({child, after: acts.length});
	return out;
}

export function isAscending(list: readonly number[]): boolean {
	for (let i = 1; i < list.length; i++) if (list[i]! <= list[i - 1]!) return false;
	return true;
}
