/*
 * Streaming text: each step's reasoning and result as they stream in, kept for the last few steps, and reasoning
 * that completes after its activities handed to them.
 */
import {setStream} from '../run-collections.js';
import {releasedActivity, type Model, type Run, type StepStream} from '../state.js';
import {TextAccumulator} from '../text-accumulator.js';
import {assertNever} from '../assert-never.js';
import {livePane} from '../storage/run-store.js';
import {updateActivity, type EventOf} from './activities.js';

/** How many steps of streaming text a run keeps; older text already lives in its activities. */
const keptStreamSteps = 3;

export function streamOf(run: Run, step: number): StepStream {
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

export function onStream(model: Model, run: Run, event: EventOf<'stream'>): void {
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
export function resultReasoning(stream: StepStream | undefined): string | undefined {
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
		// One let go (the viewer's load worker lets posted ones go: load/viewer/change-tracker.ts) is of a closed
		// run or of a step two behind its run's: what comes before it is older still.
		if (activity === releasedActivity) break;
		if (!activity || activity.runId !== run.runId) continue;
		if (activity.step !== step) break;
		if (resultOnly && activity.type !== 'complete') continue;
		if (activity.reasoning === undefined && activity.type !== 'query') updateActivity(model, activity, {reasoning});
	}
}
