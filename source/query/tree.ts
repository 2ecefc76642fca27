import type {RunStatus, Usage} from '../model/events.js';
import {paneDepth} from '../model/depth.js';
import {addUsage, zeroUsage} from '../model/usage.js';
import {hasEndedStep} from '../model/run-collections.js';
import type {Job, Model, Pane, Run, StepStream} from '../model/state.js';
import {span} from '../text/format.js';

/*
 * Derived views of the model: the delegation tree, depths, and job totals. Nothing here is stored, so
 * it can never disagree with the runs it is derived from.
 */

export type PaneNode = {
	pane: Pane;
	depth: number;
	/** The pane's first run names a parent that is not in the model (a partial log). */
	orphan: boolean;
	/** The pane's first run's parent link would close a delegation cycle, so the pane is shown as a root. */
	cycle: boolean;
};

/**
 * Whether a pane is shown at the top of its job: it has no parent, its parent is missing, or its link to its
 * parent would close a delegation cycle (`Run.closesCycle`).
 */
export function isRootPane(model: Model, pane: Pane): boolean {
	return startsRoot(model, model.runs.get(pane.paneId));
}

/** `isRootPane` of the pane whose first run is `first` (undefined: not in the model). */
function startsRoot(model: Model, first: Run | undefined): boolean {
	if (!first || first.parentRunId === null || first.closesCycle) return true;
	return !model.runs.has(first.parentRunId);
}

/** How a root pane is marked: `orphan` when its parent is missing, `cycle` when its link would close a cycle. */
export function rootMarks(model: Model, pane: Pane): {orphan: boolean; cycle: boolean} {
	const first = model.runs.get(pane.paneId);
	const cycle = first?.closesCycle ?? false;
	return {orphan: !cycle && first !== undefined && first.parentRunId !== null && !model.runs.has(first.parentRunId), cycle};
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
		// Whether the pane is a root asked first, of the run itself where it is its pane's first (most are): a model
		// keeping runs as records makes a view of a run or pane at each read, and most panes of a wide job are not roots.
		// A pane is kept under its own id (reduce/runs.ts, `newRun`), so `run.paneId` is the pane's `paneId`.
		if (!startsRoot(model, run.paneId === runId ? run : model.runs.get(run.paneId))) continue;
		const pane = model.panes.get(run.paneId);
		if (!pane) continue;
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
	const visit = (root: Pane, marks: {orphan: boolean; cycle: boolean}) => {
		const stack: PaneNode[] = [{pane: root, depth: 0, ...marks}];
		while (stack.length > 0) {
			const node = stack.pop()!;
			if (visited.has(node.pane.paneId)) continue;
			visited.add(node.pane.paneId);
			out.push(node);
			const children = childPanes(model, node.pane);
			for (let i = children.length - 1; i >= 0; i--) stack.push({pane: children[i]!, depth: node.depth + 1, orphan: false, cycle: false});
		}
	};

	for (const pane of rootPanes(model, job)) visit(pane, rootMarks(model, pane));

	// The reducer breaks delegation cycles, so every pane is reachable from a root; should one not be, it is
	// still shown, at the top, never dropped.
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		const pane = run ? model.panes.get(run.paneId) : undefined;
		if (pane && !visited.has(pane.paneId)) visit(pane, {orphan: false, cycle: true});
	}

	return out;
}

/**
 * Runs of a job in tree order, as they happened: a run, then the runs it delegated to (depth first), then
 * the run that resumed it when its delegates returned, and so on.
 */
export function runsInTreeOrder(model: Model, job: Job): Run[] {
	return [...eachRunInTreeOrder(model, job)];
}

/**
 * `runsInTreeOrder` one run at a time, for a reader that writes each as it comes (a summary of 200,000 runs need
 * not hold them all). The panes are entered in the order `panesInTreeOrder` gives them: the roots, each followed
 * by what is under it, then whatever no root reaches, in the order of the job's runs.
 */
export function* eachRunInTreeOrder(model: Model, job: Job): Generator<Run> {
	const visited = new Set<string>();
	// Where the walk is in each open pane: its runs, which of them, which of that run's children, and that run as
	// read. Each read once for the pane or the run: a model keeping runs as records makes a view of a run at each
	// read, and a pane's view a new list of its runs. An explicit stack, because delegations can nest deeper than
	// the call stack goes.
	const stack: Array<{paneId: string; runIds: readonly string[]; run: number; child: number; current: Run | undefined}> = [];
	const enter = (pane: Pane, first: Run | undefined) => {
		const {paneId, runIds} = pane;
		if (visited.has(paneId)) return;
		visited.add(paneId);
		// A child's pane mostly starts with the child itself, just read.
		stack.push({paneId, runIds, run: 0, child: -1, current: first !== undefined && runIds[0] === first.runId ? first : undefined});
	};

	for (const pane of startingPanes(model, job, visited)) {
		enter(pane, undefined);
		while (stack.length > 0) {
			const frame = stack[stack.length - 1]!;
			// Lengths compared rather than a read past the end: such a read (undefined) threw the optimised walk
			// away again and again ("out of bounds", docs/performance.md).
			const {runIds} = frame;
			if (frame.run >= runIds.length) {
				stack.pop();
				continue;
			}

			const run = frame.current ?? model.runs.get(runIds[frame.run]!);
			if (!run) {
				frame.run++;
				continue;
			}

			frame.current = run;

			if (frame.child === -1) {
				yield run;
				frame.child = 0;
			}

			const {childRunIds} = run;
			if (frame.child >= childRunIds.length) {
				frame.run++;
				frame.child = -1;
				frame.current = undefined;
				continue;
			}

			const childId = childRunIds[frame.child]!;
			frame.child++;
			const child = model.runs.get(childId);
			const childPane = child ? model.panes.get(child.paneId) : undefined;
			if (childPane && childPane.paneId !== frame.paneId) enter(childPane, child);
		}
	}
}

/**
 * The panes a walk of the job starts from, as `panesInTreeOrder` meets them outside the walk under each: the
 * root panes, then the panes of the job's runs not visited yet (looked at only once the walks before have
 * visited what they reach).
 */
function* startingPanes(model: Model, job: Job, visited: ReadonlySet<string>): Generator<Pane> {
	yield* rootPanes(model, job);
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		// Visited asked before the pane is read: a pane is kept under its own id (see `rootPanes`), and a model keeping
		// runs as records makes a view of the pane at each read.
		const pane = run && !visited.has(run.paneId) ? model.panes.get(run.paneId) : undefined;
		if (pane) yield pane;
	}
}

/** Delegation depth of a run (0 for a root); remembered on the model, so a deep chain is walked once (model/depth.ts). */
export function depthOf(model: Model, run: Run): number {
	const pane = model.panes.get(run.paneId);
	return pane ? paneDepth(model, pane) : 0;
}

export function runSteps(run: Run): number {
	return run.endedSteps.length;
}

/**
 * How long the run took: from its first event to its end (or its last event so far), or what its runtime reported
 * (`Run.reportedDurationMs`, Claude Code's and Amp's turns) where that is longer: where no event has a time, or
 * only some do (2.1's assistant lines carry none), its times cover less of the turn than the CLI counted.
 */
export function runDurationMs(run: Run): number | undefined {
	return atLeast(span(run.startedAt, run.endedAt ?? run.lastEventAt), run.reportedDurationMs);
}

/** The longer of a span of times and a reported duration, either of which may be unknown. */
export function atLeast(timed: number | undefined, reported: number | undefined): number | undefined {
	return timed === undefined ? reported : reported === undefined ? timed : Math.max(timed, reported);
}

export type JobTotals = {
	/** The coordinator's status (its last checkpoint's). */
	status: RunStatus;
	/**
	 * Why the job failed, once the input has ended and it will not go on: its coordinator failed, waits for
	 * delegates that will never return (`endedWhileWaiting`), or a run of it ended without a final event.
	 */
	failure: string | undefined;
	/**
	 * The job's step counter, as the runtime counts toward its max steps: Perstack numbers steps across the whole
	 * job (parallel delegates share numbers), so it is the highest step that ended; other runtimes count per run.
	 */
	steps: number;
	/** Steps run, summed over the runs: more than `steps` where delegates ran in parallel or a job branched. */
	stepsRun: number;
	usage: Usage;
	/** The latest run without a parent: the coordinator as it stands now. */
	coordinator: Run | undefined;
	startedAt: number | undefined;
	endedAt: number | undefined;
	/**
	 * What its runtime reported its top-level runs took, added up (`Run.reportedDurationMs`; undefined when none
	 * did): the least the job lasted, and all there is of its duration where its events carry no time (`jobDurationMs`).
	 */
	reportedDurationMs: number | undefined;
};

/** From the job's first event to its last, or what its runtime reported its turns took where that is longer (`runDurationMs`). */
export function jobDurationMs(totals: Pick<JobTotals, 'startedAt' | 'endedAt' | 'reportedDurationMs'>): number | undefined {
	return atLeast(span(totals.startedAt, totals.endedAt), totals.reportedDurationMs);
}

export function jobTotals(model: Model, job: Job): JobTotals {
	let steps = 0;
	let highestStep = 0;
	let perstackOnly = true;
	let cut: Run | undefined;
	let usage = zeroUsage;
	let coordinator: Run | undefined;
	// A child run's directory opened on its own (`jobs/<job>/runs/<child>`) has no root run: the topmost run
	// that is there stands for the job, so the status comes from the events read, not `init`.
	let topmost: Run | undefined;
	let startedAt: number | undefined;
	let endedAt: number | undefined;
	let reportedDurationMs: number | undefined;
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		steps += runSteps(run);
		if (run.dialect !== 'perstack') perstackOnly = false;
		const last = run.endedSteps.at(-1);
		if (last !== undefined && last > highestStep) highestStep = last;
		if (!cut && endedWithoutFinalEvent(model, run)) cut = run;
		usage = addUsage(usage, run.usage);
		if (run.parentRunId === null) coordinator = run;
		else if (!model.runs.has(run.parentRunId)) topmost = run;
		if (run.startedAt !== undefined && (startedAt === undefined || run.startedAt < startedAt)) startedAt = run.startedAt;
		const lastAt = run.endedAt ?? run.lastEventAt;
		if (lastAt !== undefined && (endedAt === undefined || lastAt > endedAt)) endedAt = lastAt;
		if (run.reportedDurationMs !== undefined && run.parentRunId === null) reportedDurationMs = (reportedDurationMs ?? 0) + run.reportedDurationMs;
	}

	coordinator ??= topmost;
	return {
		status: coordinator?.status ?? 'init',
		failure: jobFailure(model, coordinator, cut),
		steps: perstackOnly ? highestStep : steps,
		stepsRun: steps,
		usage,
		coordinator,
		startedAt,
		endedAt,
		reportedDurationMs,
	};
}

/** Why a job failed (see `JobTotals.failure`); `cut` is a run of it that ended without a final event. */
export function jobFailure(model: Model, coordinator: Run | undefined, cut: Run | undefined): string | undefined {
	if (model.inputEnd === undefined || !coordinator) return undefined;
	if (coordinator.status === 'stoppedByError')
		return `${coordinator.expertKey} failed${coordinator.error ? `: ${coordinator.error.name}: ${coordinator.error.message}` : ''}`;
	const ended = endedWhileWaiting(model, coordinator);
	if (ended) return `ended while waiting for delegates: ${ended.reason}`;
	if (cut) return `${cut.expertKey} ended without a final event`;
	return undefined;
}

/** `4 steps`, and `· 6 steps run` after it where the runs' steps add up to more (parallel delegates, branches). */
export function jobStepsText(totals: Pick<JobTotals, 'steps' | 'stepsRun'>): string {
	const counted = `${totals.steps} step${totals.steps === 1 ? '' : 's'}`;
	return totals.stepsRun === totals.steps ? counted : `${counted} · ${totals.stepsRun} step${totals.stepsRun === 1 ? '' : 's'} run`;
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
 * A run that waits for its delegates when the input has ended will never be
 * resumed: when a delegate fails, the runtime aborts the whole job ("Delegation error", exit 1) and the
 * coordinator's last status stays `stoppedByDelegate`. Says why, as far as the stream tells.
 */
export function endedWhileWaiting(model: Model, run: Run): EndedWhileWaiting | undefined {
	const end = model.inputEnd;
	// A resumed run still standing on the checkpoint it resumed from was running, not waiting (`shownStatus`).
	if (!end || run.status !== 'stoppedByDelegate' || run.resumedByRunId !== null || isResumeStarting(run)) return undefined;
	let failed: Run | undefined;
	// With the input ended, a delegate that still stands as running will not go on either (`endedWithoutFinalEvent`).
	let cut: Run | undefined;
	for (const childId of run.childRunIds) {
		const child = model.runs.get(childId);
		if (!child) continue;
		const status = shownStatus(child);
		if (!cut && isLive(status)) cut = child;
		if (!failed && (status === 'stoppedByError' || status === 'stoppedByExceededMaxSteps')) failed = child;
	}

	const why = failed
		? `${failed.expertKey} ${failed.status === 'stoppedByError' ? `failed: ${failed.error ? `${failed.error.name}: ${failed.error.message}` : 'error'}` : 'stopped at max steps'}`
		: cut
			? `${cut.expertKey} ended without a final event`
			: 'it was never resumed';
	const command = end.exitCode === undefined ? '' : `; the command exited ${end.exitCode}${end.lastStderr ? `: ${end.lastStderr}` : ''}`;
	return {failedRunId: failed?.runId ?? null, reason: `${why}${command}`};
}

export function shownStatus(run: Run): RunStatus {
	if (run.status === 'init' && (run.steps.length > 0 || run.streams.size > 0 || run.activityCount > 1)) return 'proceeding';
	if (isResumeStarting(run)) return 'proceeding';
	return run.status;
}

/**
 * A run that resumes another (its delegates returned, a person answered) starts from the checkpoint the other
 * stopped at, so its status is that checkpoint's (`stoppedByDelegate`, `stoppedByInteractiveTool`) until it
 * ends a step of its own; it is running all the while, not waiting. Once it stops again, the stop is its own
 * (its status step is one it ended).
 */
function isResumeStarting(run: Run): boolean {
	if (run.resumesRunId === null) return false;
	if (run.status !== 'stoppedByDelegate' && run.status !== 'stoppedByInteractiveTool') return false;
	return !hasEndedStep(run, run.statusStep);
}

export function isLive(status: RunStatus): boolean {
	return status === 'init' || status === 'proceeding';
}

/**
 * The input has ended (not `--follow`: every source closed) while the run still stood as running: no final
 * event will come, so it is not running any more, and how it ended is not known (the process was killed, the
 * log was cut). Uses the same notion of "input ended" as `endedWhileWaiting`.
 */
export function endedWithoutFinalEvent(model: Model, run: Run): boolean {
	return model.inputEnd !== undefined && isLive(shownStatus(run));
}

/** What a run was writing when the input ended without its final event: the newest step's streams that never completed. */
export type CutOff = {step: number; answer: string | undefined; reasoning: string | undefined};

/** The answer and reasoning a run killed mid-answer had written, whole as far as streamed; undefined when it wrote none. */
export function cutOffText(model: Model, run: Run): CutOff | undefined {
	if (!endedWithoutFinalEvent(model, run)) return undefined;
	let latest: StepStream | undefined;
	for (const stream of run.streams.values()) if (!latest || stream.step > latest.step) latest = stream;
	if (!latest) return undefined;
	const answer = latest.result.isComplete || latest.result.isEmpty ? undefined : latest.result.text;
	const reasoning = latest.reasoning.isComplete || latest.reasoning.isEmpty ? undefined : latest.reasoning.text;
	return answer === undefined && reasoning === undefined ? undefined : {step: latest.step, answer, reasoning};
}

/** Whether any run of the job is still going (a coordinator waiting for its delegates is not, they are). */
export function hasLiveRun(model: Model, job: Job): boolean {
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		if (run && isLive(shownStatus(run))) return true;
	}

	return false;
}
