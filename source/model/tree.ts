import type {RunStatus, Usage} from './events.js';
import {zeroUsage} from './normalise.js';
import {addUsage} from './reduce.js';
import type {Job, Model, Pane, Run} from './state.js';

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

/** Every pane of a job, depth first. Guards against cycles that a malformed log could create. */
export function panesInTreeOrder(model: Model, job: Job): PaneNode[] {
	const out: PaneNode[] = [];
	const visited = new Set<string>();
	const visit = (pane: Pane, depth: number, orphan: boolean) => {
		if (visited.has(pane.paneId)) return;
		visited.add(pane.paneId);
		out.push({pane, depth, orphan});
		for (const child of childPanes(model, pane)) visit(child, depth + 1, false);
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
	const visitPane = (pane: Pane) => {
		if (visited.has(pane.paneId)) return;
		visited.add(pane.paneId);
		for (const runId of pane.runIds) {
			const run = model.runs.get(runId);
			if (!run) continue;
			out.push(run);
			for (const childId of run.childRunIds) {
				const child = model.runs.get(childId);
				const childPane = child ? model.panes.get(child.paneId) : undefined;
				if (childPane && childPane.paneId !== pane.paneId) visitPane(childPane);
			}
		}
	};

	for (const {pane} of panesInTreeOrder(model, job)) visitPane(pane);
	return out;
}

/** Delegation depth of a run (0 for a root). */
export function depthOf(model: Model, run: Run): number {
	let depth = 0;
	let current: Run | undefined = model.runs.get(run.paneId) ?? run;
	const seen = new Set<string>();
	while (current && current.parentRunId !== null && !seen.has(current.runId)) {
		seen.add(current.runId);
		const parent = model.runs.get(current.parentRunId);
		if (!parent) break;
		depth++;
		current = model.runs.get(parent.paneId) ?? parent;
	}

	return depth;
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
export function shownStatus(run: Run): RunStatus {
	if (run.status === 'init' && (run.steps.length > 0 || run.streams.size > 0 || run.activityCount > 1)) return 'proceeding';
	return run.status;
}

export function isLive(status: RunStatus): boolean {
	return status === 'init' || status === 'proceeding';
}
