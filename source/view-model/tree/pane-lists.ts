import {filterMatches, type Filter} from '../../query/filter.js';
import type {Job, Model, Pane, Run} from '../../model/state.js';
import {PaneContents} from './pane-contents.js';

/*
 * Which panes hang under which on screen: the child panes of a pane and the root panes of a job, found with as
 * few lookups as can be (a run can have 200,000 children), in steps that a layout made in slices pauses between.
 */

/** A child pane, with the child run it was found by (its last run too when it has one run: no second lookup). */
export type ChildPane = {pane: Pane; run: Run};

/** Runs or panes dealt with between two pauses of a layout made in slices (`RowLayout.work`). */
export const stepSize = 1024;

/**
 * The panes under each pane and the root panes of each job, for one model revision: a filtered layout and the
 * unfiltered one list the same (the filter then leaves some out), and finding the 200,000 children of one run is
 * two lookups each in the model's largest maps. Kept only for panes with children. Every layout of a revision
 * shares one (the rows cache hands it on, tree/layouts.ts).
 */
export class PaneLists {
	readonly #children = new Map<string, ChildPane[]>();
	/** A job's root panes, found when it had `runCount` runs. */
	readonly #roots = new Map<string, {runCount: number; roots: ChildPane[]}>();
	/** `Model.treeRev` at `rev`: see `carriesOn`. */
	readonly #treeRev: number;
	/** What each pane shows of its own: carried over whenever the model object is the same, each checked as it is read. */
	readonly contents: PaneContents;

	/**
	 * `earlier`: the lists of an earlier revision of the same model, whose lists found so far are taken over while
	 * the tree's links hold (`carriesOn`): a live stream read on this thread changes the model in place, a frame at a
	 * time, and finding every pane's children and every job's root panes again each frame was a quarter of a
	 * frame's layout (1,800 panes, the soak of #33).
	 */
	constructor(
		readonly model: Model,
		readonly rev: number,
		earlier?: PaneLists,
	) {
		this.#treeRev = model.treeRev;
		this.contents = new PaneContents(model, earlier?.contents);
		if (!earlier?.carriesOn(model)) return;
		for (const [paneId, children] of earlier.#children) this.#children.set(paneId, children);
		for (const [jobId, roots] of earlier.#roots) this.#roots.set(jobId, roots);
	}

	/**
	 * Whether what these lists found holds for `model` as it is now, though at a later revision: the same model
	 * object, changed in place, with no run linked to a parent, a child or a pane since (`Model.treeRev`). A pane's
	 * children change only with such a link; a job's root panes also with a run added to the job, which is checked
	 * job by job (`rootPaneSteps`). A new run's pane is new, and found anew.
	 */
	carriesOn(model: Model): boolean {
		return this.model === model && this.#treeRev === model.treeRev;
	}

	/** Whether these lists hold for the model at this revision. */
	holdsFor(model: Model, rev: number): boolean {
		return this.model.activities === model.activities && this.rev === rev;
	}

	*childPaneSteps(pane: Pane): Generator<void, ChildPane[]> {
		let found = this.#children.get(pane.paneId);
		if (!found) {
			found = yield* findChildPanes(this.model, pane);
			if (found.length > 0) this.#children.set(pane.paneId, found);
		}

		return found;
	}

	*rootPaneSteps(job: Job): Generator<void, ChildPane[]> {
		const known = this.#roots.get(job.jobId);
		if (known?.runCount === job.runIds.length) return known.roots;
		const runCount = job.runIds.length;
		const roots = yield* findRootPanes(this.model, job);
		this.#roots.set(job.jobId, {runCount, roots});
		return roots;
	}

	childPanesOf(pane: Pane): ChildPane[] {
		return drain(this.childPaneSteps(pane));
	}

	rootPanesOf(job: Job): ChildPane[] {
		return drain(this.rootPaneSteps(job));
	}
}

/** Runs steps to their end at once. */
export function drain<T>(steps: Generator<void, T>): T {
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
	}
}

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
