/*
 * A Perstack run's start: a new run with its query, or a run that continues a stopped one (after its delegates
 * returned, or a person answered), which joins that run's pane and takes back what the checkpoint brings
 * (docs/model-rules.md, "Resume").
 */
import {type CheckpointInfo, type RunStatus, type ToolResult} from '../events.js';
import {isToolActivity, releasedActivity, type DelegateActivity, type Model, type Run, type ToolActivity} from '../state.js';
import {liveRun} from '../storage/run-store.js';
import {addActivity, attachPartialResults, callIndex, keptDelegateResult, paneActivities, releaseCall, updateActivity, type EventOf} from './activities.js';
import {adoptChild, awaitParent, joinPane, linkParent, newRun, setStatus, touch} from './runs.js';

const resumableStatuses: ReadonlySet<RunStatus> = new Set(['stoppedByDelegate', 'stoppedByInteractiveTool']);

export function onRunStart(model: Model, event: EventOf<'runStart'>, wireRunId: string): void {
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
	// Every run of the job is looked at, read only (through views of those kept as records: storage/); the one
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
		if (delegate && !delegate.result && result)
			delegates.set(delegate.toolCallId, updateActivity(model, delegate, {result: keptDelegateResult(model, {text, error: result.error, ref: event.ref})}));
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

		if (!delegate.result)
			delegates.set(
				delegate.toolCallId,
				updateActivity(model, delegate, {result: keptDelegateResult(model, {text: result.text, error: result.error, ref: event.ref})}),
			);
		completed.push({toolCallId: result.id, expertKey: delegate.delegateExpertKey, text: result.text});
	}

	attachPartialResults(model, run, others, event.ref);

	addActivity(model, run, event, {type: 'delegationComplete', results: completed}, true);
}
