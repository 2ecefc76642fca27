import type {RunStatus} from '../model/events.js';
import {isToolActivity, type Activity, type Job, type Model, type Run, type ToolActivity} from '../model/state.js';
import {jobTotals} from './tree.js';
import {runnerOfLog, type PerstackRunner} from './perstack-runner.js';

/*
 * What a person types to carry on from where a job stopped: resume from a checkpoint, answer an
 * interactive tool, or learn that the job ran out of steps. Commands are exact and safe to paste: every
 * value that came from the log is shell-quoted.
 */

/** Stands for the text a person answers an interactive tool with; they replace it before running the command. */
export const answerPlaceholder = '<answer>';
/** Stands for the query when the log does not hold it (a partial log). */
export const queryPlaceholder = '<query>';

export type StepCheckpoint = {
	runId: string;
	step: number;
	checkpointId: string | undefined;
	status: RunStatus | undefined;
	/** Undefined when the runtime cannot resume from it: it is not the coordinator's, or has no id. */
	resumeCommand: string | undefined;
};

/** The checkpoint that ended the step an activity belongs to, and how to resume from it. */
export function stepCheckpoint(model: Model, activity: Activity): StepCheckpoint | undefined {
	if (activity.step === undefined) return undefined;
	const run = model.runs.get(activity.runId);
	const record = run?.steps.find(candidate => candidate.step === activity.step);
	if (!run || !record) return undefined;
	return {
		runId: run.runId,
		step: record.step,
		checkpointId: record.checkpointId,
		status: record.status,
		resumeCommand: record.checkpointId === undefined ? undefined : resumeCommand(model, run, record.checkpointId),
	};
}

/**
 * `perstack run [--runtime <it>] <expertKey> '<query>' --continue-job <jobId> --resume-from <checkpointId>`, for a
 * checkpoint of a coordinator (a root Perstack run): the runtime resumes only from those, so for a
 * delegated run this is undefined. The query is the one the coordinator's pane started with.
 */
export function resumeCommand(model: Model, run: Run, checkpointId: string): string | undefined {
	if (run.dialect !== 'perstack' || run.parentRunId !== null) return undefined;
	const query = originalQuery(model, run);
	return [
		runWords(runnerOfLog(model, run.jobId)),
		shellQuote(run.expertKey),
		query === undefined ? `"${queryPlaceholder}"` : shellQuote(query, true),
		'--continue-job',
		shellQuote(run.jobId),
		'--resume-from',
		shellQuote(checkpointId),
	].join(' ');
}

/** A resumed run has no query of its own: it carries on with the query of the run it resumes. */
export function originalQuery(model: Model, run: Run): string | undefined {
	const seen = new Set<string>();
	let current: Run | undefined = run;
	while (current && !seen.has(current.runId)) {
		seen.add(current.runId);
		if (current.query !== undefined) return current.query;
		current = current.resumesRunId === null ? undefined : model.runs.get(current.resumesRunId);
	}

	return model.runtime.get(run.runId)?.query;
}

export type InteractiveStop = {
	run: Run;
	/** The interactive tool call the run is waiting on. */
	activity: ToolActivity;
	/** The expert the job is continued through: its coordinator's, even when a delegate asked. */
	coordinator: string;
	toolName: string;
	args: unknown;
	/** The CLI on PATH, in the runtime the log says the job ran in (`runnerOfLog`). */
	runner: PerstackRunner;
	/**
	 * `perstack run [--runtime <it>] <expertKey> "<answer>" --continue-job <jobId> -i`. Plain `--continue` is not offered: on the
	 * recorded CLI (0.0.54) it fails with "No runs found", and it would answer whichever job is latest. Where the
	 * step called another tool before the question, the answer is the JSON form naming the call (`answerForm`).
	 */
	command: string;
	/**
	 * `json` where a plain answer would go astray: the runtime gives a plain `-i` answer to the stopped step's first
	 * tool call, and when that is another tool the question is asked again. The JSON form names the question's call.
	 */
	answerForm: 'plain' | 'json';
	/** With `answerForm` `json`: the tool the step called first, which a plain answer would go to. */
	firstCall: string | undefined;
};

/**
 * What a run stopped by an interactive tool asked, and the command that answers it. Undefined unless the
 * run is stopped on an interactive tool and no run has resumed it yet.
 */
export function interactiveStop(model: Model, run: Run): InteractiveStop | undefined {
	if (run.status !== 'stoppedByInteractiveTool' || run.resumedByRunId !== null) return undefined;
	const activity = pendingInteractiveTool(model, run);
	if (!activity) return undefined;
	// The job is continued through its coordinator, even when a delegate asked.
	const coordinator = rootOf(model, run).expertKey;
	const first = firstCallOfStep(model, activity);
	const json = first !== undefined && first.toolCallId !== activity.toolCallId;
	const answer = json ? shellQuote(answerArgument(activity, 'json', answerPlaceholder), true) : `"${answerPlaceholder}"`;
	const runner = runnerOfLog(model, run.jobId);
	return {
		run,
		activity,
		coordinator,
		toolName: activity.toolName,
		args: activity.args,
		runner,
		command: `${runWords(runner)} ${shellQuote(coordinator)} ${answer} --continue-job ${shellQuote(run.jobId)} -i`,
		answerForm: json ? 'json' : 'plain',
		firstCall: json ? first.toolName : undefined,
	};
}

/**
 * The answer as `perstack run … -i` takes it: the text itself, or in the JSON form the call it answers and the
 * text (what a plain answer would give to the step's first call instead).
 */
export function answerArgument(activity: ToolActivity, form: 'plain' | 'json', text: string): string {
	return form === 'json' ? JSON.stringify({toolCallId: activity.toolCallId, toolName: activity.toolName, skillName: activity.skillName, text}) : text;
}

/** The first tool call the model made in the step of `activity` (its run's, in the order it made them). */
function firstCallOfStep(model: Model, activity: ToolActivity): ToolActivity | undefined {
	const run = model.runs.get(activity.runId);
	const pane = run ? model.panes.get(run.paneId) : undefined;
	for (const index of pane?.activityIndices ?? []) {
		const candidate = model.activities[index];
		if (candidate && candidate.runId === activity.runId && candidate.step === activity.step && isToolActivity(candidate)) return candidate;
	}

	return undefined;
}

/**
 * The interactive call the run waits on. It is looked for across the pane's runs: a resumed run that re-issues a
 * call left pending by a mixed stop (`resumeToolCalls` → `callInteractiveTool`) re-issues the earlier run's
 * activity, which stays where it was made.
 */
function pendingInteractiveTool(model: Model, run: Run): ToolActivity | undefined {
	const pane = model.panes.get(run.paneId);
	let fallback: ToolActivity | undefined;
	for (const index of pane?.activityIndices ?? []) {
		const activity = model.activities[index];
		if (activity?.type !== 'interactiveTool') continue;
		if (run.pendingToolCallIds.includes(activity.toolCallId)) return activity;
		if (activity.result === undefined) fallback = activity;
	}

	return fallback;
}

function rootOf(model: Model, run: Run): Run {
	const seen = new Set<string>();
	let current = run;
	while (current.parentRunId !== null && !seen.has(current.runId)) {
		seen.add(current.runId);
		const parent = model.runs.get(current.parentRunId);
		if (!parent) break;
		current = parent;
	}

	return current;
}

/**
 * `stopped at max steps: 100 of 100` when the job stopped because it ran out of steps; the limit is the
 * job's `maxSteps` from `initializeRuntime` when that was seen (`stopped at max steps: 100 steps` when
 * not). Perstack numbers steps across the whole job and applies the limit to that number, so the count is
 * the highest step number reached, not a sum over runs (parallel delegates share step numbers).
 */
export function maxStepsNote(model: Model, job: Job, jobStatus: RunStatus = jobTotals(model, job).status): string | undefined {
	// `jobStatus` is the job's as `jobTotals` says it: a caller that has the totals passes it, so the runs are walked once.
	let stopped = jobStatus === 'stoppedByExceededMaxSteps';
	let highest: number | undefined;
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		// A delegate that hits the limit stops the job while its coordinator still waits on it.
		if (run.status === 'stoppedByExceededMaxSteps' && run.resumedByRunId === null) stopped = true;
		for (const step of run.endedSteps) if (highest === undefined || step > highest) highest = step;
	}

	return stopped ? maxStepsReached(job, highest) : undefined;
}

/** The note, once the job is known to have stopped at max steps, having reached step `highest`. */
export function maxStepsReached(job: Job, highest: number | undefined): string {
	const reached = highest ?? 0;
	return job.maxSteps === undefined
		? `stopped at max steps: ${reached} step${reached === 1 ? '' : 's'}`
		: `stopped at max steps: ${reached} of ${job.maxSteps}`;
}

const safeBare = /^[\w@%+=:,./-]+$/;
// Characters a terminal would act on or hide (as sanitize.ts lists them), and unpaired surrogates.
const needsEscapes = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\u3164\uFEFF\uFFA0]|\p{Cs}/u;

/**
 * One shell word for `text`: bare when it is plainly safe (and `always` is not set), else in single
 * quotes (`'` written as `'\''`). Text with line breaks or other control characters uses `$'…'` with
 * escapes instead (bash, zsh, ksh, and POSIX sh since 2024), so the command stays on one line and pastes
 * as it reads.
 */
export function shellQuote(text: string, always = false): string {
	if (!always && safeBare.test(text)) return text;
	if (!needsEscapes.test(text)) return `'${text.replaceAll("'", "'\\''")}'`;
	let out = "$'";
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (char === '\\' || char === "'") out += `\\${char}`;
		else if (char === '\n') out += '\\n';
		else if (char === '\t') out += '\\t';
		else if (char === '\r') out += '\\r';
		else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
		else if (code >= 0xd800 && code <= 0xdfff) out += '\\uFFFD';
		else if (needsEscapes.test(char)) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
		else out += char;
	}

	return `${out}'`;
}

/** `perstack run` and the runner's options (the runtime the job ran in, `runnerOfLog`), as a shell line's start. */
function runWords(runner: PerstackRunner): string {
	return [...runner.program, 'run', ...runner.options].map(word => shellQuote(word)).join(' ');
}
