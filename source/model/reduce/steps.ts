/*
 * Steps: a step's start and end (the checkpoint that ends it sets the run's status, counts the step, and says
 * how the run goes on or stops), each step's record, and a generation's usage held until its step ends.
 */
import {type Usage} from '../events.js';
import {addEndedStep, addStepRecord, hasEndedStep, stepRecordOf} from '../run-collections.js';
import {addUsage, subtractUsage} from '../usage.js';
import {keepsStepRecords, type Model, type Run, type StepRecord} from '../state.js';
import {assertNever} from '../assert-never.js';
import {rememberMessageLine} from '../message-lines.js';
import {liveRun} from '../storage/run-store.js';
import {addActivity, attachPartialResults, callIndex, settleRun, type EventOf} from './activities.js';
import {adoptOrphans, linkParent, setStatus} from './runs.js';
import {resultReasoning} from './streams.js';

export function onStepStart(model: Model, run: Run, event: EventOf<'stepStart'>): void {
	if (event.dialect === 'daemon') {
		const step = (run.currentStep ?? 1) + 1;
		run.currentStep = step;
		addEndedStep(run, step);
		const record = stepRecord(model, run, step);
		if (record && !model.figuresOnly) record.startedAt = event.timestamp;
		return;
	}

	const step = event.step ?? (run.currentStep ?? 0) + 1;
	run.currentStep = step;
	// A runtime without checkpoints: the step counts when it starts.
	if (event.counted === true) addEndedStep(run, step);
	const record = stepRecord(model, run, step);
	if (!record) return;
	if (!model.figuresOnly) record.startedAt = record.startedAt ?? event.timestamp;
	if (event.dialect === 'perstack' || event.messagesInLines === true) rememberMessageLine(run, record, event.ref, false);
}

/**
 * The run's record of `step`, made if it has none. A summary's model (`keepsStepRecords`) makes a run's first
 * record only, and undefined stands for the others: it reads no step's messages, but whether a run began a step
 * at all is asked of its records (`unreported` in query/cost.ts). One run of 500,000 calls kept ~100 bytes a step.
 */
function stepRecord(model: Model, run: Run, step: number): StepRecord | undefined {
	let record = stepRecordOf(run, step);
	if (!record && !keepsStepRecords(model) && run.steps.length > 0) return undefined;
	if (!record) {
		record = {
			step,
			startedAt: undefined,
			finishedAt: undefined,
			usage: undefined,
			checkpointId: undefined,
			status: undefined,
			messageLine: 0,
			messageOffset: 0,
		};
		addStepRecord(run, record);
	}

	if (model.stepChanges) noteStepChange(model.stepChanges, run, record);
	return record;
}

/** The record is about to change: the first changed of its run's, as `Model.stepChanges` keeps it. */
function noteStepChange(changes: Map<string, number>, run: Run, record: StepRecord): void {
	const last = run.steps.length - 1;
	// Mostly the run's latest step; an earlier one (a late event) is looked for.
	const at = run.steps[last] === record ? last : Math.max(0, run.steps.indexOf(record));
	const before = changes.get(run.runId);
	if (before === undefined || at < before) changes.set(run.runId, at);
}

export function onStepEnd(model: Model, run: Run, event: EventOf<'stepEnd'>): void {
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
	const record = stepRecord(model, run, step);
	if (!record) return;
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

/**
 * Counts a generation's usage before its step ends, so a run killed after the model answered still shows what it
 * used. The step's end replaces it with the step's own usage; a step's calls events repeat the same generation's.
 */
export function holdStepUsage(model: Model, run: Run, step: number, usage: Usage): void {
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
