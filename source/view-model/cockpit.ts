import type {Activity, Model, Run} from '../model/state.js';
import {answerContinuation, claudeSessionContinuation, resumeContinuation, type Continuation} from '../query/continuation.js';
import type {PerstackRunner} from '../query/perstack-runner.js';
import {defaultClaudeRunner, type ClaudeRunner} from '../query/claude-runner.js';
import {interactiveStop, stepCheckpoint, type InteractiveStop} from '../query/resume-command.js';

/*
 * What the cockpit's keys act on (`a` answer, `R` resume, `y` copy): worked out from what is selected, with the
 * reason in the person's words when there is nothing to act on.
 */

export type Found<T> = {ok: true; value: T} | {ok: false; message: string};

/** Where the person is: an activity (a row of the tree, the inspector) or a run (a pane row). */
export type CockpitPlace = {activity: Activity} | {runId: string};

/**
 * The question to answer from `place`: its run's own, else the one its job waits on (a person on the job's
 * coordinator pane answers the delegate that asked).
 */
export function questionAt(model: Model, place: CockpitPlace): Found<InteractiveStop> {
	const run = model.runs.get('activity' in place ? place.activity.runId : place.runId);
	if (!run) return {ok: false, message: 'a answers a question a run waits on: select a run or an activity'};
	const own = interactiveStop(model, run);
	if (own) return {ok: true, value: own};
	for (const runId of model.jobs.get(run.jobId)?.runIds ?? []) {
		const other = model.runs.get(runId);
		const stop = other ? interactiveStop(model, other) : undefined;
		if (stop) return {ok: true, value: stop};
	}

	return {ok: false, message: 'nothing in this job waits for an answer'};
}

/**
 * The Claude Code session `a` sends a message to from `place` (it waits on no question: it takes a next prompt), as the
 * run the person is on; undefined for a run of another runtime.
 */
export function sessionAt(model: Model, place: CockpitPlace): Found<Run> | undefined {
	const run = model.runs.get('activity' in place ? place.activity.runId : place.runId);
	if (run?.dialect !== 'claude-code') return undefined;
	return claudeSessionContinuation(run.jobId) ? {ok: true, value: run} : {ok: false, message: 'this Claude Code stream names no session to send to'};
}

/** The command that resumes the job from the checkpoint that ended the step of `activity`. */
export function resumeAt(model: Model, activity: Activity, runner: PerstackRunner): Found<Continuation> {
	const checkpoint = stepCheckpoint(model, activity);
	const run = checkpoint ? model.runs.get(checkpoint.runId) : undefined;
	if (!checkpoint || !run) return {ok: false, message: 'R resumes from the checkpoint of a step: this activity belongs to no step'};
	return resumeStep(model, run, checkpoint.step, runner);
}

/** The command that resumes the job from the checkpoint that ended step `step` of `run` (a row of the timeline). */
export function resumeStep(model: Model, run: Run, step: number, runner: PerstackRunner): Found<Continuation> {
	if (run.dialect !== 'perstack') return {ok: false, message: 'R resumes Perstack jobs only'};
	if (run.parentRunId !== null)
		return {ok: false, message: `the runtime resumes only from a coordinator's checkpoints: step ${step} is ${run.expertKey}'s, a delegate's`};
	const checkpointId = run.steps.find(record => record.step === step)?.checkpointId;
	if (checkpointId === undefined) return {ok: false, message: `step ${step} has no checkpoint in the log (yet)`};
	const continuation = resumeContinuation(model, run, checkpointId, runner);
	if (!continuation) return {ok: false, message: 'the log does not hold the query to resume with'};
	return {ok: true, value: continuation};
}

/**
 * The command `y` copies from `place`: the answer to the question waited on (its text left to fill in), else resuming
 * from the step; for a Claude Code session, resuming it with `claudeRunner`'s program.
 */
export function commandAt(
	model: Model,
	place: CockpitPlace,
	runner: PerstackRunner,
	answerPlaceholder: string,
	claudeRunner: ClaudeRunner = defaultClaudeRunner,
): Found<Continuation> {
	const question = questionAt(model, place);
	if (question.ok) return {ok: true, value: answerContinuation(question.value, answerPlaceholder, runner)};
	// A Claude Code session is carried on whole, from wherever in it the person is.
	const run = model.runs.get('activity' in place ? place.activity.runId : place.runId);
	if (run?.dialect === 'claude-code') {
		const session = claudeSessionContinuation(run.jobId, claudeRunner);
		return session ? {ok: true, value: session} : {ok: false, message: 'nothing to copy: this Claude Code stream names no session to resume'};
	}

	if (!('activity' in place)) return {ok: false, message: 'y copies the command that answers or resumes: select an activity of a step'};
	const resume = resumeAt(model, place.activity, runner);
	return resume.ok ? resume : {ok: false, message: `nothing to copy: ${question.message}, and ${resume.message}`};
}

/** What the viewer can do to carry a job on (app/cockpit.ts); a view without it (a test, a replay's) says so. */
export type CockpitActions = {
	/** The program and options a continuation of `jobId` runs with. */
	runner: (jobId: string) => PerstackRunner;
	/** The program and options a Claude Code session's next prompt runs with (`a`). */
	claudeRunner: ClaudeRunner;
	/** What is missing to run a continuation of `jobId` from here, or undefined when nothing is. */
	whyNot: (jobId: string) => string | undefined;
	/** Runs it as the viewer's child; `report` hears what became of it, in the person's words. */
	run: (continuation: Continuation, report: (message: string) => void) => void;
	/** SIGTERM to every command that runs; false when none does. */
	stop: () => boolean;
	/**
	 * Puts the line on the clipboard (OSC 52) and shows it on the terminal's own screen, where it is one line the
	 * terminal wraps itself (so a mouse copies it whole), until `back` brings the viewer back; `repaint` then draws it in full.
	 */
	copy: (line: string) => void;
	back: (repaint: () => void) => void;
};
