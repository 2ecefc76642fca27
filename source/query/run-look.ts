import type {Model, Run} from '../model/state.js';
import {endedWhileWaitingLook, endedWithoutFinalEventLook, statusLook, type StatusLook} from '../text/status.js';
import {firstLine} from '../text/first-line.js';
import {endedWhileWaiting, endedWithoutFinalEvent, shownStatus} from './tree.js';

/**
 * How a run's state reads on screen, wherever it is shown (a pane row, a job row, the header): one order of
 * precedence, so that the three never disagree about a run the input left open.
 */
export function runLook(model: Model, run: Run | undefined): StatusLook {
	if (!run) return statusLook.init;
	if (endedWhileWaiting(model, run)) return endedWhileWaitingLook;
	if (endedWithoutFinalEvent(model, run)) return endedWithoutFinalEventLook;
	return statusLook[shownStatus(run)];
}

/** The first line of the error a run stopped on, made safe; '' when it did not stop on one. */
export function runErrorLine(run: Run | undefined): string {
	if (!run?.error || shownStatus(run) !== 'stoppedByError') return '';
	return firstLine(`${run.error.name}${run.error.message === '' ? '' : `: ${run.error.message}`}`);
}
