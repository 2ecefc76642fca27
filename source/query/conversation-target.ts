import {messageLineOf, messageSteps, type MessageLine} from '../model/message-lines.js';
import type {Activity, Model, Run} from '../model/state.js';

/*
 * Which step's conversation to show, and where its messages are in the log: for `--conversation RUN[@STEP]`
 * (a run id or a unique prefix of one; the run's last step by default) and for the viewer's `c` (an
 * activity's step, or a pane's last step).
 */

export type ConversationTarget = {run: Run; line: MessageLine};

/**
 * `message` is for `--conversation`, which names the run it was given; `brief` says the same in the viewer's one-line
 * footer, where the run is the one selected: the reason first and no run id, so a narrow terminal still shows why.
 */
export type TargetResult = {ok: true; target: ConversationTarget} | {ok: false; message: string; brief: string};

function failure(message: string, brief = message): TargetResult {
	return {ok: false, message, brief};
}

/** How many candidate runs an error lists. */
const maxListed = 10;

export function findConversation(model: Model, runPrefix: string, step: number | undefined): TargetResult {
	const exact = model.runs.get(runPrefix);
	const candidates = exact ? [exact] : [...model.runs.values()].filter(run => run.runId.startsWith(runPrefix));
	if (candidates.length === 0) {
		const runs = [...model.runs.values()];
		return failure(`no run id starts with "${runPrefix}"; ${runs.length === 0 ? 'the input has no runs' : `runs: ${listRuns(runs)}`}`);
	}

	if (candidates.length > 1) return failure(`"${runPrefix}" starts ${candidates.length} run ids: ${listRuns(candidates)}; give more of the id`);
	return stepOf(candidates[0]!, step);
}

/** The conversation of the step of an activity (a `delegate` row: the step that delegated). */
export function activityConversation(model: Model, activity: Activity): TargetResult {
	const run = model.runs.get(activity.runId);
	if (!run) return failure('the run of this activity is not in the model');
	return stepOf(run, activity.step);
}

/** The conversation of a pane's last step: its latest run (a resumed coordinator is one pane) that has one. */
export function paneConversation(model: Model, paneId: string): TargetResult {
	const pane = model.panes.get(paneId);
	const runs = (pane?.runIds ?? []).map(runId => model.runs.get(runId)).filter(run => run !== undefined);
	for (const run of [...runs].reverse()) {
		const line = messageLineOf(run);
		if (line) return {ok: true, target: {run, line}};
	}

	const message = `no step of ${runs.length === 1 ? 'this run' : 'these runs'} has messages in the log`;
	const dialect = runs.find(run => run.dialect !== 'perstack')?.dialect;
	return dialect === undefined ? failure(message) : failure(`${message}: ${carriesNone(dialect)}`, `no conversation: ${carriesNone(dialect)}`);
}

/** Why a run of another runtime than Perstack has no conversation to show. */
function carriesNone(dialect: Run['dialect']): string {
	// Claude Code's conversations are read from its transcripts, found from the steps' lines: a run with none has no
	// response in the log (a sub-agent's own sub-agent, which the stream leaves out).
	if (dialect === 'claude-code') return 'none of its responses is in the log (a stream leaves out what a sub-agent’s own sub-agents do)';
	// Codex's rollout of the session keeps every item; its exec stream, none of the messages.
	if (dialect === 'codex')
		return 'a codex stream does not carry what the model was given at a step; the session’s rollout does (~/.codex/sessions/…/rollout-…-<thread>.jsonl)';
	return `${/^[aeiou]/.test(dialect) ? 'an' : 'a'} ${dialect} stream does not carry what the model was given at a step`;
}

function stepOf(run: Run, step: number | undefined): TargetResult {
	const line = messageLineOf(run, step);
	if (line) return {ok: true, target: {run, line}};
	const steps = messageSteps(run);
	if (steps.length === 0) {
		const head = `run ${run.runId} (${run.expertKey}) has no step with messages in the log`;
		if (run.dialect === 'perstack') return failure(head, 'no conversation: this run has no step with messages in the log');
		return failure(`${head}: ${carriesNone(run.dialect)}; --print shows what each run did and answered`, `no conversation: ${carriesNone(run.dialect)}`);
	}

	return failure(
		`run ${run.runId} (${run.expertKey}) has no step ${step ?? ''} with messages; its steps: ${steps.join(', ')}`,
		`no conversation at step ${step ?? ''}: this run has messages at steps ${steps.join(', ')}`,
	);
}

function listRuns(runs: readonly Run[]): string {
	const listed = runs.slice(0, maxListed).map(run => `${run.runId} (${run.expertKey})`);
	return listed.join(', ') + (runs.length > maxListed ? `, … ${runs.length - maxListed} more` : '');
}
