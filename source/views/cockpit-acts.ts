import type {Continuation} from '../query/continuation.js';
import {runnerOfLog, type PerstackRunner} from '../query/perstack-runner.js';
import type {InteractiveStop} from '../query/resume-command.js';
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

/** Whether a continuation of `jobId` can run from here; says what is missing when it cannot. */
function canContinue(env: ViewEnv, dispatch: Dispatch, jobId: string, kind: Continuation['kind']): boolean {
	const why = env.cockpit ? env.cockpit.whyNot(jobId) : noCockpit;
	if (why !== undefined) say(dispatch, `cannot ${{answer: 'answer', resume: 'resume', message: 'send it'}[kind]} from here: ${why} · y copies the command`);
	return why === undefined;
}

/** Asks for a yes before running it (the confirm bar), or says what is missing to run it from here. */
export function confirmContinuation(env: ViewEnv, dispatch: Dispatch, continuation: Continuation): void {
	if (canContinue(env, dispatch, continuation.jobId, continuation.kind)) dispatch({type: 'setConfirm', confirm: {kind: 'continue', continuation}});
}

/** `a`: the answer prompt for the question `stop` asks, or what is missing to answer it from here. */
export function askAnswer(env: ViewEnv, dispatch: Dispatch, stop: InteractiveStop): void {
	if (canContinue(env, dispatch, stop.run.jobId, 'answer')) dispatch({type: 'openPrompt', kind: 'answer', text: '', answerRunId: stop.run.runId});
}

/** `a` on a Claude Code session: the prompt for the message to send it (`run` is the session's run the person is on). */
export function askMessage(env: ViewEnv, dispatch: Dispatch, run: {jobId: string; runId: string}): void {
	if (canContinue(env, dispatch, run.jobId, 'message')) dispatch({type: 'openPrompt', kind: 'answer', text: '', answerRunId: run.runId});
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

/** The program and options a continuation of the job runs with (the CLI on PATH, in the log's runtime, when the viewer runs none). */
export function runnerFor(env: ViewEnv, jobId: string): PerstackRunner {
	return env.cockpit?.runner(jobId) ?? runnerOfLog(env.store.model, jobId);
}
