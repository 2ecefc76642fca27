/*
 * Jobs, runs and panes: making a run, the status and times every event of it moves, and the links of the run
 * tree (a child to its parent and its delegating activity, a resumed run's pane joined to the one it resumes),
 * with the cycle check and the depths those links keep right (docs/model-rules.md).
 */
import {closedRunStatuses, type AgentEvent, type RunStatus} from '../events.js';
import {appended, sharedEmptyList, sharedStreams} from '../run-collections.js';
import {zeroUsage} from '../usage.js';
import {releasedActivity, type Model, type Pane, type Run} from '../state.js';
import {callEntries, callOf} from '../call-index.js';
import {livePane, liveRun} from '../storage/run-store.js';
import {awaitDelegation, takeWaitingChildren} from '../waiting-children.js';
import {attachChild, callIndex, ensureJob, setCallIndex} from './activities.js';

export function newRun(model: Model, runId: string, wantedJobId: string, expertKey: string, event: AgentEvent): Run {
	const job = ensureJob(model, wantedJobId, event.timestamp);
	// The job's own id string, not the copy each parsed line brings: a job of 200,000 runs would keep 200,000.
	const {jobId} = job;
	const run: Run = {
		runId,
		jobId,
		expertKey,
		dialect: event.dialect,
		model: model.runtime.get(runId)?.model,
		paneId: runId,
		parentRunId: null,
		delegatingActivityId: null,
		delegatedBy: undefined,
		resumesRunId: null,
		resumedByRunId: null,
		resumedFrom: null,
		started: false,
		status: 'init',
		statusStep: -Infinity,
		endedSteps: sharedEmptyList(),
		usage: zeroUsage,
		startedAt: event.timestamp,
		endedAt: undefined,
		lastEventAt: event.timestamp,
		reportedDurationMs: undefined,
		currentStep: event.step,
		activityCount: 0,
		unsettled: sharedEmptyList(),
		closing: 0,
		error: undefined,
		pendingToolCallIds: sharedEmptyList(),
		childRunIds: sharedEmptyList(),
		adoptedBy: null,
		closesCycle: false,
		query: undefined,
		steps: sharedEmptyList(),
		stepIndex: undefined,
		streams: sharedStreams,
		messageSource: undefined,
		rev: 0,
	};
	model.runs.set(runId, run);
	job.runIds.push(runId);
	model.panes.set(runId, {
		paneId: runId,
		jobId,
		runIds: [runId],
		activityIndices: sharedEmptyList(),
		lastActivityId: null,
		depth: 0,
		depthEpoch: model.depthEpoch,
		rev: 0,
	});
	adoptWaitingChildren(model, run);
	return run;
}

export function touch(run: Run, event: AgentEvent): void {
	run.rev++;
	if (event.timestamp !== undefined) {
		if (run.startedAt === undefined || event.timestamp < run.startedAt) run.startedAt = event.timestamp;
		if (run.lastEventAt === undefined || event.timestamp > run.lastEventAt) run.lastEventAt = event.timestamp;
	}

	if (run.expertKey === run.runId && event.expertKey !== undefined) run.expertKey = event.expertKey;
}

/** `model` is given where the change is reported (`Model.statusChanges`). */
export function setStatus(model: Model | undefined, run: Run, status: RunStatus, step: number | undefined): void {
	const at = step ?? run.statusStep;
	// A late checkpoint of an earlier step must not undo a later one (real streams arrive out of order).
	if (at < run.statusStep) return;
	if (run.status !== status) model?.statusChanges?.push(run.runId);
	run.statusStep = at;
	run.status = status;
	// A run's streaming text is for its activities, which a model that keeps figures only lets go: once the run has
	// ended, nothing reads it (a late stream event makes a stream anew). A fleet of small jobs keeps thousands.
	if (model?.figuresOnly && closedRunStatuses.has(status)) run.streams = sharedStreams;
}

export function linkParent(model: Model, child: Run, parentRunId: string, parentExpertKey: string | undefined, toolCallId: string | undefined): void {
	if (child.parentRunId === parentRunId || parentRunId === child.runId) return;
	child.parentRunId = parentRunId;
	model.treeRev++;
	const parent = liveRun(model, parentRunId);
	child.delegatedBy = delegatedByOf(model, parent, parentExpertKey ?? parentRunId, parentRunId);
	if (parent) adoptChild(model, parent, child);
	else awaitParent(model, child);
	// A link that would close a cycle is not followed: the delegation does not list the child either.
	if (toolCallId === undefined || child.closesCycle) return;
	const index = parent ? callIndex(model, parent, toolCallId) : undefined;
	const activity = index === undefined ? undefined : model.activities[index];
	if (activity?.type === 'delegate') {
		attachChild(model, activity, child);
		return;
	}

	// The child's events came before the parent's delegation: attach when the delegation shows up.
	awaitDelegation(model, parentRunId, toolCallId, child.runId);
}

/**
 * Who delegated a child, as its `delegatedBy` says. Nothing changes one once made, so children of the same
 * parent share it: a coordinator of 200,000 children would otherwise make 200,000 equal objects.
 */
function delegatedByOf(model: Model, parent: Run | undefined, fallbackExpertKey: string, parentRunId: string): {expertKey: string; runId: string} {
	const expertKey = parent?.expertKey ?? fallbackExpertKey;
	const lastChildId = parent?.childRunIds.at(-1);
	// Read only: a run kept as a record is read through a view, not taken out of its record (storage/).
	const previous = lastChildId === undefined ? undefined : model.runs.get(lastChildId)?.delegatedBy;
	if (previous && previous.expertKey === expertKey && previous.runId === parentRunId) return previous;
	return {expertKey, runId: parentRunId};
}

export function adoptChild(model: Model, parent: Run, child: Run): void {
	// The run whose link closes a cycle is where the cycle is broken (docs/model-rules.md).
	const cycle = closesCycle(model, parent, child);
	if (cycle !== child.closesCycle) {
		child.closesCycle = cycle;
		child.rev++;
		model.treeRev++;
	}

	if (cycle) {
		model.depthEpoch++;
		return;
	}

	// `adoptedBy` spares a scan of the parent's children: one run can delegate to a hundred thousand.
	if (child.adoptedBy !== parent.runId) {
		if (child.adoptedBy === null || !parent.childRunIds.includes(child.runId)) {
			parent.childRunIds = appended(parent.childRunIds, child.runId);
			parent.rev++;
		}

		child.adoptedBy = parent.runId;
		child.rev++;
	}

	// A child is shown in its parent's tree, so it must be a run of the parent's job. They differ when the
	// child's job was made up before the parent was seen (drover and daemon name jobs by their root run).
	if (child.jobId !== parent.jobId) moveToJob(model, child, parent.jobId);
	linkedDepth(model, parent, child);
}

/**
 * Keeps depths right after a link (see model/depth.ts). A run that arrives under its parent with nothing under
 * it yet, as runs do in a log written in order, gets its depth at once from its parent's; a link that moves a
 * pane with runs under it makes every remembered depth stale, to be worked out again when asked, so a chain
 * that arrives leaves first costs one walk when its depths are asked for, not one per run.
 */
function linkedDepth(model: Model, parent: Run, child: Run): void {
	const pane = livePane(model, child.paneId);
	if (!pane || pane.paneId !== child.runId) return;
	if (paneHasChildren(model, pane)) {
		model.depthEpoch++;
		return;
	}

	const parentPane = livePane(model, parent.paneId);
	if (parentPane && parentPane.depthEpoch === model.depthEpoch) {
		pane.depth = parentPane.depth + 1;
		pane.depthEpoch = model.depthEpoch;
	} else {
		pane.depthEpoch = -1;
	}
}

/**
 * Whether making `child` a child of `parent` would close a cycle: the parent is the child's own pane or one
 * below it. A pane with no children yet is below nothing, which spares the walk up for runs that arrive in
 * order, however deep the chain.
 */
function closesCycle(model: Model, parent: Run, child: Run): boolean {
	const childPane = livePane(model, child.paneId);
	if (parent.paneId === child.paneId) return true;
	if (!childPane || !paneHasChildren(model, childPane)) return false;
	const seen = new Set<string>();
	let current: Run | undefined = parent;
	while (current) {
		if (current.paneId === child.paneId) return true;
		if (seen.has(current.paneId)) return false;
		seen.add(current.paneId);
		// Read only, as in paneHasChildren.
		const head: Run = model.runs.get(current.paneId) ?? current;
		if (head.parentRunId === null || head.closesCycle) return false;
		current = model.runs.get(head.parentRunId);
	}

	return false;
}

function paneHasChildren(model: Model, pane: Pane): boolean {
	// Read only: runs kept as records are read through views (storage/), not taken out of their records.
	for (const runId of pane.runIds) if ((model.runs.get(runId)?.childRunIds.length ?? 0) > 0) return true;
	return false;
}

export function awaitParent(model: Model, child: Run): void {
	if (child.parentRunId === null) return;
	const waiting = model.runsAwaitingParent.get(child.parentRunId);
	if (waiting) waiting.push(child.runId);
	else model.runsAwaitingParent.set(child.parentRunId, [child.runId]);
}

/** Runs whose parent was seen after them: adopt them now. */
function adoptWaitingChildren(model: Model, parent: Run): void {
	const waiting = model.runsAwaitingParent.get(parent.runId);
	if (!waiting) return;
	model.runsAwaitingParent.delete(parent.runId);
	// The children link to their parent now: the tree's shape changes (a root becomes a child).
	model.treeRev++;
	for (const childId of waiting) {
		const child = liveRun(model, childId);
		// A later event may have named another parent since.
		if (child && child.parentRunId === parent.runId) adoptChild(model, parent, child);
	}
}

/** Moves a run, with the runs shown with it (its pane, and everything under it), to another job. */
function moveToJob(model: Model, run: Run, jobId: string): void {
	const pending: Run[] = [run];
	while (pending.length > 0) {
		const current = pending.pop()!;
		if (current.jobId === jobId) continue;
		const previous = model.jobs.get(current.jobId);
		if (previous) {
			const index = previous.runIds.indexOf(current.runId);
			if (index !== -1) previous.runIds.splice(index, 1);
		}

		current.jobId = jobId;
		current.rev++;
		ensureJob(model, jobId, current.startedAt).runIds.push(current.runId);
		const pane = livePane(model, current.paneId);
		if (pane) {
			pane.jobId = jobId;
			pane.rev++;
		}

		for (const id of [...(pane?.runIds ?? []), ...current.childRunIds]) {
			const next = liveRun(model, id);
			if (next && next.jobId !== jobId) pending.push(next);
		}
	}
}

export function joinPane(model: Model, run: Run, resumed: Run): void {
	const ownPane = livePane(model, run.paneId);
	const target = livePane(model, resumed.paneId);
	if (!target || ownPane === target) return;
	// A pane is shown in one job's tree: a run that resumes one of another job (a malformed log) moves there.
	if (run.jobId !== target.jobId) moveToJob(model, run, target.jobId);
	// Every run of the joining pane comes along, not only this one: out of order, another run may already
	// have resumed this one, and it must not be left pointing at a pane that no longer exists.
	model.treeRev++;
	const moved = ownPane?.runIds ?? [run.runId];
	for (const runId of moved) {
		const member = liveRun(model, runId);
		if (member) member.paneId = target.paneId;
		if (!target.runIds.includes(runId)) target.runIds.push(runId);
	}

	if (ownPane) {
		// Activities made before the resume was known (out-of-order events) move over to the joined pane.
		for (const index of ownPane.activityIndices) {
			target.activityIndices = appended(target.activityIndices, index);
			const activity = model.activities[index];
			if (!activity || activity === releasedActivity || !('toolCallId' in activity)) continue;
			if (callOf(model.toolCalls.get(target.paneId), activity.toolCallId) === undefined) setCallIndex(model, target.paneId, activity.toolCallId, index);
		}

		moveReleasedCalls(model, ownPane.paneId, target.paneId);
		model.toolCalls.delete(ownPane.paneId);

		model.panes.delete(ownPane.paneId);
	}

	target.rev++;
	// The runs that came along may bring children, which now hang one below the joined pane.
	if (moved.some(runId => (liveRun(model, runId)?.childRunIds.length ?? 0) > 0)) model.depthEpoch++;
}

/**
 * The calls a pane let go are found in the pane it joins, as their activities would be (`Model.figuresOnly`; the
 * viewer's load worker lets posted ones go too: load/viewer/change-tracker.ts).
 */
function moveReleasedCalls(model: Model, fromPaneId: string, toPaneId: string): void {
	const calls = model.toolCalls.get(fromPaneId);
	if (!calls) return;
	for (const [toolCallId, index] of callEntries(calls)) {
		if (model.activities[index] === releasedActivity && callOf(model.toolCalls.get(toPaneId), toolCallId) === undefined)
			setCallIndex(model, toPaneId, toolCallId, index);
	}
}

export function adoptOrphans(model: Model, run: Run, toolCallId: string): void {
	const waiting = takeWaitingChildren(model, run.runId, toolCallId);
	if (!waiting) return;
	const index = callIndex(model, run, toolCallId);
	const activity = index === undefined ? undefined : model.activities[index];
	if (activity?.type !== 'delegate') return;
	for (const childId of waiting) {
		const child = liveRun(model, childId);
		if (child) attachChild(model, activity, child);
	}
}
