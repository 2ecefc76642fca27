import {emptyFilter, filterMatches, filterText, isEmptyFilter, showsErrorsOnly, type Filter} from '../query/filter.js';
import type {Job, Model, Pane, Run} from '../model/state.js';
import {isLive, rootMarks, shownStatus} from '../query/tree.js';
import {lastRun, paneHoldsLive, tailRows} from './row-tail.js';
import {activityKey, isSelectableRow, jobKey, maxShownDepth, paneKey, type Row} from './row-types.js';
import type {UiState} from './ui-state.js';
import {jobFoldCheck} from './job-folds.js';
import {shownStart} from './line-window.js';

/*
 * The tree as an index, not as a list of rows. A log can hold 200,000 panes or a million activities in one
 * pane, and flattening all of them into rows on every key made each key wait for the whole log. Instead:
 *
 * - the layout (which activities and child panes each pane shows, in order) is worked out once per model
 *   revision, filter and width, without making a row;
 * - the folds give each pane a count of the rows it takes, bottom up in one pass over the panes, and each
 *   pane with child panes the running sums of its children's counts when first asked after a fold;
 * - a row at a position, or the position of a key, is then found by walking down (or up) the tree, with a
 *   binary search among a pane's children: the depth of the tree, not its size;
 * - rows are made only for the window on screen.
 */

/** A filter named in a note is cut to this many columns: wider than any screen, and a pasted filter is not drawn whole every frame. */
const noteColumns = 1024;

/** Which row list a caller has: the index answers it without ever holding every row. */
export type RowList = {
	readonly length: number;
	at(index: number): Row | undefined;
	/** The rows from `from` up to (not including) `to`. */
	slice(from: number, to: number): Row[];
	/** Position of the row with this key, or -1 when it is not shown (folded away, filtered out, unknown). */
	indexOfKey(key: string | undefined): number;
	/** The row follow mode selects (`followedIndex`), or -1 when there are no rows. */
	followed(): number;
};

const noChildren: PaneNode[] = [];
const noPlaces: number[] = [];

/**
 * What a pane is, whatever the filter: shared by its node in the unfiltered layout and in every layout cut
 * from it, so that a filter showing 100,000 panes makes smaller nodes.
 */
class PaneFacts {
	/** An activity it shows delegated to child panes: its children may then sit among its activities. */
	delegates = false;
	/**
	 * A pane under it runs (set once the layout's panes are placed, `#markLiveAncestors`): a coordinator waiting
	 * for its delegates is not live itself, but folding it would hide the work that is running.
	 */
	liveBelow = false;

	constructor(
		readonly pane: Pane,
		readonly depth: number,
		readonly orphan: boolean,
		readonly cycle: boolean,
		readonly live: boolean,
		/** The pane's last run, as looked up when it was placed. */
		readonly last: Run | undefined,
	) {}
}

/** One shown pane and what it shows when open. */
class PaneNode {
	/** Fold-dependent, set by `applyFolds`. */
	collapsed = false;
	count = 1;
	/** `sums[k]`: rows taken by children before child k, as of `sumsStamp`. */
	sums: Int32Array | undefined;
	sumsStamp = -1;
	/** Child panes, in order, and how many of `acts` come before each; most panes have none, and share these. */
	children: PaneNode[] = noChildren;
	childAfter: number[] = noPlaces;
	/** Where an activity index sits in `acts`, when `acts` is not ascending (made when first asked). */
	actPosition: Map<number, number> | undefined;
	/** For a root pane under a job row: its job, whose fold hides it. */
	jobId: string | undefined;

	constructor(
		readonly facts: PaneFacts,
		/** Activity indices shown, in order. */
		readonly acts: readonly number[],
		readonly actsAscending: boolean,
		readonly tail: readonly Row[],
		readonly parent: PaneNode | undefined,
		/** Position among the parent's children, or among the top entries for a root. */
		readonly slot: number,
		/** Position in its layout's `order`. */
		readonly no: number,
	) {}

	get pane(): Pane {
		return this.facts.pane;
	}

	get depth(): number {
		return this.facts.depth;
	}

	get orphan(): boolean {
		return this.facts.orphan;
	}

	get cycle(): boolean {
		return this.facts.cycle;
	}

	get live(): boolean {
		return this.facts.live;
	}

	/** Whether it runs or a pane under it does: what the default fold keeps open. */
	get holdsLive(): boolean {
		return this.facts.live || this.facts.liveBelow;
	}

	get last(): Run | undefined {
		return this.facts.last;
	}

	get delegates(): boolean {
		return this.facts.delegates;
	}

	addChild(child: PaneNode, after: number): void {
		if (this.children === noChildren) {
			this.children = [];
			this.childAfter = [];
		}

		this.children.push(child);
		this.childAfter.push(after);
	}

	get shownDepth(): number {
		return Math.min(this.depth, maxShownDepth);
	}
}

type TopEntry = Extract<Row, {kind: 'job' | 'filtered'}> | PaneNode;

type Folds = Pick<UiState, 'collapsed' | 'filterFolds' | 'jobFolds' | 'defaultCollapse' | 'filter'>;

/**
 * The panes that hold an activity the filter matches, or have a descendant pane that does: the panes a
 * filtered tree shows. One pass over the activities, then up each new pane's ancestors until one already
 * known: linear in the log, whatever its depth.
 */
export function panesWithMatches(model: Model, filter: Filter): Set<string> {
	const holding = new Set<string>();
	const {shown} = filterMatches(model, filter);
	const {activities} = model;
	// Activities of one run often come together: its pane, once found, is not looked up again.
	let lastRunId: string | undefined;
	let lastPaneId: string | undefined;
	for (let index = 0; index < activities.length; index++) {
		if (shown[index] !== 1) continue;
		const activity = activities[index]!;
		if (activity.runId !== lastRunId) {
			lastRunId = activity.runId;
			lastPaneId = model.runs.get(activity.runId)?.paneId;
		}

		let paneId = lastPaneId;
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

export function isPaneCollapsed(model: Model, ui: Folds, pane: Pane, depth: number): boolean {
	return foldOf(ui, pane.paneId, depth, () => paneHoldsLive(model, pane));
}

/** The fold every pane has under these folds when it is the same for all (`E`, `e`, none folded by hand), else undefined. */
function uniformFold(ui: Folds): boolean | undefined {
	if (!isEmptyFilter(ui.filter)) return ui.filterFolds.folds.size === 0 ? ui.filterFolds.all : undefined;
	if (ui.collapsed.size > 0) return undefined;
	if (ui.defaultCollapse === 'expanded') return false;
	if (ui.defaultCollapse === 'collapsed') return true;
	return undefined;
}

/** `live`: whether the pane or a pane under it runs, or how to find out (asked only when needed). */
function foldOf(ui: Folds, paneId: string, depth: number, live: boolean | (() => boolean)): boolean {
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

/** A child pane, with the child run it was found by (its last run too when it has one run: no second lookup). */
type ChildPane = {pane: Pane; run: Run};

/**
 * The panes under each pane and the root panes of each job, per model revision: a filtered layout and the
 * unfiltered one list the same (the filter then leaves some out), and finding the 200,000 children of one
 * run is two lookups each in the model's largest maps. Kept only for panes with children.
 */
/** By the activities array, as the layouts are (tui/rows.ts): a shallow copy of the model shares them. */
const listed = new WeakMap<Model['activities'], {rev: number; children: Map<string, ChildPane[]>; roots: Map<string, ChildPane[]>}>();

function listsOf(model: Model): {children: Map<string, ChildPane[]>; roots: Map<string, ChildPane[]>} {
	let known = listed.get(model.activities);
	if (!known || known.rev !== model.rev) {
		known = {rev: model.rev, children: new Map(), roots: new Map()};
		listed.set(model.activities, known);
	}

	return known;
}

function childPanesOf(model: Model, pane: Pane): ChildPane[] {
	return drain(childPaneSteps(model, pane));
}

function* childPaneSteps(model: Model, pane: Pane): Generator<void, ChildPane[]> {
	const {children} = listsOf(model);
	let found = children.get(pane.paneId);
	if (!found) {
		found = yield* findChildPanes(model, pane);
		if (found.length > 0) children.set(pane.paneId, found);
	}

	return found;
}

function* rootPaneSteps(model: Model, job: Job): Generator<void, ChildPane[]> {
	const {roots} = listsOf(model);
	let found = roots.get(job.jobId);
	if (!found) {
		found = yield* findRootPanes(model, job);
		roots.set(job.jobId, found);
	}

	return found;
}

function rootPanesOf(model: Model, job: Job): ChildPane[] {
	return drain(rootPaneSteps(model, job));
}

/** Runs steps to their end at once. */
function drain<T>(steps: Generator<void, T>): T {
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
	}
}

/** Runs or panes dealt with between two pauses of a layout made in slices (`RowLayout.work`). */
const stepSize = 1024;
/** Activities or nodes read between two pauses of the cut of a filtered layout: a read is cheaper than placing a pane. */
const activityStep = 16_384;

/** Child panes of a pane in the order their runs started, without the shown ones' filter. */
function* findChildPanes(model: Model, pane: Pane): Generator<void, ChildPane[]> {
	const out: ChildPane[] = [];
	// A pane is listed once. One run lists each child run once, and a child run that starts its pane is the
	// only run of that pane so far: only a pane of several runs (which may list a child twice) or a listed run
	// that does not start its pane (a resumed one) needs the set; 200,000 children of one run do not.
	let seen = pane.runIds.length > 1 ? new Set<string>() : undefined;
	let work = 0;
	for (const runId of pane.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		for (const childId of run.childRunIds) {
			if (++work % stepSize === 0) yield;
			const child = model.runs.get(childId);
			if (!child || child.paneId === pane.paneId) continue;
			if (!seen && child.paneId !== childId) seen = new Set(out.map(known => known.pane.paneId));
			if (seen?.has(child.paneId)) continue;
			const childPane = model.panes.get(child.paneId);
			if (!childPane) continue;
			out.push({pane: childPane, run: child});
			seen?.add(child.paneId);
		}
	}

	return out;
}

/**
 * Root panes of a job in the order their runs started, as `rootPanes` (query/tree.ts) finds them, with as few
 * lookups per run as can be: a job can hold 200,000 runs.
 */
function* findRootPanes(model: Model, job: Job): Generator<void, ChildPane[]> {
	const out: ChildPane[] = [];
	const seen = new Set<string>();
	let work = 0;
	for (const runId of job.runIds) {
		if (++work % stepSize === 0) yield;
		const run = model.runs.get(runId);
		if (!run) continue;
		const first = run.paneId === run.runId ? run : model.runs.get(run.paneId);
		const root = !first || first.parentRunId === null || first.closesCycle || !model.runs.has(first.parentRunId);
		// Most runs are not roots: the set is asked only about those that are.
		if (!root || seen.has(run.paneId)) continue;
		const pane = model.panes.get(run.paneId);
		if (!pane) continue;
		seen.add(pane.paneId);
		out.push({pane, run});
	}

	return out;
}

/** `run`: a run of the pane already looked up, which is its last when the pane has one run. */
type PaneTask = {pane: Pane; run: Run | undefined; depth: number; orphan: boolean; cycle: boolean; parent: PaneNode | undefined; after: number};

/**
 * The layout of the tree for one model revision, filter and width: which rows each pane shows when open.
 * Folds are applied on top (`applyFolds`) without working the layout out again. A filtered layout is cut
 * from the unfiltered one of the same revision (`base`), which has already found every pane's place.
 */
export class RowLayout {
	readonly top: TopEntry[] = [];
	readonly topTail: Row[] = [];
	/** Panes in the order they are shown, each before its children. */
	readonly order: PaneNode[] = [];
	readonly topSlotOfJob = new Map<string, number>();
	/** The unfiltered layout's panes by id; a filtered layout finds its own through `#fromBase`. */
	readonly #byPane = new Map<string, PaneNode>();
	/** For a filtered layout: the unfiltered one, and by its node's `no`, this layout's node of that pane. */
	readonly #base: RowLayout | undefined;
	#fromBase: Array<PaneNode | undefined> = [];
	/** What is left to do of making the layout. */
	#steps: Generator<void, void> | undefined;
	/** For an unfiltered layout: by activity index, 1 + the `no` of the pane showing it (0: none); by `no`, the parent's (-1: none). */
	#nodeOfActivity: Int32Array | undefined;
	readonly #parentNo: number[] = [];
	/** The jobs folded to their row, for the current folds. */
	readonly #foldedJobs = new Set<string>();
	#foldsOf: Folds | undefined;
	/** With every pane open, the rows of each pane by its place in `order` (`#openCountsNow`). */
	#openCounts: Int32Array | undefined;
	#stamp = 0;
	#topSums: Int32Array | undefined;
	#topSumsStamp = -1;
	#length = 0;

	constructor(
		readonly model: Model,
		readonly rev: number,
		readonly filter: Filter,
		readonly width: number,
		/** With a filter: the unfiltered layout of this model revision, at any width (made here when missing). */
		base?: RowLayout,
		/** Made in slices by `work` rather than at once; asking it for rows finishes it first. */
		inSlices = false,
	) {
		this.#base = isEmptyFilter(filter) ? undefined : base?.model === model && base.rev === rev && isEmptyFilter(base.filter) ? base : new RowLayout(model, rev, emptyFilter, width, undefined, inSlices);
		this.#steps = this.#layOutSteps();
		if (!inSlices) this.#finish();
	}

	/** Goes on making the layout until it is made (true) or the clock passes `deadline` (`performance.now()`). */
	work(deadline: number): boolean {
		while (this.#steps) {
			if (this.#steps.next().done) this.#steps = undefined;
			else if (performance.now() >= deadline) return false;
		}

		return true;
	}

	#finish(): void {
		if (this.#steps) drain(this.#steps);
		this.#steps = undefined;
	}

	*#layOutSteps(): Generator<void, void> {
		if (this.#base) {
			// The unfiltered layout first, in its own slices, then the cut from it, pausing every few thousand panes.
			while (!this.#base.work(0)) yield;
			yield* this.#narrow(this.#base);
		} else {
			yield* this.#placeSteps();
		}

		yield* this.#openCountSteps();
	}

	/** For a filtered layout, the unfiltered one it was cut from. */
	get base(): RowLayout | undefined {
		return this.#base;
	}

	*#placeSteps(): Generator<void, void> {
		const {model} = this;
		const showJobs = model.jobs.size > 1;
		for (const job of model.jobs.values()) {
			if (job.runIds.length === 0) continue;
			if (showJobs) {
				this.topSlotOfJob.set(job.jobId, this.top.length);
				this.top.push({kind: 'job', key: jobKey(job.jobId), jobId: job.jobId, collapsed: false});
			}

			const first = this.top.length;
			const roots = yield* rootPaneSteps(model, job);
			for (const {pane, run} of roots) yield* this.#addTree({pane, run, depth: 0, ...rootMarks(model, pane), parent: undefined, after: 0});
			if (showJobs) this.#markJob(job.jobId, first);
		}

		yield* this.#markLiveAncestors();
	}

	/** Every pane above a live one holds live work: children come after their parent in `order`, so one pass backwards. */
	*#markLiveAncestors(): Generator<void, void> {
		const {order} = this;
		for (let i = order.length - 1; i >= 0; i--) {
			if (i % stepSize === 0) yield;
			const node = order[i]!;
			if (node.parent && node.holdsLive) node.parent.facts.liveBelow = true;
		}
	}

	/** The root panes from top slot `first` on belong to this job, whose fold hides them. */
	#markJob(jobId: string, first: number): void {
		for (let slot = first; slot < this.top.length; slot++) {
			const entry = this.top[slot];
			if (entry instanceof PaneNode) entry.jobId = jobId;
		}
	}

	/**
	 * The filtered layout from the unfiltered one: which panes hold a match (their own activities, then up
	 * the unfiltered tree), then those panes copied in the same places with the activities the filter shows.
	 * Arrays by node number instead of lookups by run id: the lookups were most of a filter's Enter.
	 */
	*#narrow(base: RowLayout): Generator<void, void> {
		const {model} = this;
		const {shown} = filterMatches(model, this.filter);
		const nodes = base.order;
		// Which panes show a match, and how many of their activities, from the activities in order: arrays
		// read in order, where asking each pane for its activities reads objects all over the heap.
		const hits = new Uint8Array(nodes.length);
		const shownActs = new Int32Array(nodes.length);
		const nodeOfActivity = base.#nodeOfActivity;
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
		const parentNo = base.#parentNo;
		let shownCount = 0;
		for (let no = nodes.length - 1; no >= 0; no--) {
			if (no % activityStep === 0) yield;
			if (hits[no] !== 1) continue;
			shownCount++;
			const parent = parentNo[no]!;
			if (parent !== -1) hits[parent] = 1;
		}

		this.#fromBase = new Array<PaneNode | undefined>(nodes.length).fill(undefined);
		const showJobs = model.jobs.size > 1;
		for (const job of model.jobs.values()) {
			if (job.runIds.length === 0) continue;
			const roots: PaneNode[] = [];
			for (const {pane} of rootPanesOf(model, job)) {
				const node = base.#byPane.get(pane.paneId);
				if (node && hits[node.no] === 1) roots.push(node);
			}

			if (roots.length === 0) continue;
			if (showJobs) {
				this.topSlotOfJob.set(job.jobId, this.top.length);
				this.top.push({kind: 'job', key: jobKey(job.jobId), jobId: job.jobId, collapsed: false});
			}

			const first = this.top.length;
			for (const root of roots) if (this.#fromBase[root.no] === undefined) yield* this.#copyTree(base, root, hits, shown, shownActs);
			if (showJobs) this.#markJob(job.jobId, first);
		}

		if (model.panes.size > 0) this.#addFilteredNote(shownCount);
	}

	/** An unfiltered pane and the panes under it that hold matches, as the filter shows them, depth first. */
	*#copyTree(base: RowLayout, root: PaneNode, hits: Uint8Array, shown: Uint8Array, shownActs: Int32Array): Generator<void, void> {
		// A pane's children are all made when it is, before their own children: a node comes after its parent
		// in `order`, which is all the folds need. Only panes with children of their own wait on the stack, so
		// 200,000 children of one pane are not each pushed and popped.
		const stack: Array<[from: PaneNode, node: PaneNode]> = [[root, this.#copyNode(base, root, undefined, 0, shown, shownActs)]];
		let paused = this.order.length;
		while (stack.length > 0) {
			if (this.order.length - paused >= stepSize) {
				paused = this.order.length;
				yield;
			}

			const [from, node] = stack.pop()!;
			const made: Array<[from: PaneNode, node: PaneNode]> = [];
			const add = (child: PaneNode, after: number): void => {
				const copy = this.#copyNode(base, child, node, after, shown, shownActs);
				if (child.children.length > 0) made.push([child, copy]);
			};

			// Without a delegation among its activities, a pane's children all come after them, in the order
			// they started, as in the unfiltered layout.
			if (!from.delegates) {
				for (const child of from.children) if (hits[child.no] === 1) add(child, node.acts.length);
			} else {
				// A delegation the filter hides places none: the children are placed again among the shown activities.
				const children: PaneNode[] = [];
				for (const {pane} of childPanesOf(this.model, from.pane)) {
					const child = base.#byPane.get(pane.paneId);
					if (child?.parent === from && hits[child.no] === 1) children.push(child);
				}

				for (const {child, after} of placeChildren(this.model, node.acts, children, child => child.pane.paneId)) add(child, after);
			}

			for (let k = made.length - 1; k >= 0; k--) stack.push(made[k]!);
		}
	}

	/** One unfiltered pane as the filter shows it, placed under `parent` (at the top without one). */
	#copyNode(base: RowLayout, from: PaneNode, parent: PaneNode | undefined, after: number, shown: Uint8Array, shownActs: Int32Array): PaneNode {
		const all = shownActs[from.no] === from.acts.length;
		const list = all ? from.acts : from.acts.filter(index => shown[index] === 1);
		// A subsequence of an ascending list is ascending.
		const ascending = all || from.actsAscending || isAscending(list);
		// The tail does not depend on the filter: the unfiltered one is reused at the same width.
		const tail = this.width === base.width ? from.tail : tailRows(this.model, from.pane, from.shownDepth, this.width, from.last);
		const slot = parent ? parent.children.length : this.top.length;
		const node = new PaneNode(from.facts, list, ascending, tail, parent, slot, this.order.length);
		if (parent) parent.addChild(node, after);
		else this.top.push(node);
		this.#fromBase[from.no] = node;
		this.order.push(node);
		return node;
	}

	/** Says what the filter left out: the count of hidden panes, or in words that nothing matches. */
	#addFilteredNote(shownCount: number): void {
		const hidden = this.model.panes.size - shownCount;
		if (shownCount === 0) {
			// Errors-only alone reads best as a fact about the run; anything else names the filter.
			const errorsOnly = showsErrorsOnly(this.filter) && filterText(this.filter) === 'errors';
			this.topTail.push({kind: 'filtered', key: 'f:none', text: errorsOnly ? 'no errors' : `nothing matches ${shownStart(filterText(this.filter), noteColumns)}`, part: 'none'});
		}

		if (hidden > 0) this.topTail.push({kind: 'filtered', key: 'f:hidden', text: `${hidden} ${hidden === 1 ? 'pane' : 'panes'} without matches hidden`, part: 'hidden'});
	}

	/** This layout's node of a pane. */
	#nodeOf(paneId: string): PaneNode | undefined {
		if (!this.#base) return this.#byPane.get(paneId);
		const from = this.#base.#byPane.get(paneId);
		return from && this.#fromBase[from.no];
	}

	/**
	 * A pane and everything under it, depth first, with its own stack of tasks: delegations can nest deeper
	 * than the call stack goes. Each pane is placed once (a malformed log can make a parent cycle), at the
	 * first place the walk reaches it.
	 */
	*#addTree(root: PaneTask): Generator<void, void> {
		const {model} = this;
		const nodeOfActivity = this.#activityNodes();
		const stack: PaneTask[] = [root];
		let work = 0;
		while (stack.length > 0) {
			if (++work % stepSize === 0) yield;
			const task = stack.pop()!;
			const {pane, depth, parent} = task;
			if (this.#byPane.has(pane.paneId)) continue;
			const acts = this.#presentActivities(pane);
			const slot = parent ? parent.children.length : this.top.length;
			// The pane's last run is looked up once: with 200,000 panes, each lookup in the model's maps counts.
			const last = pane.runIds.length === 1 && task.run?.runId === pane.runIds[0] ? task.run : lastRun(model, pane);
			const live = last !== undefined && isLive(shownStatus(last));
			const facts = new PaneFacts(pane, depth, task.orphan, task.cycle, live, last);
			const node = new PaneNode(facts, acts.list, acts.ascending, tailRows(model, pane, Math.min(depth, maxShownDepth), this.width, last), parent, slot, this.order.length);
			if (parent) parent.addChild(node, task.after);
			else this.top.push(node);
			this.#byPane.set(pane.paneId, node);
			this.order.push(node);
			this.#parentNo.push(parent ? parent.no : -1);
			const {list} = acts;
			for (let k = 0; k < list.length; k++) nodeOfActivity[list[k]!] = node.no + 1;

			if (pane.runIds.length === 1 && last?.childRunIds.length === 0) continue;
			const children = yield* childPaneSteps(model, pane);
			if (children.length === 0) continue;
			facts.delegates = delegates(model, acts.list);
			if (!facts.delegates) {
				// All after the activities, in the order they started: pushed as they are, with pauses, as one
				// run can have 200,000 children.
				for (let k = children.length - 1; k >= 0; k--) {
					if (k % stepSize === 0) yield;
					const child = children[k]!;
					stack.push({pane: child.pane, run: child.run, depth: depth + 1, orphan: false, cycle: false, parent: node, after: acts.list.length});
				}

				continue;
			}

			const placed = placeChildren(model, acts.list, children, child => child.pane.paneId);
			for (let k = placed.length - 1; k >= 0; k--) {
				const {child, after} = placed[k]!;
				stack.push({pane: child.pane, run: child.run, depth: depth + 1, orphan: false, cycle: false, parent: node, after});
			}
		}
	}

	#activityNodes(): Int32Array {
		this.#nodeOfActivity ??= new Int32Array(this.model.activities.length);
		return this.#nodeOfActivity;
	}

	/** The pane's activities that exist; the pane's own list when all do. */
	#presentActivities(pane: Pane): {list: readonly number[]; ascending: boolean} {
		const {model} = this;
		if (pane.activityIndices.every(index => model.activities[index] !== undefined)) {
			return {list: pane.activityIndices, ascending: isAscending(pane.activityIndices)};
		}

		const list = pane.activityIndices.filter(index => model.activities[index] !== undefined);
		return {list, ascending: isAscending(list)};
	}

	/**
	 * Counts every pane's rows for these folds. A few panes folded or unfolded since the last folds change only
	 * those panes and the panes above them; otherwise (`e`, `E`, a new filter) one pass over every pane,
	 * children before their parents.
	 */
	applyFolds(ui: Folds): void {
		this.#finish();
		const previous = this.#foldsOf;
		if (previous && sameFolds(previous, ui)) return;
		this.#foldsOf = ui;
		const folds: Folds = {collapsed: ui.collapsed, filterFolds: ui.filterFolds, jobFolds: ui.jobFolds, defaultCollapse: ui.defaultCollapse, filter: this.filter};
		this.#foldJobs(folds);
		const changed = previous ? changedFolds(previous, folds) : undefined;
		if (changed) {
			for (const paneId of changed) this.#refold(paneId, folds);
			this.#countTop();
			return;
		}

		this.#stamp++;
		const same = uniformFold(folds);
		if (same === undefined) {
			for (let i = this.order.length - 1; i >= 0; i--) {
				const node = this.order[i]!;
				node.collapsed = foldOf(folds, node.pane.paneId, node.depth, node.holdsLive);
				node.count = this.#countOf(node);
			}
		} else {
			// `E` and `e`: every pane folded, or every pane open with the counts of this layout's open tree,
			// worked out once; no per-pane rule and no walk of each pane's children (200,000 under one run).
			const counts = same ? undefined : this.#openCountsNow();
			for (let i = 0; i < this.order.length; i++) {
				const node = this.order[i]!;
				node.collapsed = same;
				node.count = counts ? counts[i]! : 1;
			}
		}

		this.#countTop();
	}

	/** Every pane's rows with every pane open, by its place in `order`: worked out as the layout's last step. */
	#openCountsNow(): Int32Array {
		return this.#openCounts ?? drain(this.#openCountSteps());
	}

	/**
	 * The last step of making a layout, so that the first `e` finds the counts made: with 200,000 panes it is a
	 * walk over every node that took most of that key's time.
	 */
	*#openCountSteps(): Generator<void, Int32Array> {
		const {order} = this;
		const counts = new Int32Array(order.length);
		// Children come after their parent in `order`: backwards, each pane's count is whole when it is added to its parent's.
		for (let i = order.length - 1; i >= 0; i--) {
			if (i % stepSize === 0) yield;
			const node = order[i]!;
			counts[i]! += 1 + node.acts.length + node.tail.length;
			if (node.parent) counts[node.parent.no]! += counts[i]!;
		}

		this.#openCounts = counts;
		return counts;
	}

	/** Which jobs are folded to their row: a few jobs, worked out whenever the folds change. */
	#foldJobs(folds: Folds): void {
		if (this.topSlotOfJob.size === 0) return;
		const folded = jobFoldCheck(this.model, folds);
		this.#foldedJobs.clear();
		for (const jobId of this.topSlotOfJob.keys()) {
			const job = this.model.jobs.get(jobId);
			if (job && folded(job)) this.#foldedJobs.add(jobId);
		}
	}

	/** Rows of a top entry: none for a root pane whose job is folded. */
	#topCount(entry: TopEntry): number {
		if (!(entry instanceof PaneNode)) return 1;
		return this.#hiddenByJob(entry) ? 0 : entry.count;
	}

	#hiddenByJob(root: PaneNode): boolean {
		return root.jobId !== undefined && this.#foldedJobs.has(root.jobId);
	}

	/** The length, from the top entries' counts: there are few of them (jobs and root panes). */
	#countTop(): void {
		this.#topSumsStamp = -1;
		let length = this.topTail.length;
		for (const entry of this.top) length += this.#topCount(entry);
		this.#length = length;
	}

	#countOf(node: PaneNode): number {
		if (node.collapsed) return 1;
		let count = 1 + node.acts.length + node.tail.length;
		for (const child of node.children) count += child.count;
		return count;
	}

	/** One pane folded or unfolded: its count, and the counts (and sums) of the panes above it up to a folded one. */
	#refold(paneId: string, folds: Folds): void {
		const node = this.#nodeOf(paneId);
		if (!node) return;
		const collapsed = foldOf(folds, paneId, node.depth, node.holdsLive);
		if (collapsed === node.collapsed) return;
		node.collapsed = collapsed;
		const count = this.#countOf(node);
		const delta = count - node.count;
		node.count = count;
		for (let at = node.parent; ; at = at.parent) {
			// The length is counted again from the top entries once every fold is in (`#countTop`).
			if (!at) return;

			at.sumsStamp = -1;
			// A folded pane takes one row whatever is under it.
			if (at.collapsed) return;
			at.count += delta;
		}
	}

	get length(): number {
		return this.#length;
	}

	/** Rows taken by a pane's children before child k, for the current folds. */
	#childOffset(node: PaneNode, k: number): number {
		// A chain is a pane with one child, 100,000 deep: it needs no table of sums.
		if (k === 0) return 0;
		if (node.children.length === 1) return node.children[0]!.count;
		if (node.sums && node.sumsStamp === this.#stamp) return node.sums[k]!;
		const sums = node.sums?.length === node.children.length + 1 ? node.sums : new Int32Array(node.children.length + 1);
		let total = 0;
		for (const [at, child] of node.children.entries()) {
			sums[at] = total;
			total += child.count;
		}

		sums[node.children.length] = total;
		node.sums = sums;
		node.sumsStamp = this.#stamp;
		return sums[k]!;
	}

	#topSumsNow(): Int32Array {
		if (this.#topSums && this.#topSumsStamp === this.#stamp) return this.#topSums;
		const sums = new Int32Array(this.top.length + 1);
		let total = 0;
		for (const [k, entry] of this.top.entries()) {
			sums[k] = total;
			total += this.#topCount(entry);
		}

		sums[this.top.length] = total;
		this.#topSums = sums;
		this.#topSumsStamp = this.#stamp;
		return sums;
	}

	/** Rows of a pane's activities and children (not its header or tail), when open. */
	#itemsOf(node: PaneNode): number {
		return node.acts.length + this.#childOffset(node, node.children.length);
	}

	/** The rows from `from` to `to`, made as the walk goes. */
	slice(from: number, to: number): Row[] {
		const start = Math.max(0, from);
		const end = Math.min(this.#length, to);
		const rows: Row[] = [];
		if (start >= end) return rows;
		const cursor = this.#seek(start);
		while (rows.length < end - start) {
			const row = this.#next(cursor);
			if (!row) break;
			rows.push(row);
		}

		return rows;
	}

	at(index: number): Row | undefined {
		if (!Number.isInteger(index) || index < 0 || index >= this.#length) return undefined;
		return this.slice(index, index + 1)[0];
	}

	/** A cursor whose next row is row `index`: the walk down the tree to it. */
	#seek(index: number): Cursor {
		const sums = this.#topSumsNow();
		const topRows = sums[this.top.length]!;
		if (index >= topRows) return {top: this.top.length, topTail: index - topRows, frame: undefined};
		const k = lastAtMost(sums, this.top.length, index);
		const entry = this.top[k]!;
		if (!(entry instanceof PaneNode)) return {top: k, topTail: 0, frame: undefined};
		let node = entry;
		let offset = index - sums[k]!;
		for (;;) {
			if (offset === 0) return {top: 0, topTail: 0, frame: {node, headerDone: false, act: 0, child: 0, tail: 0}};
			offset -= 1;
			const items = this.#itemsOf(node);
			if (offset >= items) return {top: 0, topTail: 0, frame: {node, headerDone: true, act: node.acts.length, child: node.children.length, tail: offset - items}};
			// The last child that starts at or before the offset: children start at their place among the
			// activities plus the rows of the children before them.
			let low = 0;
			let high = node.children.length - 1;
			let found = -1;
			while (low <= high) {
				const middle = (low + high) >>> 1;
				if (node.childAfter[middle]! + this.#childOffset(node, middle) <= offset) {
					found = middle;
					low = middle + 1;
				} else high = middle - 1;
			}

			if (found !== -1) {
				const child = node.children[found]!;
				const childStart = node.childAfter[found]! + this.#childOffset(node, found);
				if (offset < childStart + child.count) {
					node = child;
					offset -= childStart;
					continue;
				}
			}

			return {top: 0, topTail: 0, frame: {node, headerDone: true, act: offset - this.#childOffset(node, found + 1), child: found + 1, tail: 0}};
		}
	}

	/**
	 * The next row, moving the cursor past it. Only the innermost pane's place is kept: where its parent goes
	 * on is known from the pane's own slot, so a cursor deep in a chain holds one frame, not 100,000.
	 */
	#next(cursor: Cursor): Row | undefined {
		for (;;) {
			const {frame} = cursor;
			if (!frame) {
				const entry = this.top[cursor.top];
				if (entry === undefined) return this.topTail[cursor.topTail++];
				cursor.top++;
				if (!(entry instanceof PaneNode)) return entry.kind === 'job' ? {...entry, collapsed: this.#foldedJobs.has(entry.jobId)} : entry;
				if (this.#hiddenByJob(entry)) continue;
				cursor.frame = {node: entry, headerDone: false, act: 0, child: 0, tail: 0};
				continue;
			}

			const {node} = frame;
			if (!frame.headerDone) {
				frame.headerDone = true;
				if (node.collapsed) this.#leave(cursor, node);
				return this.#header(node);
			}

			if (frame.child < node.children.length && node.childAfter[frame.child]! <= frame.act) {
				const child = node.children[frame.child++]!;
				cursor.frame = {node: child, headerDone: false, act: 0, child: 0, tail: 0};
				continue;
			}

			if (frame.act < node.acts.length) return this.#activityRow(node, node.acts[frame.act++]!);
			if (frame.tail < node.tail.length) return node.tail[frame.tail++];
			this.#leave(cursor, node);
		}
	}

	/** The cursor goes on after a pane: in its parent, after its slot, or at the top after it. */
	#leave(cursor: Cursor, node: PaneNode): void {
		const {parent, slot} = node;
		if (parent) cursor.frame = {node: parent, headerDone: true, act: parent.childAfter[slot]!, child: slot + 1, tail: 0};
		else {
			cursor.frame = undefined;
			cursor.top = slot + 1;
		}
	}

	#header(node: PaneNode): Row {
		const {paneId} = node.pane;
		return {kind: 'pane', key: paneKey(paneId), paneId, depth: node.shownDepth, collapsed: node.collapsed, orphan: node.orphan, cycle: node.cycle};
	}

	#activityRow(node: PaneNode, index: number): Row {
		const activity = this.model.activities[index]!;
		return {kind: 'activity', key: activityKey(activity.id), index, depth: node.shownDepth, paneId: node.pane.paneId};
	}

	/** Position of a row by its key, walking up from its pane: the depth of the tree, not its size. */
	indexOfKey(key: string | undefined): number {
		if (key === undefined) return -1;
		const kind = key.slice(0, 2);
		const rest = key.slice(2);
		switch (kind) {
			case 'p:': {
				const node = this.#nodeOf(rest);
				return node && this.#reachable(node) ? this.#start(node) : -1;
			}

			case 'a:': {
				const index = this.model.activityIndexById.get(rest);
				const activity = index === undefined ? undefined : this.model.activities[index];
				const paneId = activity ? this.model.runs.get(activity.runId)?.paneId : undefined;
				const node = paneId === undefined ? undefined : this.#nodeOf(paneId);
				if (index === undefined || !node || !this.#open(node)) return -1;
				const position = this.#actPosition(node, index);
				if (position === -1) return -1;
				const before = childrenBefore(node, position);
				return this.#start(node) + 1 + position + this.#childOffset(node, before);
			}

			case 'j:': {
				const slot = this.topSlotOfJob.get(rest);
				return slot === undefined ? -1 : this.#topSumsNow()[slot]!;
			}

			case 'f:': {
				const at = this.topTail.findIndex(row => row.key === key);
				return at === -1 ? -1 : this.#topSumsNow()[this.top.length]! + at;
			}

			case 'l:':
			case 'n:': {
				// The pane id sits between the kind and the last part (`n:<paneId>:q`, `l:<paneId>:<channel>:<n>`).
				for (const node of this.#tailOwners(rest)) {
					const at = node.tail.findIndex(row => row.key === key);
					if (at !== -1) return this.#open(node) ? this.#start(node) + 1 + this.#itemsOf(node) + at : -1;
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
	followedIndex(): number {
		const {model} = this;
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
				const at = this.indexOfKey(activityKey(activity.id));
				if (at !== -1) return at;
			}
		}

		for (let i = this.#length - 1; i >= 0; i--) if (isSelectableRow(this.at(i)!)) return i;
		return this.#length - 1;
	}

	/** The panes a tail row's key could name: every prefix of it that is a pane id, as ids may hold colons. */
	*#tailOwners(rest: string): Generator<PaneNode> {
		for (let at = rest.indexOf(':'); at !== -1; at = rest.indexOf(':', at + 1)) {
			const node = this.#nodeOf(rest.slice(0, at));
			if (node) yield node;
		}
	}

	/** Whether a pane and every pane above it are open, so what it holds is on screen. */
	#open(node: PaneNode): boolean {
		return !node.collapsed && this.#reachable(node);
	}

	/** Whether a pane's row is on screen: every pane above it open, and its job not folded. */
	#reachable(node: PaneNode): boolean {
		let root = node;
		for (let at = node.parent; at; at = at.parent) {
			if (at.collapsed) return false;
			root = at;
		}

		return !this.#hiddenByJob(root);
	}

	/** Position of a pane's header. */
	#start(node: PaneNode): number {
		let position = 0;
		let at = node;
		while (at.parent) {
			const parent = at.parent;
			position += 1 + parent.childAfter[at.slot]! + this.#childOffset(parent, at.slot);
			at = parent;
		}

		return position + this.#topSumsNow()[at.slot]!;
	}

	#actPosition(node: PaneNode, index: number): number {
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
}

type Frame = {node: PaneNode; headerDone: boolean; act: number; child: number; tail: number};
type Cursor = {top: number; topTail: number; frame: Frame | undefined};

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

/**
 * Where a pane's child panes go among its activities `acts`: right under the activity that delegated them, in
 * the order they started; the rest (and those whose delegation is not shown) after the activities, in the
 * order they started. `children` are in the order they started.
 */
function placeChildren<Child>(model: Model, acts: readonly number[], children: readonly Child[], idOf: (child: Child) => string): Array<{child: Child; after: number}> {
	const out: Array<{child: Child; after: number}> = [];
	// By pane id, made at the first delegation: one run can delegate to a hundred thousand, and each
	// delegation looks up its own; a run whose children came without a delegation needs none.
	let childOrder: Map<string, number> | undefined;
	const placed = new Set<string>();
	for (const [position, index] of acts.entries()) {
		const activity = model.activities[index];
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

/** Whether an activity among these delegated to child runs: only then may children sit among the activities. */
function delegates(model: Model, acts: readonly number[]): boolean {
	for (const index of acts) {
		const activity = model.activities[index];
		if (activity?.type === 'delegate' && activity.childRunIds.length > 0) return true;
	}

	return false;
}

function isAscending(list: readonly number[]): boolean {
	for (let i = 1; i < list.length; i++) if (list[i]! <= list[i - 1]!) return false;
	return true;
}

/**
 * Following looks for a running pane's newest activity among this many of the newest activities, and in at most
 * this many panes, before it settles for the last row: a frame must not read the whole log.
 */
const followScan = 4096;
const followPanes = 64;

/** More explicit fold changes than this at once (a search unfolding a deep chain) are applied in one pass. */
const maxRefolds = 64;

/**
 * The panes whose explicit fold differs between two fold states that differ only in explicit folds; undefined
 * when they differ otherwise (`e`, `E`, the filter) or in too many panes.
 */
function changedFolds(before: Folds, after: Folds): string[] | undefined {
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

function sameFolds(a: Folds, b: Folds): boolean {
	return a.collapsed === b.collapsed && a.filterFolds === b.filterFolds && a.jobFolds === b.jobFolds && a.defaultCollapse === b.defaultCollapse && a.filter === b.filter;
}

/** A row list for one set of folds over a layout; it re-applies its folds should another list have changed them. */
export function rowList(layout: RowLayout, folds: Folds): RowList {
	layout.applyFolds(folds);
	// The followed row depends on the layout and the folds only: worked out once per list.
	let followed: number | undefined;
	return {
		get length() {
			layout.applyFolds(folds);
			return layout.length;
		},
		at(index) {
			layout.applyFolds(folds);
			return layout.at(index);
		},
		slice(from, to) {
			layout.applyFolds(folds);
			return layout.slice(from, to);
		},
		indexOfKey(key) {
			layout.applyFolds(folds);
			return layout.indexOfKey(key);
		},
		followed() {
			layout.applyFolds(folds);
			followed ??= layout.followedIndex();
			return followed;
		},
	};
}
