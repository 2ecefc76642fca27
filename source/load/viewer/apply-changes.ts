import {sharedEmptyList, sharedStreams} from '../../model/run-collections.js';
import type {EventRef, Usage} from '../../model/events.js';
import {isToolActivity, type Activity, type Job, type Model, type Pane, type Run, type StepRecord, type StepStream} from '../../model/state.js';
import {TextAccumulator} from '../../model/text-accumulator.js';
import type {ModelChanges, PostedList, PostedStep, PostedStream, PostedUsage} from './model-changes.js';
import {SharedStrings} from './shared-strings.js';
import {activityOfPost} from './posted-activities.js';

/*
 * The viewer's side of posting a model by its changes (model-changes.ts): each post is put into the viewer's
 * own model, and the views get a new model object with it (its `rev` moved). Runs, panes and jobs that did not
 * change keep their objects (the row index and the views' caches key on them); a changed one is a new object.
 * Lists are filled in place, as a load on the viewer's thread does.
 */

/** The list as the viewer now has it: `previous` (what it had) with what was posted put in. */
function applyList<T>(previous: T[] | undefined, posted: PostedList<T>): T[] {
	if (!('keep' in posted)) return posted;
	const {keep, tail} = posted;
	if (!previous || previous.length < keep)
		throw new Error(`a list was posted by its end (from ${keep}) to a viewer that has ${previous?.length ?? 'none'} of it`);
	previous.length = keep;
	for (const item of tail) previous.push(item);
	return previous;
}

/** A run's or pane's list: nothing writes to the viewer's, so empty ones share one, as new runs' do in the reducer. */
function applyRunList<T>(previous: T[] | undefined, posted: PostedList<T>): T[] {
	const list = applyList(previous, posted);
	return list.length === 0 ? sharedEmptyList() : list;
}

/** The items of a posted list of strings (run ids) that are new to the viewer, as the copies kept of them. */
function shareItems(posted: PostedList<string>, shared: SharedStrings): void {
	shared.inPlace('keep' in posted ? posted.tail : posted);
}

/** Posted usage as the reducer makes usage (see the run's literal in `applyChangesInParts`). */
function usageOf([inputTokens, outputTokens, reasoningTokens, totalTokens, cachedInputTokens]: PostedUsage): Usage {
	return {inputTokens, outputTokens, reasoningTokens, totalTokens, cachedInputTokens};
}

function sameUsage(posted: PostedUsage, usage: Usage): boolean {
	const [inputTokens, outputTokens, reasoningTokens, totalTokens, cachedInputTokens] = posted;
	return (
		inputTokens === usage.inputTokens &&
		outputTokens === usage.outputTokens &&
		reasoningTokens === usage.reasoningTokens &&
		totalTokens === usage.totalTokens &&
		cachedInputTokens === usage.cachedInputTokens
	);
}

/**
 * A posted step record as the reducer makes it (reduce/steps.ts), its strings shared, and its usage the run's
 * object where the counts are the same (a run of one step, most runs of a wide job: nothing writes to the
 * viewer's usage, so one object serves both, 64 bytes a run less).
 */
function stepOf(record: PostedStep, shared: SharedStrings, runUsage: Usage): StepRecord {
	const [step, startedAt, finishedAt, usage, checkpointId, status, messageLine, messageOffset] = record;
	return {
		step,
		startedAt,
		finishedAt,
		usage: usage === undefined ? undefined : sameUsage(usage, runUsage) ? runUsage : usageOf(usage),
		checkpointId,
		status: shared.of(status),
		messageLine,
		messageOffset,
	};
}

function stepsOf(posted: PostedList<PostedStep>, shared: SharedStrings, runUsage: Usage): PostedList<StepRecord> {
	if ('keep' in posted) return {keep: posted.keep, tail: posted.tail.map(record => stepOf(record, shared, runUsage))};
	return posted.map(record => stepOf(record, shared, runUsage));
}

/** The id the viewer's model already has for an activity's id: the string its activity holds. */
function activityId(model: Model, id: string | null): string | null {
	if (id === null) return null;
	const index = model.activityIndexById.get(id);
	return index === undefined ? id : (model.activities[index]?.id ?? id);
}

/** An object just decoded from a post, which nothing else holds yet: its fields can be set before it is put in. */
type Fresh<T> = {-readonly [K in keyof T]: T[K]};

function shareRef(ref: EventRef, shared: SharedStrings): void {
	ref.source = shared.of(ref.source);
}

/** Who delegated an activity or a run, just decoded: nothing else holds it yet. */
function shareDelegatedBy(delegatedBy: {expertKey: string; runId: string} | undefined, shared: SharedStrings): void {
	if (!delegatedBy) return;
	delegatedBy.runId = shared.of(delegatedBy.runId);
	delegatedBy.expertKey = shared.of(delegatedBy.expertKey);
}

/**
 * Strings of a call's arguments up to this length are shared: a log's calls repeat their commands, flags and
 * paths, each a string of its own once decoded. Longer ones (a file written, a long command) rarely repeat, and
 * the table would only hold them once more.
 */
const sharedArgLength = 64;

/**
 * What stands for an empty object or list in a call's arguments: one each for all calls (an `exec` call's `env: {}`
 * was an object of 56 bytes per call once decoded). Frozen: nothing writes to a call's arguments.
 */
const emptyObject = Object.freeze({});
const emptyList = Object.freeze([]);

/** A call's arguments, just decoded (nothing else holds them), with their short strings and empty objects shared, in place. */
function shareArgs(value: unknown, shared: SharedStrings, depth = 0): unknown {
	if (typeof value === 'string') return value.length <= sharedArgLength ? shared.of(value) : value;
	// Arguments nest a few levels at most; a deeper value is left as it came.
	if (typeof value !== 'object' || value === null || depth > 4) return value;
	if (Array.isArray(value) && value.length === 0) return emptyList;
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) value[index] = shareArgs(value[index], shared, depth + 1);
		return value;
	}

	const fields = value as Record<string, unknown>;
	const keys = Object.keys(fields);
	if (keys.length === 0 && Object.getPrototypeOf(value) === Object.prototype) return emptyObject;
	for (const key of keys) fields[key] = shareArgs(fields[key], shared, depth + 1);
	return value;
}

/** A posted activity with the strings the viewer's model holds already in place of its own copies of them. */
function shareActivity(model: Model, activity: Activity, shared: SharedStrings): void {
	const fresh = activity as Fresh<Activity>;
	fresh.type = shared.of(activity.type);
	fresh.runId = shared.of(activity.runId);
	fresh.expertKey = shared.of(activity.expertKey);
	fresh.previousActivityId = activityId(model, activity.previousActivityId);
	shareRef(activity.ref, shared);
	shareDelegatedBy(activity.delegatedBy, shared);
	// A call's activity is mostly named by its call's id: one string for both, not the two copies a post decodes to
	// (~32 bytes a call).
	if ((isToolActivity(activity) || activity.type === 'delegate') && activity.toolCallId === activity.id) {
		(fresh as Fresh<typeof activity>).toolCallId = activity.id;
	}

	if (isToolActivity(activity)) {
		const tool = fresh as Fresh<typeof activity>;
		tool.skillName = shared.of(activity.skillName);
		tool.toolName = shared.of(activity.toolName);
		tool.args = shareArgs(activity.args, shared);
		if (activity.result) shareRef(activity.result.ref, shared);
	}
}

function streamsOf(posted: Array<[number, PostedStream]>): Map<number, StepStream> {
	if (posted.length === 0) return sharedStreams;
	const streams = new Map<number, StepStream>();
	for (const [step, stream] of posted) {
		streams.set(step, {
			step: stream.step,
			reasoning: TextAccumulator.fromState(stream.reasoning),
			result: TextAccumulator.fromState(stream.result),
			callReasoning: stream.callReasoning,
			resultGeneration: stream.resultGeneration,
		});
	}

	return streams;
}

/** How many runs, panes or activities one part of a post puts in (`applyChangesInParts`). */
const partItems = 512;

/**
 * Puts `changes` into the viewer's model a part at a time (a generator: each `next()` puts in one more part),
 * and returns the new model object, sharing what did not change with `model`. A post holds a second of a load's
 * work, which put in at once kept keys waiting. What is referred to goes in before what refers to it (activities,
 * then runs, then panes, then jobs), so the model between two parts, which the views may read, refers to nothing
 * missing; the new model object, with its new `rev`, comes only at the end.
 */
export function* applyChangesInParts(model: Model, changes: ModelChanges, shared = new SharedStrings()): Generator<void, Model, void> {
	const {activities, activityIndexById} = model;
	let done = 0;
	for (const [offset, index] of changes.activityAt.entries()) {
		const activity = activityOfPost(changes.activities[offset]!);
		shareActivity(model, activity, shared);
		activities[index] = activity;
		activityIndexById.set(activity.id, index);
		if (++done % partItems === 0) yield;
	}

	for (const posted of changes.runs) {
		const [
			runId,
			jobId,
			expertKey,
			dialect,
			runModel,
			paneId,
			parentRunId,
			delegatingActivityId,
			delegatedBy,
			resumesRunId,
			resumedByRunId,
			resumedFrom,
			started,
			status,
			statusStep,
			endedSteps,
			usage,
			startedAt,
			endedAt,
			lastEventAt,
			reportedDurationMs,
			currentStep,
			activityCount,
			error,
			unsettled,
			closing,
			pendingToolCallIds,
			childRunIds,
			adoptedBy,
			closesCycle,
			query,
			postedSteps,
			stepIndex,
			streams,
			messageSource,
			rev,
		] = posted;
		const previous = model.runs.get(runId);
		shareItems(childRunIds, shared);
		const runUsage = usageOf(usage);
		const steps = applyRunList(previous?.steps, stepsOf(postedSteps, shared, runUsage));
		shareDelegatedBy(delegatedBy, shared);

		// Every field written out, as the reducer's `newRun` does, so that the run's object has the reducer's layout.
		const run: Run = {
			runId: shared.of(runId),
			jobId: shared.of(jobId),
			expertKey: shared.of(expertKey),
			dialect: shared.of(dialect),
			model: shared.of(runModel),
			paneId: shared.of(paneId),
			parentRunId: shared.of(parentRunId),
			delegatingActivityId: activityId(model, delegatingActivityId),
			delegatedBy,
			resumesRunId: shared.of(resumesRunId),
			resumedByRunId: shared.of(resumedByRunId),
			resumedFrom,
			started,
			status: shared.of(status),
			statusStep,
			endedSteps: applyRunList(previous?.endedSteps, endedSteps),
			usage: runUsage,
			startedAt,
			endedAt,
			lastEventAt,
			reportedDurationMs,
			currentStep,
			activityCount,
			unsettled: applyRunList(previous?.unsettled, unsettled),
			closing,
			error,
			pendingToolCallIds: applyRunList(previous?.pendingToolCallIds, pendingToolCallIds),
			childRunIds: applyRunList(previous?.childRunIds, childRunIds),
			adoptedBy: shared.of(adoptedBy),
			closesCycle,
			query,
			steps,
			stepIndex: stepIndex ? new Map(steps.map(record => [record.step, record])) : undefined,
			streams: streamsOf(streams),
			messageSource: shared.of(messageSource),
			rev,
		};
		model.runs.set(run.runId, run);
		if (++done % partItems === 0) yield;
	}

	for (const posted of changes.panes) {
		const [paneId, jobId, runIds, activityIndices, lastActivityId, depth, depthEpoch, rev] = posted;
		const previous = model.panes.get(paneId);
		shareItems(runIds, shared);
		// Every field written out, as for runs above.
		const pane: Pane = {
			paneId: shared.of(paneId),
			jobId: shared.of(jobId),
			runIds: applyRunList(previous?.runIds, runIds),
			activityIndices: applyRunList(previous?.activityIndices, activityIndices),
			lastActivityId: activityId(model, lastActivityId),
			depth,
			depthEpoch,
			rev,
		};
		model.panes.set(pane.paneId, pane);
		if (++done % partItems === 0) yield;
	}

	for (const paneId of changes.removedPanes) model.panes.delete(paneId);
	for (const posted of changes.jobs) {
		shareItems(posted.runIds, shared);
		const job: Job = {...posted, jobId: shared.of(posted.jobId), runIds: applyList(model.jobs.get(posted.jobId)?.runIds, posted.runIds)};
		model.jobs.set(job.jobId, job);
	}

	for (const [runId, info] of changes.runtime) model.runtime.set(runId, info);
	return {...model, ...changes.rest, diagnostics: applyList(model.diagnostics, changes.diagnostics)};
}
