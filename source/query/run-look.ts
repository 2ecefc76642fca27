import type {Model, Run} from '../model/state.js';
import {endedWhileWaitingLook, endedWithoutFinalEventLook, statusLook, type StatusLook} from '../present/status.js';
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
