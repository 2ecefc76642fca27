import {sharedEmptyList, sharedStreams} from '../../model/run-collections.js';
import type {Job, Model, Pane, Run, StepStream} from '../../model/state.js';
import {TextAccumulator} from '../../model/text-accumulator.js';
import type {ModelChanges, PostedList, PostedStream} from './model-changes.js';

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
export function* applyChangesInParts(model: Model, changes: ModelChanges): Generator<void, Model, void> {
	const {activities, activityIndexById} = model;
	let done = 0;
	for (const [offset, index] of changes.activityAt.entries()) {
		const activity = changes.activities[offset]!;
		activities[index] = activity;
		activityIndexById.set(activity.id, index);
		if (++done % partItems === 0) yield;
	}

	for (const posted of changes.runs) {
		const previous = model.runs.get(posted.runId);
		const steps = applyRunList(previous?.steps, posted.steps);
		const run: Run = {
			...posted,
			streams: streamsOf(posted.streams),
			steps,
			stepIndex: posted.stepIndex ? new Map(steps.map(record => [record.step, record])) : undefined,
			endedSteps: applyRunList(previous?.endedSteps, posted.endedSteps),
			unsettled: applyRunList(previous?.unsettled, posted.unsettled),
			pendingToolCallIds: applyRunList(previous?.pendingToolCallIds, posted.pendingToolCallIds),
			childRunIds: applyRunList(previous?.childRunIds, posted.childRunIds),
		};
		model.runs.set(run.runId, run);
		if (++done % partItems === 0) yield;
	}

	for (const posted of changes.panes) {
		const previous = model.panes.get(posted.paneId);
		const pane: Pane = {
			...posted,
			runIds: applyRunList(previous?.runIds, posted.runIds),
			activityIndices: applyRunList(previous?.activityIndices, posted.activityIndices),
		};
		model.panes.set(pane.paneId, pane);
		if (++done % partItems === 0) yield;
	}

	for (const paneId of changes.removedPanes) model.panes.delete(paneId);
	for (const posted of changes.jobs) {
		const job: Job = {...posted, runIds: applyList(model.jobs.get(posted.jobId)?.runIds, posted.runIds)};
		model.jobs.set(job.jobId, job);
	}

	for (const [runId, info] of changes.runtime) model.runtime.set(runId, info);
	return {...model, ...changes.rest, diagnostics: applyList(model.diagnostics, changes.diagnostics)};
}
