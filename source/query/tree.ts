import type {RunStatus, Usage} from '../model/events.js';
import {addUsage, zeroUsage} from '../model/usage.js';
import type {Job, Model, Pane, Run} from '../model/state.js';

/*
 * Derived views of the model: the delegation tree, depths, and job totals. Nothing here is stored, so
 * it can never disagree with the runs it is derived from.
 */

export type PaneNode = {
	pane: Pane;
	depth: number;
	/** The pane's first run names a parent that is not in the model (a partial log). */
	orphan: boolean;
};

/** Whether a pane is shown at the top of its job: it has no parent, or its parent is missing. */
export function isRootPane(model: Model, pane: Pane): boolean {
	const first = model.runs.get(pane.paneId);
	if (!first || first.parentRunId === null) return true;
	return !model.runs.has(first.parentRunId);
}

/** Child panes of a pane, in the order their runs started. */
export function childPanes(model: Model, pane: Pane): Pane[] {
	const out: Pane[] = [];
	const seen = new Set<string>();
	for (const runId of pane.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		for (const childId of run.childRunIds) {
			const child = model.runs.get(childId);
			if (!child || seen.has(child.paneId) || child.paneId === pane.paneId) continue;
			const childPane = model.panes.get(child.paneId);
			if (!childPane) continue;
			seen.add(child.paneId);
			out.push(childPane);
		}
	}

	return out;
}

/** Root panes of a job, in the order their runs started. */
export function rootPanes(model: Model, job: Job): Pane[] {
	const out: Pane[] = [];
	const seen = new Set<string>();
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		if (!run || seen.has(run.paneId)) continue;
		const pane = model.panes.get(run.paneId);
		if (!pane || !isRootPane(model, pane)) continue;
		seen.add(pane.paneId);
		out.push(pane);
	}

	return out;
}

/**
 * Every pane of a job, depth first. Guards against cycles that a malformed log could create, and walks
 * with its own stack: a log can nest delegations deeper than the call stack goes.
 */
export function panesInTreeOrder(model: Model, job: Job): PaneNode[] {
	const out: PaneNode[] = [];
	const visited = new Set<string>();
	const visit = (root: Pane, rootDepth: number, rootOrphan: boolean) => {
		const stack: PaneNode[] = [{pane: root, depth: rootDepth, orphan: rootOrphan}];
		while (stack.length > 0) {
			const node = stack.pop()!;
			if (visited.has(node.pane.paneId)) continue;
			visited.add(node.pane.paneId);
			out.push(node);
			const children = childPanes(model, node.pane);
			for (let i = children.length - 1; i >= 0; i--) stack.push({pane: children[i]!, depth: node.depth + 1, orphan: false});
		}
	};

	for (const pane of rootPanes(model, job)) {
		const first = model.runs.get(pane.paneId);
		visit(pane, 0, first !== undefined && first.parentRunId !== null);
	}

	// Anything unreachable (a parent cycle in a malformed log) is still shown, at the top.
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		const pane = run ? model.panes.get(run.paneId) : undefined;
		if (pane && !visited.has(pane.paneId)) visit(pane, 0, true);
	}

	return out;
}

/**
 * Runs of a job in tree order, as they happened: a run, then the runs it delegated to (depth first), then
 * the run that resumed it when its delegates returned, and so on.
 */
export function runsInTreeOrder(model: Model, job: Job): Run[] {
	const out: Run[] = [];
	const visited = new Set<string>();
	// Where the walk is in each open pane: which of its runs, and which of that run's children. An explicit
	// stack, because delegations can nest deeper than the call stack goes.
	const stack: Array<{pane: Pane; run: number; child: number}> = [];
	const enter = (pane: Pane) => {
		if (visited.has(pane.paneId)) return;
		visited.add(pane.paneId);
		stack.push({pane, run: 0, child: -1});
	};

	for (const {pane} of panesInTreeOrder(model, job)) {
		enter(pane);
		while (stack.length > 0) {
			const frame = stack[stack.length - 1]!;
			const runId = frame.pane.runIds[frame.run];
			if (runId === undefined) {
				stack.pop();
				continue;
			}

			const run = model.runs.get(runId);
			if (!run) {
				frame.run++;
				continue;
			}

			if (frame.child === -1) {
				out.push(run);
				frame.child = 0;
			}

			const childId = run.childRunIds[frame.child];
			if (childId === undefined) {
				frame.run++;
				frame.child = -1;
				continue;
			}

			frame.child++;
			const child = model.runs.get(childId);
			const childPane = child ? model.panes.get(child.paneId) : undefined;
			if (childPane && childPane.paneId !== frame.pane.paneId) enter(childPane);
		}
	}

	return out;
}

/** Delegation depth of a run (0 for a root). For many runs at once, use `depthMemo`. */
export function depthOf(model: Model, run: Run): number {
	return depthMemo(model)(run);
}

/**
 * Depths of many runs, remembering every depth met on the way up: asking for each run of a chain
 * 20,000 delegations deep costs 20,000 steps in all, not 200 million. Only valid while the model does
 * not change; make a new one after reducing more events.
 */
export function depthMemo(model: Model): (run: Run) => number {
	const known = new Map<string, number>();
	return run => {
		const start = model.runs.get(run.paneId) ?? run;
		const path: Run[] = [];
		const onPath = new Set<string>();
		let current = start;
		// Depth of the run the walk stopped at, when it was already known; -1 when the walk reached a top.
		let above = -1;
		for (;;) {
			const cached = known.get(current.runId);
			if (cached !== undefined) {
				above = cached;
				break;
			}

			// A parent cycle (a malformed log): the last run before it closes counts as a top.
			if (onPath.has(current.runId)) break;
			onPath.add(current.runId);
			path.push(current);
			const parent = current.parentRunId === null ? undefined : model.runs.get(current.parentRunId);
			if (!parent) break;
			current = model.runs.get(parent.paneId) ?? parent;
		}

		for (let i = 0; i < path.length; i++) known.set(path[i]!.runId, above + path.length - i);
		return known.get(start.runId) ?? 0;
	};
}

export function runSteps(run: Run): number {
	return run.endedSteps.size;
}

export type JobTotals = {
	status: RunStatus;
	steps: number;
	usage: Usage;
	/** The latest run without a parent: the coordinator as it stands now. */
	coordinator: Run | undefined;
	startedAt: number | undefined;
	endedAt: number | undefined;
};

export function jobTotals(model: Model, job: Job): JobTotals {
	let steps = 0;
	let usage = zeroUsage;
	let coordinator: Run | undefined;
	let startedAt: number | undefined;
	let endedAt: number | undefined;
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		steps += runSteps(run);
		usage = addUsage(usage, run.usage);
		if (run.parentRunId === null) coordinator = run;
		if (run.startedAt !== undefined && (startedAt === undefined || run.startedAt < startedAt)) startedAt = run.startedAt;
		const last = run.endedAt ?? run.lastEventAt;
		if (last !== undefined && (endedAt === undefined || last > endedAt)) endedAt = last;
	}

	return {status: coordinator?.status ?? 'init', steps, usage, coordinator, startedAt, endedAt};
}

/**
 * The status to show: a run whose last checkpoint is still `init` but that is already generating is
 * running. (Summaries report the checkpoint status itself.)
 */
export type EndedWhileWaiting = {
	/** The delegate whose failure ended the job, when one failed. */
	failedRunId: string | null;
	reason: string;
};

/**
 * A run that waits for its delegates when the input has ended and none of them is still running will never be
 * resumed: when a delegate fails, the runtime aborts the whole job ("Delegation error", exit 1) and the
 * coordinator's last status stays `stoppedByDelegate`. Says why, as far as the stream tells.
 */
export function endedWhileWaiting(model: Model, run: Run): EndedWhileWaiting | undefined {
	const end = model.inputEnd;
	if (!end || run.status !== 'stoppedByDelegate' || run.resumedByRunId !== null) return undefined;
	let failed: Run | undefined;
	for (const childId of run.childRunIds) {
		const child = model.runs.get(childId);
		if (!child) continue;
		const status = shownStatus(child);
		if (isLive(status)) return undefined;
		if (!failed && (status === 'stoppedByError' || status === 'stoppedByExceededMaxSteps')) failed = child;
	}

	const why = failed
		? `${failed.expertKey} ${failed.status === 'stoppedByError' ? `failed: ${failed.error ? `${failed.error.name}: ${failed.error.message}` : 'error'}` : 'stopped at max steps'}`
		: 'it was never resumed';
	const command = end.exitCode === undefined ? '' : `; the command exited ${end.exitCode}${end.lastStderr ? `: ${end.lastStderr}` : ''}`;
	return {failedRunId: failed?.runId ?? null, reason: `${why}${command}`};
}

export function shownStatus(run: Run): RunStatus {
	if (run.status === 'init' && (run.steps.length > 0 || run.streams.size > 0 || run.activityCount > 1)) return 'proceeding';
	return run.status;
}

export function isLive(status: RunStatus): boolean {
	return status === 'init' || status === 'proceeding';
}
