import type {Activity, Model, Pane, Run} from '../../model/state.js';

/** A child pane and the run it was found by (pane-lists.ts's `ChildPane`). */
type Child = {readonly pane: Pane; readonly run: Run};

/*
 * What a pane shows of its own before its children are placed among it: the activities that exist, whether they
 * are in ascending order, and where its delegations sit. Worked out in one pass over the pane's activities, and
 * kept from one revision of a model changed in place to the next while the pane is the same: a live stream's
 * every frame read every activity of every pane three times over (a third of a frame's layout, the soak of #33),
 * though a frame changes a few panes.
 */

/** One pane's activities as a layout places them. */
export type PaneContent = {
	/** The pane's activities that exist, in its order: its own list when all do. */
	readonly list: readonly number[];
	readonly ascending: boolean;
	/** Where the delegations sit in `list`, and the delegation objects seen there (an activity is replaced, never changed). */
	readonly delegations: readonly number[];
	readonly delegationObjects: readonly Activity[];
	/** A delegation among them delegated to child runs: only then may children sit among the activities. */
	readonly delegates: boolean;
	/** What it was worked out from: see `holds`. */
	readonly pane: Pane;
	readonly rev: number;
	readonly indices: readonly number[];
	readonly length: number;
};

const noPositions: readonly number[] = [];
const noActivities: readonly Activity[] = [];

/** The pane's content, worked out from the model as it is now. */
export function paneContent(model: Model, pane: Pane): PaneContent {
	const {activities} = model;
	const indices = pane.activityIndices;
	let missing = false;
	let ascending = true;
	let delegations: number[] | undefined;
	let delegationObjects: Activity[] | undefined;
	let previous = -1;
	let position = 0;
	for (let k = 0; k < indices.length; k++) {
		const index = indices[k]!;
		const activity = activities[index];
		if (activity === undefined) {
			missing = true;
			continue;
		}

		if (index <= previous) ascending = false;
		previous = index;
		if (activity.type === 'delegate') {
			(delegations ??= []).push(position);
			(delegationObjects ??= []).push(activity);
		}

		position++;
	}

	return {
		list: missing ? indices.filter(index => activities[index] !== undefined) : indices,
		ascending,
		delegations: delegations ?? noPositions,
		delegationObjects: delegationObjects ?? noActivities,
		delegates: delegationObjects?.some(activity => activity.type === 'delegate' && activity.childRunIds.length > 0) ?? false,
		pane,
		rev: pane.rev,
		indices,
		length: indices.length,
	};
}

/**
 * Whether a content worked out earlier is the pane's content now. Every change of a pane's list of activities
 * moves its `rev` (adding, reviving or replacing an activity, joining another pane), and a list is either a new
 * array or the same one grown or cut; an activity's slot is filled only by adding or reviving it. What changes
 * without moving the pane's `rev` is an activity replaced by a changed copy (`updateActivity`): only a
 * delegation's copy matters here (its child runs), so the delegations are checked one by one.
 */
export function holds(content: PaneContent, model: Model, pane: Pane): boolean {
	if (content.pane !== pane || content.rev !== pane.rev || content.indices !== pane.activityIndices || content.length !== pane.activityIndices.length)
		return false;
	const {list, delegations, delegationObjects} = content;
	for (let k = 0; k < delegations.length; k++) if (model.activities[list[delegations[k]!]!] !== delegationObjects[k]) return false;
	return true;
}

/**
 * The contents of one model's panes, kept while the model object is the same (a live stream read on this thread
 * changes it in place); each is checked against its pane before it is used (`holds`). A load in a worker posts
 * a new model object, whose lists may be the old ones changed: nothing is carried to it.
 */
export class PaneContents {
	/** Shared with the contents of the earlier revisions of the same model object: each entry is checked as it is read. */
	readonly #byPane: Map<string, PaneContent>;
	/** Where a content's child panes went among its activities (`placedAmong`), for the children they were placed from. */
	readonly #placed: WeakMap<PaneContent, {children: readonly Child[]; placed: ReadonlyArray<{child: Child; after: number}>}>;

	constructor(
		readonly model: Model,
		earlier?: PaneContents,
	) {
		const same = earlier?.model === model;
		this.#byPane = same ? earlier.#byPane : new Map();
		this.#placed = same ? earlier.#placed : new WeakMap();
	}

	of(pane: Pane): PaneContent {
		const known = this.#byPane.get(pane.paneId);
		if (known && holds(known, this.model, pane)) return known;
		const content = paneContent(this.model, pane);
		this.#byPane.set(pane.paneId, content);
		return content;
	}

	/**
	 * Where `children` go among the activities of a pane whose content is `content` (`place` works it out): what
	 * was worked out for the same content and the same children (the same pane and run objects, in the same order)
	 * is taken again. Placing reads the delegations (checked by the content) and the children's pane ids only; a
	 * coordinator's children were placed again each frame, a map and a set made for each.
	 */
	placedAmong(
		content: PaneContent,
		children: readonly Child[],
		place: () => Array<{child: Child; after: number}>,
	): ReadonlyArray<{child: Child; after: number}> {
		const known = this.#placed.get(content);
		if (known && sameChildren(known.children, children)) return known.placed;
		const placed = place();
		this.#placed.set(content, {children: [...children], placed});
		return placed;
	}
}

function sameChildren(a: readonly Child[], b: readonly Child[]): boolean {
	if (a.length !== b.length) return false;
	for (let k = 0; k < a.length; k++) if (a[k]!.pane !== b[k]!.pane || a[k]!.run !== b[k]!.run) return false;
	return true;
}
