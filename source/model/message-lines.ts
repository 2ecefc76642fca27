import type {EventRef} from './events.js';
import type {Run} from './state.js';

/*
 * What the model was given at a step is re-read from the log when someone asks (the conversation view), never
 * kept: a long job repeats its whole history in every step's events. A run keeps, per step, only where the
 * line that holds the step's messages is: three numbers in one flat array, no object per step.
 *
 * The line is the step's end (`continueToNextStep`, `completeRun`, `stopRunBy…`): its checkpoint holds every
 * message after the step and its `step.newMessages` what the step added. Until the step ends, its
 * `startGeneration` (the messages the model is being given) stands in, and the end replaces it.
 */

/** Shared by every run until its first line is remembered; never written to (appending copies short lists). */
export const noMessageLines: number[] = [];

/** Numbers per step in `Run.messageLines`. */
const stride = 3;

export function rememberMessageLine(run: Run, step: number, ref: EventRef, isStepEnd: boolean): void {
	const lines = run.messageLines;
	const last = lines.length - stride;
	if (last >= 0 && lines[last] === step) {
		// A step's end wins over its start; a start arriving after the end changes nothing.
		if (!isStepEnd) return;
		lines[last + 1] = ref.line;
		lines[last + 2] = ref.offset;
	} else {
		// Short lists are copied at their exact size (as run-collections.ts `appended` does), so the shared empty
		// list is never written to.
		run.messageLines = lines.length < 8 * stride ? [...lines, step, ref.line, ref.offset] : pushed(lines, step, ref);
	}

	run.messageSource = ref.source;
}

function pushed(lines: number[], step: number, ref: EventRef): number[] {
	lines.push(step, ref.line, ref.offset);
	return lines;
}

/** Where the messages of `step` of the run can be read again: the line and its byte offset in `source`. */
export type MessageLine = {source: string; step: number; line: number; offset: number};

/** The line of `step`, or of the run's last step with messages when `step` is undefined. */
export function messageLineOf(run: Run, step?: number): MessageLine | undefined {
	const lines = run.messageLines;
	const source = run.messageSource;
	if (source === undefined) return undefined;
	for (let at = lines.length - stride; at >= 0; at -= stride) {
		if (step === undefined || lines[at] === step) return {source, step: lines[at]!, line: lines[at + 1]!, offset: lines[at + 2]!};
	}

	return undefined;
}

/** The steps of the run whose messages can be read, in the order they came. */
export function messageSteps(run: Run): number[] {
	const steps: number[] = [];
	for (let at = 0; at < run.messageLines.length; at += stride) steps.push(run.messageLines[at]!);
	return steps;
}
