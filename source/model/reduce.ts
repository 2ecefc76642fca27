import {closedRunStatuses, type AgentEvent, type CheckpointInfo, type Diagnostic, type RunStatus, type ToolCall, type ToolResult, type Usage} from './events.js';
import {addEndedStep, addStepRecord, appended, hasEndedStep, setStream, sharedEmptyList, sharedStreams, stepRecordOf} from './run-collections.js';
import {addUsage, subtractUsage, zeroUsage} from './usage.js';
import {
	baseToolTypes,
	closingComplete,
	closingError,
	isToolActivity,
	maxSkillStderrLineLength,
	maxSkillStderrLines,
	maxSkillTransitions,
	maxStoredDiagnostics,
	maxUnknownTypeLength,
	maxUnknownTypes,
	otherUnknownTypes,
	releasedActivity,
	type Activity,
	type BaseToolType,
	type DelegateActivity,
	type Job,
	type Model,
	type Pane,
	type Run,
	type StepRecord,
	type StepStream,
	type ToolActivity,
	type ToolActivityType,
	type ToolOutcome,
} from './state.js';
import {shortened, TextAccumulator} from './text-accumulator.js';
import {assertNever} from './assert-never.js';
import {rememberMessageLine} from './message-lines.js';
import {activityObject, type ActivityFields, type CommonFields} from './activity-object.js';
import {addId} from './id-table.js';
import {callEntries, callOf, withCall} from './call-index.js';
import {compactTouched, livePane, liveRun, startRows} from './run-tables.js';
import {awaitDelegation, takeWaitingChildren} from './waiting-children.js';

/*
 * The one place the model changes. `reduce` folds an event into the model in place: the model can hold
 * hundreds of thousands of activities, and copying it per event would make loading quadratic. It is still
 * deterministic and free of I/O: the same events in the same order always give the same model. Views
 * detect change through the `rev` counters on the model, runs and panes.
 */

const baseSkill = '@perstack/base';
const baseTools: ReadonlySet<string> = new Set(baseToolTypes);
/** How many steps of streaming text a run keeps; older text already lives in its activities. */
const keptStreamSteps = 3;

export function reduce(model: Model, event: AgentEvent): void {
	startRows(model);
	reduceEvent(model, event);
	compactTouched(model);
}

function reduceEvent(model: Model, wireEvent: AgentEvent): void {
	// The run a released-CLI event belongs to is a segment of its run id (run-segments.ts); nothing changes otherwise.
	const event = model.runSegments.route(model, wireEvent);
	// Events are counted as lines: the further events one line made are not counted again.
	if (event.continuesLine !== true) model.events++;
	model.rev++;
	if (event.timestamp !== undefined) {
		if (model.firstTimestamp === undefined || event.timestamp < model.firstTimestamp) model.firstTimestamp = event.timestamp;
		if (model.lastTimestamp === undefined || event.timestamp > model.lastTimestamp) model.lastTimestamp = event.timestamp;
	}

	switch (event.kind) {
		case 'unknown':
			countUnknown(model, event.wireType);
			return;
		case 'runtimeInit':
			onRuntimeInit(model, event);
			return;
		case 'skill':
			onSkill(model, event);
			return;
		case 'skillStderr':
			onSkillStderr(model, event);
			return;
		case 'docker':
			model.docker.set(event.service, {
				service: event.service,
				stage: event.stage ?? model.docker.get(event.service)?.stage,
				status: event.status ?? model.docker.get(event.service)?.status,
				message: event.message,
				progress: event.progress,
				updatedAt: event.timestamp,
			});
			return;
		case 'proxy':
			if (event.action === 'blocked') model.proxy.blocked++;
			else model.proxy.allowed++;
			model.proxy.last = {action: event.action, domain: event.domain, port: event.port, reason: event.reason};
			return;
		case 'runStart':
			onRunStart(model, event, wireEvent.runId);
			return;
		case 'childRunStart':
			onChildRunStart(model, event);
			return;
		case 'reportedCost':
			onReportedCost(model, event);
			return;
		// The events of a run, handled below once their run is found.
		case 'stepStart':
		case 'toolCalls':
		case 'toolResults':
		case 'stepEnd':
		case 'retry':
		case 'stream':
		case 'usage':
		case 'runEnd':
		case 'runError':
		case 'query':
		case 'marker':
			break;
		default:
			return assertNever(event);
	}

	const run = targetRun(model, event);
	if (!run) return;
	touch(run, event);
	switch (event.kind) {
		case 'stepStart':
			onStepStart(model, run, event);
			return;
		case 'toolCalls':
			onToolCalls(model, run, event);
			return;
		case 'toolResults':
			onToolResults(model, run, event);
			return;
		case 'stepEnd':
			onStepEnd(model, run, event);
			return;
		case 'retry':
			addActivity(model, run, event, {type: 'retry', reason: event.reason}, true);
			return;
		case 'stream':
			onStream(model, run, event);
			return;
		case 'usage':
			run.usage = addUsage(run.usage, event.usage);
			return;
		case 'runEnd':
			onRunEnd(model, run, event);
			return;
		case 'runError': {
			// A warning is shown as an error activity, but neither fails the run nor stands for how it ended.
			const closing = run.closing;
			if (event.warning !== true) run.error = {name: event.name, message: event.message};
			addActivity(model, run, event, {type: 'error', errorName: event.name, message: event.message}, true);
			if (event.warning === true) run.closing = closing;
			return;
		}
		case 'query':
			addQuery(model, run, event, event.text);
			return;
		case 'marker':
			return;
		default:
			return assertNever(event);
	}
}

/**
 * Whether the event was seen before, by its id: a log concatenated with itself, or a tee'd stream merged with
 * its file, repeats events, and one `completeRun` twice must not make two `complete` activities. Perstack's
 * event ids are unique. Streaming events too, though they are most of a log: a repeated one was counted again
 * and went unreported (the id table's one-pass `addId` keeps that cheap: docs/performance.md).
 */
export function isRepeatedEvent(model: Model, event: AgentEvent): boolean {
	if (event.dialect !== 'perstack' || event.id === '') return false;
	return !addId(model.eventIds, event.id);
}

/** Unknown types are counted by name, with names and their number bounded: a log can make up a new one per line. */
function countUnknown(model: Model, wireType: string): void {
	let key = shortened(wireType, maxUnknownTypeLength);
	if (!model.unknownEvents.has(key) && model.unknownEvents.size >= maxUnknownTypes) key = otherUnknownTypes;
	model.unknownEvents.set(key, (model.unknownEvents.get(key) ?? 0) + 1);
}

export function addDiagnostic(model: Model, diagnostic: Diagnostic): void {
	model.diagnosticCount++;
	model.rev++;
	if (model.diagnostics.length < maxStoredDiagnostics) model.diagnostics.push(diagnostic);
}

type EventOf<K extends AgentEvent['kind']> = Extract<AgentEvent, {kind: K}>;

// ---------------------------------------------------------------------------------------------------------
// Jobs, runs and panes

function ensureJob(model: Model, jobId: string, timestamp: number | undefined): Job {
	let job = model.jobs.get(jobId);
	if (!job) {
		job = {jobId, runIds: [], firstSeenAt: timestamp, lastEventAt: timestamp, model: undefined, maxSteps: undefined, runtimeVersion: undefined, reportedCost: undefined};
		model.jobs.set(jobId, job);
	}

	return job;
}

function newRun(model: Model, runId: string, wantedJobId: string, expertKey: string, event: AgentEvent): Run {
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
	model.panes.set(runId, {paneId: runId, jobId, runIds: [runId], activityIndices: sharedEmptyList(), lastActivityId: null, depth: 0, depthEpoch: model.depthEpoch, rev: 0});
	adoptWaitingChildren(model, run);
	return run;
}

/** The run an event belongs to, made up on the spot when its start was never seen (a log cut at the front). */
function targetRun(model: Model, event: AgentEvent): Run | undefined {
	let runId = event.runId;
	if (event.agent !== undefined) {
		const agentRun = model.daemonAgents.get(`${event.runId}\u0000${event.agent}`);
		if (agentRun === undefined) {
			// An agent we never saw start: give it a run of its own under the daemon run.
			return startDaemonStep(model, event, event.agent, undefined);
		}

		runId = agentRun;
	}

	if (runId === '') return undefined;
	const existing = liveRun(model, runId);
	if (existing) return existing;
	const jobId = event.jobId === '' ? runId : event.jobId;
	return newRun(model, runId, jobId, event.expertKey ?? runId, event);
}

function touch(run: Run, event: AgentEvent): void {
	run.rev++;
	if (event.timestamp !== undefined) {
		if (run.startedAt === undefined || event.timestamp < run.startedAt) run.startedAt = event.timestamp;
		if (run.lastEventAt === undefined || event.timestamp > run.lastEventAt) run.lastEventAt = event.timestamp;
	}

	if (run.expertKey === run.runId && event.expertKey !== undefined) run.expertKey = event.expertKey;
}

/** `model` is given where the change is reported (`Model.statusChanges`). */
function setStatus(model: Model | undefined, run: Run, status: RunStatus, step: number | undefined): void {
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

function linkParent(model: Model, child: Run, parentRunId: string, parentExpertKey: string | undefined, toolCallId: string | undefined): void {
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
	// Read only: a run kept as a row is read through a view, not taken out of its row (compact-runs.ts).
	const previous = lastChildId === undefined ? undefined : model.runs.get(lastChildId)?.delegatedBy;
	if (previous && previous.expertKey === expertKey && previous.runId === parentRunId) return previous;
	return {expertKey, runId: parentRunId};
}

function attachChild(model: Model, activity: DelegateActivity, child: Run): void {
	if (!activity.childRunIds.includes(child.runId)) updateActivity(model, activity, {childRunIds: [...activity.childRunIds, child.runId]});
	child.delegatingActivityId = activity.id;
	child.rev++;
	bumpPane(model, child);
}

function adoptChild(model: Model, parent: Run, child: Run): void {
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
	// Read only: runs kept as rows are read through views (compact-runs.ts), not taken out of their rows.
	for (const runId of pane.runIds) if ((model.runs.get(runId)?.childRunIds.length ?? 0) > 0) return true;
	return false;
}

function awaitParent(model: Model, child: Run): void {
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

function bumpPane(model: Model, run: Run): void {
	const pane = livePane(model, run.paneId);
	if (pane) pane.rev++;
}

// ---------------------------------------------------------------------------------------------------------
// Perstack run lifecycle

function onRuntimeInit(model: Model, event: EventOf<'runtimeInit'>): void {
	model.runtime.set(event.runId, {expertName: event.expertName, model: event.model, query: event.query, answer: event.answer});
	// It comes before its run's startRun: a run id in use already may be about to start another segment.
	const targetId = model.runSegments.runtimeTarget(model, event.runId, event.expertName);
	const run = targetId === undefined ? undefined : liveRun(model, targetId);
	if (run && event.model !== undefined && run.model !== event.model) {
		run.model = event.model;
		run.rev++;
	}

	if (event.jobId === '') return;
	const job = ensureJob(model, event.jobId, event.timestamp);
	job.model = event.model ?? job.model;
	job.maxSteps = event.maxSteps ?? job.maxSteps;
	job.runtimeVersion = event.runtimeVersion ?? job.runtimeVersion;
}

const resumableStatuses: ReadonlySet<RunStatus> = new Set(['stoppedByDelegate', 'stoppedByInteractiveTool']);

function onRunStart(model: Model, event: EventOf<'runStart'>, wireRunId: string): void {
	const {checkpoint} = event;
	const jobId = event.jobId === '' ? (liveRun(model, event.runId)?.jobId ?? event.runId) : event.jobId;
	const expertKey = event.expertKey ?? event.runId;
	const isResume = resumableStatuses.has(checkpoint.status);
	const existing = liveRun(model, event.runId);

	if (existing?.started) {
		// The docs' form of resuming: the same runId starts again. It is the same run, with no new query.
		touch(existing, event);
		if (isResume) resumeEffects(model, existing, existing, event);
		return;
	}

	const run = existing ?? newRun(model, event.runId, jobId, expertKey, event);
	run.started = true;
	run.expertKey = expertKey;
	touch(run, event);
	if (run.currentStep === undefined) run.currentStep = event.step;

	const resumed = isResume ? findResumedRun(model, run, checkpoint, wireRunId) : undefined;
	if (resumed) {
		run.resumesRunId = resumed.runId;
		resumed.resumedByRunId = run.runId;
		resumed.rev++;
		joinPane(model, run, resumed);
		if (resumed.parentRunId !== null) {
			run.parentRunId = resumed.parentRunId;
			model.treeRev++;
			run.delegatedBy = resumed.delegatedBy;
			run.delegatingActivityId = resumed.delegatingActivityId;
			const parent = liveRun(model, resumed.parentRunId);
			if (parent) adoptChild(model, parent, run);
			else awaitParent(model, run);
		}
	} else if (isResume && checkpoint.runId !== undefined && checkpoint.runId !== wireRunId) {
		run.resumesRunId = checkpoint.runId;
	}

	if (checkpoint.delegatedBy && run.parentRunId === null) linkDelegatedBy(model, run, checkpoint.delegatedBy, wireRunId);

	// Where the starting checkpoint left off, not something the run did: no status change is reported for it.
	if (run.endedSteps.length === 0 && run.status === 'init') setStatus(undefined, run, checkpoint.status, checkpoint.step);

	if (isResume) {
		resumeEffects(model, run, resumed ?? run, event);
		return;
	}

	// A delegate's checkpoint is its parent's in the released CLI (the run id they share): it starts afresh.
	const fresh = checkpoint.delegatedBy !== undefined || (checkpoint.runId === wireRunId && checkpoint.status === 'init');
	const startedFrom = checkpoint.runId === undefined || fresh ? undefined : startedFromRun(model, checkpoint.runId, run);
	if (startedFrom !== undefined) run.resumedFrom = {runId: startedFrom, checkpointId: checkpoint.id ?? null, stepNumber: checkpoint.step ?? null};

	const query = event.query ?? model.runtime.get(run.runId)?.query;
	if (!model.figuresOnly) run.query = query;
	// A start with no user text (a resume the runtime did not mark as one, a bare test harness) asked nothing.
	if (query !== undefined && query !== '') addActivity(model, run, event, {type: 'query', text: query}, true);
}

/**
 * The stopped run a new run continues, by the rules in docs/model-rules.md: the one that owns the tool calls the
 * new checkpoint answers, else the one its checkpoint names, else the latest stopped run of the same expert. The
 * calls come first because a continued job's checkpoints all keep the job's first run id, whichever run stopped.
 */
function findResumedRun(model: Model, run: Run, checkpoint: CheckpointInfo, wireRunId: string): Run | undefined {
	const job = model.jobs.get(run.jobId);
	// Every run of the job is looked at, read only (through views of those kept as rows: compact-runs.ts); the one
	// resumed is then taken whole.
	const candidates: Run[] = [];
	for (let i = (job?.runIds.length ?? 0) - 1; i >= 0; i--) {
		const candidate = model.runs.get(job!.runIds[i]!);
		if (!candidate || candidate.runId === run.runId || candidate.resumedByRunId !== null) continue;
		if (!resumableStatuses.has(candidate.status)) continue;
		candidates.push(candidate);
	}

	const wanted = new Set(checkpoint.pendingToolCallIds);
	const byCalls = wanted.size === 0 ? undefined : candidates.find(candidate => candidate.pendingToolCallIds.some(id => wanted.has(id)));
	if (byCalls) return liveRun(model, byCalls.runId);
	if (checkpoint.runId !== undefined && checkpoint.runId !== wireRunId) {
		const segments = model.runSegments.segmentsOf(checkpoint.runId);
		const named = segments ? candidates.find(candidate => segments.includes(candidate.runId)) : liveRun(model, checkpoint.runId);
		if (named) return liveRun(model, named.runId);
	}

	const sameExpert = candidates.find(candidate => candidate.expertKey === run.expertKey);
	return sameExpert && liveRun(model, sameExpert.runId);
}

/**
 * The run whose checkpoint a new run started from (`initialCheckpoint.runId`): that run, or, when the id is a
 * released CLI's that several segments share (a follow-up continues its run's id), the newest other segment of
 * the same expert, or of any. Undefined when the checkpoint is the run's own.
 */
function startedFromRun(model: Model, checkpointRunId: string, run: Run): string | undefined {
	const segments = model.runSegments.segmentsOf(checkpointRunId);
	if (!segments) return checkpointRunId === run.runId ? undefined : checkpointRunId;
	let fallback: string | undefined;
	for (let i = segments.length - 1; i >= 0; i--) {
		const id = segments[i]!;
		if (id === run.runId) continue;
		if (model.runs.get(id)?.expertKey === run.expertKey) return id;
		fallback ??= id;
	}

	return fallback;
}

/**
 * Links a delegated run to its parent. Later main names the parent's run; the released CLI names only the
 * checkpoint the parent stopped at for its delegates, which is found when the parent's stop was seen, and
 * otherwise awaited. Without either, a delegate that shares its parent's run id hangs under the newest segment of
 * the parent's expert.
 */
function linkDelegatedBy(model: Model, run: Run, delegatedBy: NonNullable<CheckpointInfo['delegatedBy']>, wireRunId: string): void {
	const {expertKey, toolCallId, checkpointId} = delegatedBy;
	let parentRunId = delegatedBy.runId;
	if (parentRunId === undefined && checkpointId !== undefined) {
		parentRunId = model.runSegments.runStoppedAt(checkpointId);
		if (parentRunId === undefined) {
			model.runSegments.awaitStop(checkpointId, run.runId, toolCallId);
			return;
		}
	}

	if (parentRunId === undefined) {
		const segments = model.runSegments.segmentsOf(wireRunId) ?? [];
		for (let i = segments.length - 1; i >= 0 && parentRunId === undefined; i--) {
			const candidate = model.runs.get(segments[i]!);
			if (candidate && candidate.runId !== run.runId && candidate.expertKey === expertKey) parentRunId = candidate.runId;
		}
	}

	if (parentRunId !== undefined) linkParent(model, run, parentRunId, expertKey, toolCallId);
}

function joinPane(model: Model, run: Run, resumed: Run): void {
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

/** The calls a pane let go are found in the pane it joins, as their activities would be (`Model.figuresOnly`). */
function moveReleasedCalls(model: Model, fromPaneId: string, toPaneId: string): void {
	const calls = model.toolCalls.get(fromPaneId);
	if (!model.figuresOnly || !calls) return;
	for (const [toolCallId, index] of callEntries(calls)) {
		if (model.activities[index] === releasedActivity && callOf(model.toolCalls.get(toPaneId), toolCallId) === undefined) setCallIndex(model, toPaneId, toolCallId, index);
	}
}

/** What a resumed run brings back: the delegates' results, or the user's answer to an interactive tool. */
function resumeEffects(model: Model, run: Run, stopped: Run, event: EventOf<'runStart'>): void {
	const results = new Map<string, ToolResult>();
	for (const result of event.checkpoint.partialResults) results.set(result.id, result);
	const answer = model.runtime.get(run.runId)?.answer;
	const previousStatus = stopped === run ? event.checkpoint.status : stopped.status;

	if (previousStatus === 'stoppedByInteractiveTool') {
		const unanswered: ToolActivity[] = [];
		let answered = false;
		for (const activity of paneActivities(model, stopped)) {
			if (activity.type !== 'interactiveTool' || activity.result) continue;
			const result = results.get(activity.toolCallId);
			const text = result?.text ?? (answer?.toolCallId === activity.toolCallId ? answer.text : undefined);
			if (text === undefined) unanswered.push(activity);
			else {
				answered = true;
				releaseCall(model, updateActivity(model, activity, {result: {text, error: undefined, ref: event.ref}}));
			}
		}

		// The person answered, but the runtime gave the answer to another call of the step (a plain `-i` answer goes
		// to the step's first call): the question stays open and will be asked again. Say where the answer went.
		if (!answered && answer !== undefined && unanswered.length > 0) {
			const index = callIndex(model, run, answer.toolCallId);
			const target = index === undefined ? undefined : model.activities[index];
			const toolName = target && target !== releasedActivity && isToolActivity(target) ? target.toolName : 'another tool call';
			for (const activity of unanswered) updateActivity(model, activity, {misroutedAnswer: {text: answer.text, toolName}});
		}

		return;
	}

	const delegates = new Map<string, DelegateActivity>();
	for (const activity of paneActivities(model, stopped)) {
		if (activity.type === 'delegate') delegates.set(activity.toolCallId, activity);
	}

	const completed: Array<{toolCallId: string; expertKey: string; text: string}> = [];
	for (const delegation of event.checkpoint.delegateTo) {
		const result = results.get(delegation.toolCallId);
		const delegate = delegates.get(delegation.toolCallId);
		const text = result?.text ?? '';
		if (delegate && !delegate.result && result) delegates.set(delegate.toolCallId, updateActivity(model, delegate, {result: {text, error: result.error, ref: event.ref}}));
		completed.push({toolCallId: delegation.toolCallId, expertKey: delegation.expertKey, text});
	}

	// A mixed step's other tools (MCP, base) have their results only here: they go to their own activities, and
	// `delegationComplete` lists delegations alone.
	const others: ToolResult[] = [];
	for (const result of results.values()) {
		if (completed.some(entry => entry.toolCallId === result.id)) continue;
		const delegate = delegates.get(result.id);
		if (!delegate) {
			others.push(result);
			continue;
		}

		if (!delegate.result) delegates.set(delegate.toolCallId, updateActivity(model, delegate, {result: {text: result.text, error: result.error, ref: event.ref}}));
		completed.push({toolCallId: result.id, expertKey: delegate.delegateExpertKey, text: result.text});
	}

	attachPartialResults(model, run, others, event.ref);

	addActivity(model, run, event, {type: 'delegationComplete', results: completed}, true);
}

function paneActivities(model: Model, run: Run): Activity[] {
	const pane = livePane(model, run.paneId);
	const out: Activity[] = [];
	if (!pane) return out;
	for (const index of pane.activityIndices) {
		const activity = model.activities[index];
		if (activity) out.push(activity);
	}

	return out;
}

function onStepStart(model: Model, run: Run, event: EventOf<'stepStart'>): void {
	if (event.dialect === 'daemon') {
		const step = (run.currentStep ?? 1) + 1;
		run.currentStep = step;
		addEndedStep(run, step);
		const record = stepRecord(run, step);
		if (!model.figuresOnly) record.startedAt = event.timestamp;
		return;
	}

	const step = event.step ?? (run.currentStep ?? 0) + 1;
	run.currentStep = step;
	// A runtime without checkpoints: the step counts when it starts.
	if (event.counted === true) addEndedStep(run, step);
	const record = stepRecord(run, step);
	if (!model.figuresOnly) record.startedAt = record.startedAt ?? event.timestamp;
	if (event.dialect === 'perstack') rememberMessageLine(run, record, event.ref, false);
}

function stepRecord(run: Run, step: number): StepRecord {
	let record = stepRecordOf(run, step);
	if (!record) {
		record = {step, startedAt: undefined, finishedAt: undefined, usage: undefined, checkpointId: undefined, status: undefined, messageLine: 0, messageOffset: 0};
		addStepRecord(run, record);
	}

	return record;
}

function onStepEnd(model: Model, run: Run, event: EventOf<'stepEnd'>): void {
	const {checkpoint} = event;
	const step = checkpoint.step ?? event.step;
	setStatus(model, run, checkpoint.status, step);
	// A step that ends in the status the run started with is reported too (a follow-up run starts from a
	// checkpoint that says `completed`, and completes).
	if (step !== undefined && !hasEndedStep(run, step) && model.statusChanges?.at(-1) !== run.runId) model.statusChanges?.push(run.runId);
	if (step !== undefined && !hasEndedStep(run, step)) {
		addEndedStep(run, step);
		dropHeldUsage(model, run, step);

		if (event.stepUsage) run.usage = addUsage(run.usage, event.stepUsage);
	}

	if (step !== undefined) recordStep(model, run, step, event);
	settleRun(model, run);

	switch (event.ending) {
		case 'continue':
			return;
		case 'stopByDelegate': {
			run.pendingToolCallIds = checkpoint.pendingToolCallIds;
			ensureDelegates(model, run, event);
			attachPartialResults(model, run, checkpoint.partialResults, event.ref);
			run.endedAt = event.timestamp;
			const waiting = checkpoint.id === undefined ? undefined : model.runSegments.stoppedForDelegates(checkpoint.id, run.runId);
			for (const child of waiting ?? []) {
				const childRun = liveRun(model, child.childRunId);
				if (childRun && childRun.parentRunId === null) linkParent(model, childRun, run.runId, run.expertKey, child.toolCallId);
			}

			return;
		}
		case 'stopByInteractiveTool':
			run.pendingToolCallIds = checkpoint.pendingToolCallIds;
			// The step's other tools (a file read beside the question) have their results only here.
			attachPartialResults(model, run, checkpoint.partialResults, event.ref);
			run.endedAt = event.timestamp;
			return;
		case 'stopByExceededMaxSteps':
			run.endedAt = event.timestamp;
			return;
		case 'stopByError': {
			const error = event.error ?? {name: 'Error', message: ''};
			run.error = error;
			run.endedAt = event.timestamp;
			addActivity(model, run, event, {type: 'error', errorName: error.name, message: error.message}, true);
			return;
		}

		case 'complete': {
			run.endedAt = event.timestamp;
			const stream = step === undefined ? undefined : run.streams.get(step);
			const text = event.text ?? (stream && !stream.result.isEmpty ? stream.result.text : '');
			if (stream && event.text !== undefined) stream.result.complete(event.text);
			addActivity(model, run, event, {type: 'complete', text}, true, undefined, resultReasoning(stream));
			return;
		}
		default:
			return assertNever(event.ending);
	}
}

function recordStep(model: Model, run: Run, step: number, event: EventOf<'stepEnd'>): void {
	const record = stepRecord(run, step);
	if (event.dialect === 'perstack') rememberMessageLine(run, record, event.ref, true);
	// The summaries show none of the rest; each of the two times would be a number on the heap of its own.
	if (model.figuresOnly) return;
	record.startedAt = event.startedAt ?? record.startedAt;
	record.finishedAt = event.finishedAt ?? event.timestamp ?? record.finishedAt;
	record.usage = event.stepUsage ?? record.usage;
	record.checkpointId = event.checkpoint.id ?? record.checkpointId;
	record.status = event.checkpoint.status;
}

/** A stop by delegation names its delegates; make sure each has an activity even if callDelegate was lost. */
function ensureDelegates(model: Model, run: Run, event: EventOf<'stepEnd'>): void {
	for (const delegation of event.checkpoint.delegateTo) {
		if (callIndex(model, run, delegation.toolCallId) !== undefined) continue;
		addActivity(
			model,
			run,
			event,
			{
				type: 'delegate',
				toolCallId: delegation.toolCallId,
				delegateExpertKey: delegation.expertKey,
				query: delegation.query ?? '',
				message: undefined,
				childRunIds: [],
				result: undefined,
			},
			true,
		);
		adoptOrphans(model, run, delegation.toolCallId);
	}
}

// ---------------------------------------------------------------------------------------------------------
// Tools

function classify(call: ToolCall): ToolActivityType {
	if (call.skillName === baseSkill && baseTools.has(call.toolName)) {
		for (const type of baseToolTypes) if (type === call.toolName) return type satisfies BaseToolType;
	}

	return 'generalTool';
}

function delegateTarget(call: ToolCall): string {
	const args = call.args;
	if (typeof args === 'object' && args !== null) {
		for (const key of ['agentId', 'agent', 'subagent_type', 'expert']) {
			const value: unknown = Reflect.get(args, key);
			if (typeof value === 'string' && value !== '') return value;
		}
	}

	if (call.toolName === 'task') return '';
	// Perstack names a delegation's skill after the expert's whole key (`@scope/writer@1.2.0`) and its tool after
	// the last path segment (`writer`): the skill is the name. It spells the skill `delegate/child-expert` too.
	return call.skillName.replace(/^delegate\//, '') || call.toolName;
}

function delegateQuery(args: unknown): string {
	if (typeof args === 'string') return args;
	if (typeof args !== 'object' || args === null) return '';
	for (const key of ['query', 'prompt', 'description', 'task', 'message']) {
		const value: unknown = Reflect.get(args, key);
		if (typeof value === 'string') return value;
	}

	return '';
}

function onToolCalls(model: Model, run: Run, event: EventOf<'toolCalls'>): void {
	const step = event.step ?? run.currentStep;
	if (event.generationUsage !== undefined && step !== undefined) holdStepUsage(model, run, step, event.generationUsage);
	if (event.dialect === 'perstack' && event.thinking !== undefined && step !== undefined) streamOf(run, step).callReasoning = event.thinking;
	let first = true;
	for (const call of event.calls) {
		const id = call.id === '' ? `${run.runId}:call:${run.activityCount}` : call.id;
		const message = first ? event.text : undefined;
		first = false;
		const index = callIndex(model, run, id);
		const existing = index === undefined ? undefined : model.activities[index];
		const reasoning = event.thinking;

		if (event.as === 'delegate') {
			const delegate: Omit<DelegateActivity, keyof CommonFields> = {
				type: 'delegate',
				toolCallId: id,
				delegateExpertKey: delegateTarget(call),
				query: delegateQuery(call.args),
				message: existing && 'message' in existing ? existing.message : message,
				childRunIds: [],
				result: undefined,
			};
			const settled = delegate.delegateExpertKey !== '';
			if (existing === releasedActivity && index !== undefined) reviveActivity(model, run, event, index, delegate, settled, id, reasoning);
			else if (existing && index !== undefined) replaceActivity(model, index, existing, delegate, settled);
			else addActivity(model, run, event, delegate, settled, id, reasoning);
			adoptOrphans(model, run, id);
			continue;
		}

		const type: ToolActivityType = event.as === 'interactive' ? 'interactiveTool' : classify(call);
		if (existing && index !== undefined) {
			// callInteractiveTool after callTools for the same call: the same activity, now known to be interactive.
			// A call let go had its result already: as a figure it is the same call either way.
			if (existing !== releasedActivity && existing.type !== type && event.as === 'interactive') replaceActivity(model, index, existing, toolFields(model, type, id, call, message), true);
			continue;
		}

		addActivity(model, run, event, toolFields(model, type, id, call, message), event.as === 'interactive', id, reasoning);
	}
}

/**
 * Counts a generation's usage before its step ends, so a run killed after the model answered still shows what it
 * used. The step's end replaces it with the step's own usage; a step's calls events repeat the same generation's.
 */
function holdStepUsage(model: Model, run: Run, step: number, usage: Usage): void {
	if (hasEndedStep(run, step)) return;
	dropHeldUsage(model, run, step);
	run.usage = addUsage(run.usage, usage);
	model.openStepUsage.set(run.runId, {step, usage});
}

/** Takes the usage held for `step` out of the run again (its step ended, or the same generation is reported anew). */
function dropHeldUsage(model: Model, run: Run, step: number): void {
	const open = model.openStepUsage.get(run.runId);
	if (open?.step !== step) return;
	run.usage = subtractUsage(run.usage, open.usage);
	model.openStepUsage.delete(run.runId);
}

function toolFields(model: Model, type: ToolActivityType, id: string, call: ToolCall, message: string | undefined): Omit<ToolActivity, keyof CommonFields> {
	// The base skill's name and tools' names as the constants, not as the fresh copies each parsed line brings.
	const base = call.skillName === baseSkill;
	const toolName = base && type === call.toolName ? type : call.toolName;
	return {type, toolCallId: id, skillName: base ? baseSkill : call.skillName, toolName, args: model.textKeep?.limit === 0 ? undefined : call.args, message, result: undefined};
}

function adoptOrphans(model: Model, run: Run, toolCallId: string): void {
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

function onToolResults(model: Model, run: Run, event: EventOf<'toolResults'>): void {
	const step = event.step ?? run.currentStep;
	if (event.wireType === 'attemptCompletion' && step !== undefined) streamOf(run, step).resultGeneration = true;
	for (const result of event.results) {
		const index = result.id === '' ? oldestOpenCall(model, run, result.toolName) : callIndex(model, run, result.id);
		const activity = index === undefined ? undefined : model.activities[index];
		const outcome: ToolOutcome = {text: result.text, error: result.error, ref: event.ref, ...(result.detail === undefined || model.figuresOnly ? {} : {detail: result.detail})};
		if (activity === releasedActivity) {
			// Another result for a call let go: the call keeps its place, and nothing of it is kept to change.
			bumpPane(model, run);
			continue;
		}

		if (activity && (isToolActivity(activity) || activity.type === 'delegate')) {
			releaseCall(model, updateActivity(model, activity, {result: activity.type === 'delegate' ? outcome : keptOutcome(model, activity, outcome), settled: true}));
			bumpPane(model, run);
			continue;
		}

		// A result whose call we never saw (a log that starts mid-step): show it on its own.
		const id = result.id === '' ? `${run.runId}:result:${run.activityCount}` : result.id;
		const call: ToolCall = {id, skillName: result.skillName, toolName: result.toolName, args: undefined};
		const created = addActivity(model, run, event, toolFields(model, classify(call), id, call, undefined), true, id);
		if (isToolActivity(created)) releaseCall(model, updateActivity(model, created, {result: keptOutcome(model, created, outcome)}));
	}
}

/**
 * Results the runtime carries in a checkpoint's `partialToolResults` rather than in `resolveToolResults`: in a step
 * that also delegated or asked, the other tools' results arrive only there. Each goes to its own tool activity.
 */
function attachPartialResults(model: Model, run: Run, results: readonly ToolResult[], ref: AgentEvent['ref']): void {
	for (const result of results) {
		const index = callIndex(model, run, result.id);
		const activity = index === undefined ? undefined : model.activities[index];
		if (!activity || activity === releasedActivity || !isToolActivity(activity) || activity.result) continue;
		releaseCall(model, updateActivity(model, activity, {result: keptOutcome(model, activity, {text: result.text, error: result.error, ref}), settled: true}));
		bumpPane(model, run);
	}
}

/**
 * A tool result as the model keeps it: whole while `model.textKeep` allows, else its first `limit` characters and the whole length
 * (state.ts, `ToolOutcome`). A delegation's answer is always kept whole: its row shows it; so is the answer to
 * `attemptCompletion`, one a run, whose row reads the todos it refused on.
 */
function keptOutcome(model: Model, activity: ToolActivity, outcome: ToolOutcome): ToolOutcome {
	const keep = model.textKeep;
	if (keep === undefined || outcome.text.length <= keep.limit || activity.type === 'attemptCompletion') return outcome;
	if (model.keptWholeText + outcome.text.length <= keep.wholeBudget) {
		model.keptWholeText += outcome.text.length;
		return outcome;
	}

	model.cutResults++;
	const {limit} = keep;
	// Not cutting between the two halves of a surrogate pair keeps the start well-formed.
	const end = limit > 0 && isHighSurrogate(outcome.text.charCodeAt(limit - 1)) ? limit - 1 : limit;
	// A slice of a string can keep the whole string alive (V8 makes it a view of it); joining its pieces makes a copy.
	const start = end === 0 ? '' : [...outcome.text.slice(0, end)].join('');
	return {text: start, error: outcome.error, ref: outcome.ref, fullLength: outcome.text.length};
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd8_00 && code <= 0xdb_ff;
}

/** The strategy daemon pairs tool results with calls by tool name only: the oldest open call of that name. */
function oldestOpenCall(model: Model, run: Run, toolName: string): number | undefined {
	for (const index of run.unsettled) {
		const activity = model.activities[index];
		if (activity && activity !== releasedActivity && isToolActivity(activity) && activity.toolName === toolName && !activity.result) return index;
	}

	return undefined;
}

/**
 * A step ended: whatever its tool calls still wait for will not change how they read in a transcript.
 * Only the run's unsettled activities are visited, so a run of 100,000 steps settles in linear time.
 */
function settleRun(model: Model, run: Run): void {
	for (const index of run.unsettled) {
		const activity = model.activities[index];
		if (activity && !activity.settled) releaseCall(model, updateActivity(model, activity, {settled: true}));
	}

	run.unsettled = sharedEmptyList();
}

// ---------------------------------------------------------------------------------------------------------
// Streaming

function streamOf(run: Run, step: number): StepStream {
	let stream = run.streams.get(step);
	if (!stream) {
		stream = {step, reasoning: new TextAccumulator(), result: new TextAccumulator(), callReasoning: undefined, resultGeneration: false};
		setStream(run, step, stream);
		if (run.streams.size > keptStreamSteps) {
			let oldest = step;
			for (const key of run.streams.keys()) oldest = Math.min(oldest, key);
			if (oldest !== step) run.streams.delete(oldest);
		}
	}

	return stream;
}

function onStream(model: Model, run: Run, event: EventOf<'stream'>): void {
	const step = event.step ?? run.currentStep ?? 0;
	const stream = streamOf(run, step);
	const text = stream[event.channel];
	switch (event.phase) {
		case 'start':
			text.started = true;
			return;
		case 'delta':
			text.started = true;
			text.append(event.text, event.timestamp);
			return;
		case 'complete':
			text.started = true;
			text.complete(event.text);
			if (event.channel === 'reasoning') giveReasoning(model, run, step, event.text);
			return;
		default:
			return assertNever(event.phase);
	}
}

/** The reasoning of a step's run-result generation: its completed stream, unless that is the tool-call generation's. */
function resultReasoning(stream: StepStream | undefined): string | undefined {
	if (!stream?.reasoning.isComplete) return undefined;
	const {text} = stream.reasoning;
	return text === stream.callReasoning ? undefined : text;
}

/**
 * Reasoning can arrive after the activities of its step; hand it to those that lack it. Once the step's
 * `attemptCompletion` was accepted, reasoning that completes is the run result's: it goes to `complete` only,
 * never to the `attemptCompletion` call before it (docs/model-rules.md).
 */
function giveReasoning(model: Model, run: Run, step: number, reasoning: string): void {
	// Reasoning is an activity's content, which a model that lets activities go shows nowhere.
	if (model.figuresOnly) return;
	const pane = livePane(model, run.paneId);
	if (!pane) return;
	const stream = run.streams.get(step);
	// After an accepted attemptCompletion the step's next generation is the run result's: its reasoning is complete's.
	const resultOnly = stream !== undefined && stream.resultGeneration && reasoning !== stream.callReasoning;
	for (let i = pane.activityIndices.length - 1; i >= 0; i--) {
		const activity = model.activities[pane.activityIndices[i]!];
		if (!activity || activity.runId !== run.runId) continue;
		if (activity.step !== step) break;
		if (resultOnly && activity.type !== 'complete') continue;
		if (activity.reasoning === undefined && activity.type !== 'query') updateActivity(model, activity, {reasoning});
	}
}

// ---------------------------------------------------------------------------------------------------------
// drover and strategy daemon runs

function onChildRunStart(model: Model, event: EventOf<'childRunStart'>): void {
	if (event.dialect === 'daemon') {
		startDaemonStep(model, event, event.childExpertKey, event.query);
		return;
	}

	if (event.childRunId === event.runId) {
		// drover run_start: the run itself begins (a root, or a subagent whose events were merged in).
		const existing = liveRun(model, event.runId);
		const run = existing ?? newRun(model, event.runId, event.jobId === '' ? event.runId : event.jobId, event.childExpertKey, event);
		run.started = true;
		run.expertKey = event.childExpertKey;
		touch(run, event);
		setStatus(model, run, 'proceeding', undefined);
		if (event.query !== undefined) addQuery(model, run, event, event.query);
		return;
	}

	const parent = targetRun(model, event);
	if (!parent) return;
	touch(parent, event);
	const existingChild = liveRun(model, event.childRunId);
	const child = existingChild ?? newRun(model, event.childRunId, parent.jobId, event.childExpertKey, event);
	child.expertKey = event.childExpertKey;
	if (child.status === 'init') setStatus(model, child, 'proceeding', undefined);
	if (!existingChild && event.query !== undefined) addQuery(model, child, event, event.query);
	if (event.viaToolCallId !== undefined) {
		// The call that delegated it is named: linked now, or once the call shows up.
		linkParent(model, child, parent.runId, parent.expertKey, event.viaToolCallId);
		return;
	}

	// The delegating activity is the latest task call of the parent that has no child yet.
	const task = latestOpenDelegate(model, parent);
	if (task) {
		if (task.delegateExpertKey === '') updateActivity(model, task, {delegateExpertKey: event.childExpertKey, settled: true});

		linkParent(model, child, parent.runId, parent.expertKey, task.toolCallId);
	} else {
		linkParent(model, child, parent.runId, parent.expertKey, undefined);
	}
}

/** A query activity (none for no text), and the run's query when it has none yet. */
function addQuery(model: Model, run: Run, event: AgentEvent, text: string): void {
	if (text === '') return;
	if (!model.figuresOnly && run.query === undefined) run.query = text;
	addActivity(model, run, event, {type: 'query', text}, true);
}

/** Adds a runtime's own report of what some of a job's work cost to the job (`Job.reportedCost`). */
function onReportedCost(model: Model, event: EventOf<'reportedCost'>): void {
	const jobId = event.jobId === '' ? liveRun(model, event.runId)?.jobId : event.jobId;
	if (jobId === undefined || !Number.isFinite(event.usd)) return;
	const job = ensureJob(model, jobId, event.timestamp);
	const previous = job.reportedCost;
	job.reportedCost = {usd: (previous?.usd ?? 0) + event.usd, runIds: new Set([...(previous?.runIds ?? []), ...event.runIds])};
}

function latestOpenDelegate(model: Model, run: Run): DelegateActivity | undefined {
	const pane = livePane(model, run.paneId);
	if (!pane) return undefined;
	for (let i = pane.activityIndices.length - 1; i >= 0; i--) {
		const activity = model.activities[pane.activityIndices[i]!];
		if (activity?.type === 'delegate' && activity.childRunIds.length === 0) return activity;
	}

	return undefined;
}

function startDaemonStep(model: Model, event: AgentEvent, stepName: string, query: string | undefined): Run {
	let root = liveRun(model, event.runId);
	if (!root) {
		root = newRun(model, event.runId, event.runId, 'strategy', event);
		root.started = true;
	}

	touch(root, event);
	setStatus(model, root, 'proceeding', undefined);
	const key = `${event.runId}\u0000${stepName}`;
	const count = (model.daemonStepCounts.get(key) ?? 0) + 1;
	model.daemonStepCounts.set(key, count);
	const childId = `${event.runId}/${stepName}#${count}`;
	addActivity(
		model,
		root,
		event,
		{type: 'delegate', toolCallId: childId, delegateExpertKey: stepName, query: query ?? '', message: undefined, childRunIds: [], result: undefined},
		true,
		childId,
	);
	const child = newRun(model, childId, root.jobId, stepName, event);
	child.started = true;
	child.currentStep = 1;
	addEndedStep(child, 1);
	setStatus(model, child, 'proceeding', undefined);
	linkParent(model, child, root.runId, root.expertKey, childId);
	model.daemonAgents.set(key, childId);
	if (!model.figuresOnly) child.query = query;
	addActivity(model, child, event, {type: 'query', text: query ?? ''}, true);
	return child;
}

function onRunEnd(model: Model, run: Run, event: EventOf<'runEnd'>): void {
	setStatus(model, run, event.status, Number.POSITIVE_INFINITY);
	run.endedAt = event.timestamp ?? run.endedAt;
	if (event.usage) run.usage = event.usage;
	settleRun(model, run);
	if (event.status === 'completed') {
		if ((run.closing & closingComplete) === 0) {
			const text = event.text ?? latestResultText(run);
			addActivity(model, run, event, {type: 'complete', text}, true);
		}
	} else if ((run.closing & closingError) === 0) {
		const message = event.message ?? event.status;
		run.error = run.error ?? {name: 'run_end', message};
		addActivity(model, run, event, {type: 'error', errorName: 'run_end', message}, true);
	}

	if (event.dialect === 'daemon' && run.parentRunId !== null) {
		const root = liveRun(model, run.parentRunId);
		if (root) {
			const delegate = run.delegatingActivityId === null ? undefined : activityById(model, run.delegatingActivityId);
			if (delegate?.type === 'delegate' && !delegate.result) updateActivity(model, delegate, {result: {text: event.text ?? '', error: undefined, ref: event.ref}});
			const open = root.childRunIds.some(id => model.runs.get(id)?.status === 'proceeding');
			if (!open) setStatus(model, root, 'completed', undefined);
			root.rev++;
		}
	}
}

function latestResultText(run: Run): string {
	let latest: StepStream | undefined;
	for (const stream of run.streams.values()) if (!stream.result.isEmpty && (!latest || stream.step >= latest.step)) latest = stream;
	return latest?.result.text ?? '';
}

/**
 * Tool call ids come from the model provider, and some make them unique only within one response: a job's
 * runs can repeat them. A call is found by its id within its pane (a run and the runs that resume it), where
 * its result, its delegates' children and its re-issue after a resume look for it. Calls are kept by pane, then
 * by id: a key made of both would be a new string per call, which a log of a million calls pays for.
 */
function callIndex(model: Model, run: Run, toolCallId: string): number | undefined {
	return callOf(model.toolCalls.get(run.paneId), toolCallId);
}

function setCallIndex(model: Model, paneId: string, toolCallId: string, index: number): void {
	const calls = model.toolCalls.get(paneId);
	const updated = withCall(calls, toolCallId, index);
	if (updated !== calls) model.toolCalls.set(paneId, updated);
}

function activityById(model: Model, id: string): Activity | undefined {
	const index = model.activityIndexById.get(id);
	return index === undefined ? undefined : model.activities[index];
}

// ---------------------------------------------------------------------------------------------------------
// Skills

function onSkill(model: Model, event: EventOf<'skill'>): void {
	const previous = model.skills.get(event.skillName);
	const connectMs = event.detail.totalDurationMs ?? event.detail.connectDurationMs;
	const transitions = previous?.transitions ?? [];
	transitions.push({state: event.state, at: event.timestamp, connectMs: event.state === 'connected' ? connectMs : undefined});
	if (transitions.length > maxSkillTransitions) transitions.splice(0, transitions.length - maxSkillTransitions);
	model.skills.set(event.skillName, {
		skillName: event.skillName,
		state: event.state,
		command: event.detail.command ?? previous?.command,
		args: event.detail.args ?? previous?.args,
		serverName: event.detail.serverName ?? previous?.serverName,
		serverVersion: event.detail.serverVersion ?? previous?.serverVersion,
		connectMs: connectMs ?? previous?.connectMs,
		stderr: previous?.stderr ?? [],
		stderrCount: previous?.stderrCount ?? 0,
		updatedAt: event.timestamp,
		transitions,
		transitionCount: (previous?.transitionCount ?? 0) + 1,
	});
}

function onSkillStderr(model: Model, event: EventOf<'skillStderr'>): void {
	let skill = model.skills.get(event.skillName);
	if (!skill) {
		skill = {
			skillName: event.skillName,
			state: 'starting',
			command: undefined,
			args: undefined,
			serverName: undefined,
			serverVersion: undefined,
			connectMs: undefined,
			stderr: [],
			stderrCount: 0,
			updatedAt: event.timestamp,
			transitions: [],
			transitionCount: 0,
		};
		model.skills.set(event.skillName, skill);
	}

	skill.stderrCount++;
	skill.stderr.push(shortened(event.message, maxSkillStderrLineLength));
	if (skill.stderr.length > maxSkillStderrLines) skill.stderr.splice(0, skill.stderr.length - maxSkillStderrLines);
}

// ---------------------------------------------------------------------------------------------------------
// Activities

function addActivity(
	model: Model,
	run: Run,
	event: AgentEvent,
	fields: ActivityFields,
	settled: boolean,
	id?: string,
	reasoning?: string,
): Activity {
	const pane = livePane(model, run.paneId);
	const seq = model.activities.length;
	if (fields.type === 'complete') run.closing |= closingComplete;
	if (fields.type === 'error') run.closing |= closingError;
	run.activityCount++;
	run.rev++;
	if (model.figuresOnly && releasedOnArrival(fields.type)) {
		// Nothing consults it again: it is counted, and let go as it is made, without a slot in `activities`.
		if (pane) pane.rev++;
		return releasedActivity;
	}

	const step = event.step ?? run.currentStep;
	const common: CommonFields = {
		id: activityId(model, run, fields.type, event, id),
		expertKey: run.expertKey,
		runId: run.runId,
		previousActivityId: pane?.lastActivityId ?? null,
		delegatedBy: run.delegatedBy,
		reasoning: reasoning ?? (fields.type === 'query' ? undefined : completedReasoning(run, step)),
		step,
		timestamp: event.timestamp,
		ref: event.ref,
		seq,
		settled,
	};
	const activity = activityObject(common, fields);
	model.activities.push(activity);
	model.activityIndexById.set(activity.id, seq);
	if ('toolCallId' in fields && fields.toolCallId !== '') setCallIndex(model, run.paneId, fields.toolCallId, seq);
	if (!settled) run.unsettled = appended(run.unsettled, seq);
	if (pane) {
		pane.activityIndices = appended(pane.activityIndices, seq);
		pane.lastActivityId = activity.id;
		pane.rev++;
	}

	return activity;
}

/** The kinds of activity the reducer never looks at again once made: a model that keeps no activities lets them go at once. */
function releasedOnArrival(type: ActivityFields['type']): boolean {
	switch (type) {
		case 'query':
		case 'complete':
		case 'error':
		case 'retry':
		case 'delegationComplete':
			return true;
		case 'delegate':
		case 'interactiveTool':
		case 'generalTool':
		case 'readTextFile':
		case 'readImageFile':
		case 'readPdfFile':
		case 'writeTextFile':
		case 'editTextFile':
		case 'appendTextFile':
		case 'deleteFile':
		case 'moveFile':
		case 'getFileInfo':
		case 'listDirectory':
		case 'createDirectory':
		case 'deleteDirectory':
		case 'exec':
		case 'todo':
		case 'clearTodo':
		case 'attemptCompletion':
			return false;
		default:
			return assertNever(type);
	}
}

/**
 * A tool call that has its result and is settled is let go by a model that keeps no activities
 * (`Model.figuresOnly`): its entry in `toolCalls` stays, so a repeated call or result still finds it. A
 * delegation stays, as do calls still waiting: children link to the one, results come for the others.
 */
function releaseCall(model: Model, activity: Activity): void {
	if (!model.figuresOnly || !isToolActivity(activity) || !activity.settled || activity.result === undefined) return;
	model.activities[activity.seq] = releasedActivity;
	if (model.activityIndexById.get(activity.id) === activity.seq) model.activityIndexById.delete(activity.id);
	const run = liveRun(model, activity.runId);
	if (!run) return;
	// A call settled by its result stays listed as unsettled until its step ends, which a run that never ends a
	// step never does; and a pane lists only the activities kept. The last one listed, as a call answered at
	// once is, goes now.
	run.unsettled = withoutLast(run.unsettled, activity.seq);
	const pane = livePane(model, run.paneId);
	if (pane) pane.activityIndices = withoutLast(pane.activityIndices, activity.seq);
}

/** `list` without its last item when that is `seq`. */
function withoutLast(list: number[], seq: number): number[] {
	if (list.at(-1) !== seq) return list;
	if (list.length === 1) return sharedEmptyList();
	list.pop();
	return list;
}

/**
 * A delegation made for a call the model let go (a call issued again as a delegation): made afresh in the
 * call's place, and listed in its pane again if the call had left the list.
 */
function reviveActivity(
	model: Model,
	run: Run,
	event: AgentEvent,
	index: number,
	fields: ActivityFields,
	settled: boolean,
	id: string,
	reasoning: string | undefined,
): void {
	const common: CommonFields = {
		id: activityId(model, run, fields.type, event, id),
		expertKey: run.expertKey,
		runId: run.runId,
		previousActivityId: null,
		delegatedBy: run.delegatedBy,
		reasoning,
		step: event.step ?? run.currentStep,
		timestamp: event.timestamp,
		ref: event.ref,
		seq: index,
		settled,
	};
	model.activities[index] = activityObject(common, fields);
	model.activityIndexById.set(common.id, index);
	if (!settled) run.unsettled = appended(run.unsettled, index);
	const pane = livePane(model, run.paneId);
	if (pane && !pane.activityIndices.includes(index)) pane.activityIndices = appended(pane.activityIndices, index);
	run.rev++;
	bumpPane(model, run);
}

/**
 * Puts a changed copy of an activity in its place. Activities are never changed in place (see state.ts), so
 * whoever holds the old object keeps what it was; the updated one is returned for callers that go on with it.
 */
function updateActivity<A extends Activity>(model: Model, activity: A, changes: Partial<A>): A {
	const updated: A = {...activity, ...changes};
	model.activities[activity.seq] = updated;
	model.changes?.push(activity.seq);
	return updated;
}

function replaceActivity(model: Model, index: number, existing: Activity, fields: ActivityFields, settled: boolean): void {
	const common: CommonFields = {
		id: existing.id,
		expertKey: existing.expertKey,
		runId: existing.runId,
		previousActivityId: existing.previousActivityId,
		delegatedBy: existing.delegatedBy,
		reasoning: existing.reasoning,
		step: existing.step,
		timestamp: existing.timestamp,
		ref: existing.ref,
		seq: existing.seq,
		settled,
	};
	const replacement = activityObject(common, fields);
	model.activities[index] = replacement;
	model.changes?.push(index);
	const run = liveRun(model, existing.runId);
	if (run) {
		if (!settled && !run.unsettled.includes(index)) run.unsettled = appended(run.unsettled, index);
		run.rev++;
		bumpPane(model, run);
	}
}

function activityId(model: Model, run: Run, type: string, event: AgentEvent, wanted: string | undefined): string {
	// Event ids are unique on the wire, but one event can make several activities and ids can repeat in bad logs;
	// a tool call id is unique only within one model response, so runs of one job can repeat it.
	const base = wanted ?? (event.dialect === 'perstack' && event.id !== '' ? event.id : `${run.runId}:${type}`);
	if (!model.activityIndexById.has(base)) return base;
	// Counting on from the last suffix given keeps a log of 100,000 equal ids linear.
	let n = model.idRepeats.get(base) ?? 1;
	let id = `${base}#${++n}`;
	while (model.activityIndexById.has(id)) id = `${base}#${++n}`;
	model.idRepeats.set(base, n);
	return id;
}

function completedReasoning(run: Run, step: number | undefined): string | undefined {
	if (step === undefined) return undefined;
	const stream = run.streams.get(step);
	return stream?.reasoning.isComplete && !stream.resultGeneration ? stream.reasoning.text : undefined;
}

export type {Pane};
