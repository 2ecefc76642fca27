import type {Continuation} from '../query/continuation.js';
import {sanitizeLine} from '../text/sanitize.js';
import type {Found} from '../view-model/cockpit.js';
import type {UiAction} from '../view-model/ui-state.js';
import type {ViewEnv} from './contexts.js';

/*
 * What the cockpit's keys do once they know their command, the same from the tree, the inspector and the
 * timeline (hooks/use-cockpit-keys.ts, timeline-view.tsx).
 */

/** What the cockpit says when the viewer runs no commands (a test's views, a replay). */
export const noCockpit = 'this viewer runs no commands';

type Dispatch = (action: UiAction) => void;

export function say(dispatch: Dispatch, message: string): void {
	dispatch({type: 'setMessage', message: sanitizeLine(message)});
}

/** Asks for a yes before running it (the confirm bar), or says what is missing to run it from here. */
export function confirmContinuation(env: ViewEnv, dispatch: Dispatch, continuation: Continuation): void {
	const why = env.cockpit ? env.cockpit.whyNot(continuation.jobId) : noCockpit;
	if (why !== undefined) {
		say(dispatch, `cannot ${continuation.kind === 'answer' ? 'answer' : 'resume'} from here: ${why} · y copies the command`);
		return;
	}

	dispatch({type: 'setConfirm', confirm: {kind: 'continue', continuation}});
}

/** `y`: the command on the clipboard and on the terminal's own screen, or why there is none. */
export function copyCommand(env: ViewEnv, dispatch: Dispatch, found: Found<Continuation>): void {
	if (!found.ok) {
		say(dispatch, found.message);
		return;
	}

	if (!env.cockpit) {
		say(dispatch, noCockpit);
		return;
	}

	env.cockpit.copy(found.value.line);
	dispatch({type: 'setShowingCommand', showing: true});
}

/** The program and options a continuation of the job runs with (the CLI on PATH when the viewer runs none). */
export function runnerFor(env: ViewEnv, jobId: string) {
	return env.cockpit?.runner(jobId) ?? {program: ['perstack'], options: []};
}
