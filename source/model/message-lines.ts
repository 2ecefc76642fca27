import type {Dialect, EventRef} from './events.js';
import type {Run, StepRecord} from './state.js';

/*
 * What the model was given at a step is re-read from the log when someone asks (the conversation view), never
 * kept: a long job repeats its whole history in every step's events. A step record keeps only where the line
 * that holds the step's messages is (its line number and byte offset: two numbers in the record, no object),
 * and the run the source they are in.
 *
 * The line is the step's end (`continueToNextStep`, `completeRun`, `stopRunBy…`): its checkpoint holds every
 * message after the step and its `step.newMessages` what the step added. Until the step ends, its
 * `startGeneration` (the messages the model is being given) stands in, and the end replaces it. In a Claude Code
 * transcript, which keeps every message as a line of its own, it is the step's first line: what came before it on
 * the run's side was given to the model, what follows it up to the next response is what the step added.
 */

export function rememberMessageLine(run: Run, record: StepRecord, ref: EventRef, isStepEnd: boolean): void {
	// A step's end wins over its start; a start arriving after the end changes nothing.
	if (!isStepEnd && (record.messageLine ?? 0) > 0) return;
	record.messageLine = ref.line;
	record.messageOffset = ref.offset;
	run.messageSource = ref.source;
}

/**
 * Where the messages of a step of a run can be read again: the line and its byte offset in `source`; the run's
 * runtime says how (Perstack's line holds them all, a Claude Code transcript's is the step's first of several).
 */
export type MessageLine = {source: string; step: number; line: number; offset: number; dialect: Dialect; runId: string};

/**
 * The line of `step`, or of the run's last step with messages when `step` is undefined. Looked up only when a
 * person asks, so a walk over the run's records will do.
 */
export function messageLineOf(run: Run, step?: number): MessageLine | undefined {
	const source = run.messageSource;
	if (source === undefined) return undefined;
	let found: StepRecord | undefined;
	for (const record of run.steps) {
		if ((record.messageLine ?? 0) <= 0) continue;
		if (step === undefined ? found === undefined || record.step > found.step : record.step === step) found = record;
	}

	return found ? {source, step: found.step, line: found.messageLine ?? 0, offset: found.messageOffset ?? 0, dialect: run.dialect, runId: run.runId} : undefined;
}

/** The steps of the run whose messages can be read, in step order. */
export function messageSteps(run: Run): number[] {
	return run.steps
		.filter(record => (record.messageLine ?? 0) > 0)
		.map(record => record.step)
		.sort((a, b) => a - b);
}
