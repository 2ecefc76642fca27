import type {Pane, Run} from '../../model/state.js';
import {maxShownDepth, type Row} from './row-types.js';

/*
 * The tree's index is a tree of nodes, one per pane shown (row-layout.ts). A node holds what its pane shows when
 * open (activities, child panes, tail rows) and, for the folds of now, how many rows it takes.
 */

const noChildren: PaneNode[] = [];
const noPlaces: number[] = [];

/**
 * What a pane is, whatever the filter: shared by its node in the unfiltered layout and in every layout cut
 * from it, so that a filter showing 100,000 panes makes smaller nodes.
 */
export class PaneFacts {
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
export class PaneNode {
	/** Fold-dependent, set by `applyFolds`. */
	collapsed = false;
	count = 1;
	/**
	 * Rows it takes when open, folded or not: its header, activities and tail plus its children's counts. Kept as
	 * the children's counts change, so that unfolding a pane of 200,000 children does not add them up again.
	 */
	openCount = 1;
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

export type TopEntry = Extract<Row, {kind: 'job' | 'filtered'}> | PaneNode;
