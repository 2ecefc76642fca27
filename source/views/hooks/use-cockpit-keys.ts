import {useStdout} from 'ink';
import {answerPlaceholder, interactiveStop} from '../../query/resume-command.js';
import {answerContinuation, claudeSessionMessage} from '../../query/continuation.js';
import {commandAt, questionAt, resumeAt, sessionAt, type CockpitPlace} from '../../view-model/cockpit.js';
import {askAnswer, askMessage, confirmContinuation, copyCommand, noCockpit, runnerFor, say} from '../cockpit-acts.js';
import {useUiStore, useViewEnv} from '../contexts.js';
import {priorities, useCommands} from '../keypress.js';
import type {Command} from '../keymap.js';

/*
 * The cockpit's keys: `a` answers the question a run waits on (a prompt, then the command to confirm), or sends a
 * Claude Code session its next prompt, `R` resumes
 * from the inspected activity's step, `K` stops the running commands, `y` copies the command. The timeline
 * gives `a`, `R` and `y` its own rows (timeline-view.tsx); the confirm bar (parts/confirm-bar.tsx) is answered here.
 */

/**
 * `placeOfSelection`: the tree's selected row as a place (an activity or a run). Returns what the answer prompt
 * calls on enter (use-prompt-keys.ts).
 */
export function useCockpitKeys(placeOfSelection: () => CockpitPlace | undefined): {onAnswer: (text: string, runId: string) => void} {
	const env = useViewEnv();
	const store = useUiStore();
	const {dispatch} = store;
	const {write} = useStdout();

	// While a copied command is shown on the terminal's own screen, the next key brings the viewer back and does nothing else.
	useCommands(priorities.confirm + 2, () => {
		if (!store.getState().showingCommand) return false;
		dispatch({type: 'setShowingCommand', showing: false});
		// Writing nothing through Ink makes it draw its last frame again in full.
		env.cockpit?.back(() => write(''));
		return true;
	});

	// The confirm bar's keys: y does it, c copies the command, Ctrl-C goes on to the app, any other key is a no.
	useCommands(priorities.confirm, command => {
		const {confirm} = store.getState();
		if (!confirm || command === 'app.interrupt') return false;
		dispatch({type: 'setConfirm', confirm: undefined});
		if (command === 'conversation.open' && confirm.kind === 'continue') {
			copyCommand(env, dispatch, {ok: true, value: confirm.continuation});
			return true;
		}

		if (command !== 'confirm.yes') say(dispatch, confirm.kind === 'stop' ? 'the command runs on' : 'nothing was run');
		else if (confirm.kind === 'stop') say(dispatch, env.cockpit?.stop() ? 'stopping the command (SIGTERM)' : 'no command is running');
		else if (!env.cockpit) say(dispatch, noCockpit);
		else env.cockpit.run(confirm.continuation, message => say(dispatch, message));
		return true;
	});

	const placeNow = (): CockpitPlace | undefined => {
		const {overlay} = store.getState();
		if (overlay.kind === 'none') return placeOfSelection();
		if (overlay.kind !== 'inspector') return undefined;
		const {model} = env.store;
		const index = model.activityIndexById.get(overlay.activityId);
		const activity = index === undefined ? undefined : model.activities[index];
		return activity ? {activity} : undefined;
	};

	const jobOf = (place: CockpitPlace) => env.store.model.runs.get('activity' in place ? place.activity.runId : place.runId)?.jobId ?? '';

	// The tree and the inspector act from their selection; the timeline from its rows; other overlays not at all.
	const here = () => {
		const {overlay} = store.getState();
		return overlay.kind === 'none' || overlay.kind === 'inspector';
	};

	const keys: Partial<Record<Command, () => boolean>> = {
		'cockpit.stop'() {
			if (!env.childRunning()) say(dispatch, 'no command is running');
			else dispatch({type: 'setConfirm', confirm: {kind: 'stop'}});
			return true;
		},
		'cockpit.answer'() {
			if (!here()) return false;
			const place = placeNow();
			const question = place ? questionAt(env.store.model, place) : undefined;
			// A Claude Code session asks no question: `a` sends it the next prompt.
			const session = place && !question?.ok ? sessionAt(env.store.model, place) : undefined;
			if (session) {
				if (session.ok) askMessage(env, dispatch, session.value);
				else say(dispatch, session.message);
				return true;
			}

			if (!question?.ok) {
				say(dispatch, question?.message ?? 'a answers the question a run waits on: select the run or one of its activities');
				return true;
			}

			askAnswer(env, dispatch, question.value);
			return true;
		},
		'cockpit.resume'() {
			const {overlay} = store.getState();
			if (overlay.kind === 'none') {
				say(dispatch, 'R resumes from a step: open the inspector on one of its activities (enter), or the timeline (t)');
				return true;
			}

			if (overlay.kind !== 'inspector') return false;
			const place = placeNow();
			if (!place || !('activity' in place)) return true;
			const found = resumeAt(env.store.model, place.activity, runnerFor(env, jobOf(place)));
			if (found.ok) confirmContinuation(env, dispatch, found.value);
			else say(dispatch, found.message);
			return true;
		},
		'confirm.yes'() {
			if (!here()) return false;
			const place = placeNow();
			if (place) copyCommand(env, dispatch, commandAt(env.store.model, place, runnerFor(env, jobOf(place)), answerPlaceholder, env.cockpit?.claudeRunner));
			else say(dispatch, 'y copies the answer or resume command: select a run or an activity');
			return true;
		},
	};
	useCommands(priorities.overlay + 2, command => keys[command]?.() ?? false);

	const onAnswer = (text: string, runId: string) => {
		const {model} = env.store;
		const run = model.runs.get(runId);
		const message = run?.dialect === 'claude-code' ? claudeSessionMessage(run.jobId, text, env.cockpit?.claudeRunner) : undefined;
		if (message) {
			confirmContinuation(env, dispatch, message);
			return;
		}

		const stop = run ? interactiveStop(model, run) : undefined;
		if (stop) confirmContinuation(env, dispatch, answerContinuation(stop, text, runnerFor(env, stop.run.jobId)));
		else say(dispatch, 'the question no longer waits for an answer');
	};

	return {onAnswer};
}
