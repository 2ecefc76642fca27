import type {Filter} from '../../query/filter.js';
import {changedFolds, foldOf, sameFolds, uniformFold, type Folds} from './folds.js';
import {jobFoldCheck} from './job-folds.js';
import {PaneNode, type TopEntry} from './pane-node.js';
import {drain, stepSize} from './pane-lists.js';
import type {Placement} from './placement.js';

/**
 * How many rows each pane of a placement takes under the folds of now: counted bottom up in one pass over the
 * panes, and each pane with child panes the running sums of its children's counts when first asked after a
 * fold. A few panes folded or unfolded since the last folds change only those panes and the panes above them.
 */
export class FoldCounts {
	/** The jobs folded to their row, for the current folds. */
	readonly #foldedJobs = new Set<string>();
	#foldsOf: Folds | undefined;
	/** With every pane open, the rows of each pane by its place in `order` (`openCountSteps`). */
	#openCounts: Int32Array | undefined;
	/** Moves whenever every count may have changed: the sums made before it are stale. */
	#stamp = 0;
	#topSums: Int32Array | undefined;
	#topSumsStamp = -1;
	#length = 0;
	#version = 0;
	/**
	 * Where pane headers sit (rows from the top; -1: not shown) as the walks found them (seek.ts, key-index.ts), by
	 * `no`, each valid while its stamp is `#startsGen`. In a chain 100,000 deep every walk is 100,000 steps, and a
	 * frame asked for several (its window, the selection's position, the followed row): `e` on the chain of #33
	 * spent ~20 ms of CPU a key in them. Found once under the folds of now, a place is looked up after that.
	 */
	#starts = new Int32Array(0);
	#startStamps = new Int32Array(0);
	#startsGen = 0;
	#startsVersion = -1;
	#startsPanes = -1;
	#lastSought: PaneNode | undefined;

	constructor(
		readonly placement: Placement,
		readonly filter: Filter,
	) {}

	/** Moves whenever the folds applied change, so that rows made under the ones before are known stale. */
	get version(): number {
		return this.#version;
	}

	/** Rows in all, under the folds last applied. */
	get length(): number {
		return this.#length;
	}

	/**
	 * Counts every pane's rows for these folds. A few panes folded or unfolded since the last folds change only
	 * those panes and the panes above them; otherwise (`e`, `E`, a new filter) one pass over every pane,
	 * children before their parents.
	 */
	apply(ui: Folds): void {
		const previous = this.#foldsOf;
		if (previous && sameFolds(previous, ui)) return;
		this.#foldsOf = ui;
		this.#version++;
		const folds: Folds = {
			collapsed: ui.collapsed,
			filterFolds: ui.filterFolds,
			jobFolds: ui.jobFolds,
			defaultCollapse: ui.defaultCollapse,
			filter: this.filter,
		};
		this.#foldJobs(folds);
		const changed = previous ? changedFolds(previous, folds) : undefined;
		if (changed) {
			for (const paneId of changed) this.#refold(paneId, folds);
			this.#countTop();
			return;
		}

		this.#stamp++;
		const {order} = this.placement;
		const same = uniformFold(folds);
		if (same === undefined) {
			for (let i = order.length - 1; i >= 0; i--) {
				const node = order[i]!;
				node.collapsed = foldOf(folds, node.pane.paneId, node.depth, node.holdsLive);
				node.openCount = openCountOf(node);
				node.count = node.collapsed ? 1 : node.openCount;
			}
		} else {
			// `E` and `e`: every pane folded, or every pane open with the counts of this layout's open tree,
			// worked out once; no per-pane rule and no walk of each pane's children (200,000 under one run).
			const counts = same ? undefined : this.#openCountsNow();
			for (let i = 0; i < order.length; i++) {
				const node = order[i]!;
				node.collapsed = same;
				// Folded, each child takes its one row.
				node.openCount = counts ? counts[i]! : 1 + node.acts.length + node.tail.length + node.children.length;
				node.count = counts ? counts[i]! : 1;
			}
		}

		this.#countTop();
	}

	/** Every pane's rows with every pane open, by its place in `order`: worked out as the layout's last step. */
	#openCountsNow(): Int32Array {
		return this.#openCounts ?? drain(this.openCountSteps());
	}

	/**
	 * The last step of making a layout, so that the first `e` finds the counts made: with 200,000 panes it is a
	 * walk over every node that took most of that key's time.
	 */
	*openCountSteps(): Generator<void, Int32Array> {
		const {order} = this.placement;
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
		const {topSlotOfJob, model} = this.placement;
		if (topSlotOfJob.size === 0) return;
		const folded = jobFoldCheck(model, folds);
		this.#foldedJobs.clear();
		for (const jobId of topSlotOfJob.keys()) {
			const job = model.jobs.get(jobId);
			if (job && folded(job)) this.#foldedJobs.add(jobId);
		}
	}

	/** Whether a job is folded to its row. */
	jobFolded(jobId: string): boolean {
		return this.#foldedJobs.has(jobId);
	}

	/** Rows of a top entry: none for a root pane whose job is folded. */
	#topCount(entry: TopEntry): number {
		if (!(entry instanceof PaneNode)) return 1;
		return this.hiddenByJob(entry) ? 0 : entry.count;
	}

	hiddenByJob(root: PaneNode): boolean {
		return root.jobId !== undefined && this.#foldedJobs.has(root.jobId);
	}

	/** The length, from the top entries' counts: there are few of them (jobs and root panes). */
	#countTop(): void {
		this.#topSumsStamp = -1;
		const {top, topTail} = this.placement;
		let length = topTail.length;
		for (const entry of top) length += this.#topCount(entry);
		this.#length = length;
	}

	/** One pane folded or unfolded: its count, and the counts (and sums) of the panes above it up to a folded one. */
	#refold(paneId: string, folds: Folds): void {
		const node = this.placement.nodeOf(paneId);
		if (!node) return;
		const collapsed = foldOf(folds, paneId, node.depth, node.holdsLive);
		if (collapsed === node.collapsed) return;
		node.collapsed = collapsed;
		// Its open count is kept whole as its children change (`PaneNode.openCount`): no walk of its children here.
		const count = collapsed ? 1 : node.openCount;
		const delta = count - node.count;
		node.count = count;
		for (let at = node.parent; ; at = at.parent) {
			// The length is counted again from the top entries once every fold is in (`#countTop`).
			if (!at) return;

			at.sumsStamp = -1;
			at.openCount += delta;
			// A folded pane takes one row whatever is under it.
			if (at.collapsed) return;
			at.count += delta;
		}
	}

	/** Rows taken by a pane's children before child k, for the current folds. */
	childOffset(node: PaneNode, k: number): number {
		// A chain is a pane with one child, 100,000 deep: it needs no table of sums.
		if (k === 0) return 0;
		if (node.children.length === 1) return node.children[0]!.count;
		if (node.sums && node.sumsStamp === this.#stamp) return node.sums[k]!;
		const {children} = node;
		const sums = node.sums?.length === children.length + 1 ? node.sums : new Int32Array(children.length + 1);
		// By index: the first walk after a fold of everything (`E`, `e`) runs cold, and `entries()` then made a pair
		// and an iterator result per child, 12 MB of garbage over 200,000 children, in the key that asked.
		let total = 0;
		for (let at = 0; at < children.length; at++) {
			sums[at] = total;
			total += children[at]!.count;
		}

		sums[children.length] = total;
		node.sums = sums;
		node.sumsStamp = this.#stamp;
		return sums[k]!;
	}

	/** `sums[k]`: the rows of the top entries before entry k; `sums[top.length]`, of all of them. */
	topSums(): Int32Array {
		if (this.#topSums && this.#topSumsStamp === this.#stamp) return this.#topSums;
		const {top} = this.placement;
		const sums = new Int32Array(top.length + 1);
		let total = 0;
		for (const [k, entry] of top.entries()) {
			sums[k] = total;
			total += this.#topCount(entry);
		}

		sums[top.length] = total;
		this.#topSums = sums;
		this.#topSumsStamp = this.#stamp;
		return sums;
	}

	/** The places noted so far, when they hold for the folds and panes of now; else none are. */
	#startsNow(): void {
		const panes = this.placement.order.length;
		if (this.#startsVersion === this.#version && this.#startsPanes === panes) return;
		this.#startsVersion = this.#version;
		this.#startsPanes = panes;
		this.#lastSought = undefined;
		if (this.#starts.length < panes) {
			this.#starts = new Int32Array(panes);
			this.#startStamps = new Int32Array(panes);
			this.#startsGen = 1;
		} else this.#startsGen++;
	}

	/** Where a pane's header sits under the folds of now (-1: not shown), when a walk found it; else undefined. */
	knownStart(node: PaneNode): number | undefined {
		this.#startsNow();
		return this.#startStamps[node.no] === this.#startsGen ? this.#starts[node.no] : undefined;
	}

	/** Notes where a pane's header sits under the folds of now (-1: not shown). */
	noteStart(node: PaneNode, start: number): void {
		this.#startsNow();
		this.#starts[node.no] = start;
		this.#startStamps[node.no] = this.#startsGen;
	}

	/** The pane the last walk down ended in, under the folds of now: a walk to a row near it starts from there. */
	get lastSought(): PaneNode | undefined {
		this.#startsNow();
		return this.#lastSought;
	}

	set lastSought(node: PaneNode | undefined) {
		this.#startsNow();
		this.#lastSought = node;
	}

	/** Rows of a pane's activities and children (not its header or tail), when open. */
	itemsOf(node: PaneNode): number {
		return node.acts.length + this.childOffset(node, node.children.length);
	}
}

/** Rows a pane takes when open, from its children's counts (made before it: `order` backwards). */
function openCountOf(node: PaneNode): number {
	const {children} = node;
	let count = 1 + node.acts.length + node.tail.length;
	// By index, as in `childOffset`: a pass over every pane runs this cold.
	for (let at = 0; at < children.length; at++) count += children[at]!.count;
	return count;
}
