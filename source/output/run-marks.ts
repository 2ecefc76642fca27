import type {RunStatus} from '../model/events.js';
import type {Activity, Job, Model, Run} from '../model/state.js';
import {callOf} from '../model/call-index.js';
import {jobCost} from '../query/cost.js';
import {interactiveStop} from '../query/resume-command.js';
import type {PriceTable} from '../query/prices.js';
import {jobDurationMs, jobStepsText, jobTotals, runSteps, type JobTotals} from '../query/tree.js';
import {describeActivity} from '../text/describe-activity.js';
import {formatCost} from '../text/cost.js';
import {formatDuration} from '../text/format.js';
import {sanitizeLine} from '../text/sanitize.js';

/*
 * The marks `--print` puts between activities when there are jobs and runs to tell apart: where a job starts
 * and ends, and why a run stopped. Text only, made from the model as it is when the mark is decided.
 */

export const statusMarks: Record<RunStatus, string> = {
	init: '·',
	proceeding: '…',
	completed: '✓',
	stoppedByInteractiveTool: '⏸',
	stoppedByDelegate: '⏸',
	stoppedByExceededMaxSteps: '⏹',
	stoppedByError: '✗',
};

/** Statuses a run stops at: each gets a line saying why. */
export function isStop(status: RunStatus): boolean {
	return status !== 'init' && status !== 'proceeding';
}

/** A job's coordinator stopped for good: it completed, failed, hit its step limit, or waits for a person. */
export function jobHasEnded(model: Model, job: Job): boolean {
	const {status} = jobTotals(model, job);
	return status === 'completed' || status === 'stoppedByError' || status === 'stoppedByExceededMaxSteps' || status === 'stoppedByInteractiveTool';
}

/** UTC, to the second: the same for everyone who reads the transcript. */
function utc(ms: number | undefined): string {
	return ms === undefined
		? 'at an unknown time'
		: new Date(ms)
				.toISOString()
				.replace('T', ' ')
				.replace(/\.\d+Z$/, ' UTC');
}

/**
 * `── job ID · coordinator · started …`, or `continues` (with the time of the run it continues with) for a job
 * that takes up again after it ended.
 */
export function jobStartLine(model: Model, job: Job, again: Run | undefined): string {
	const first = model.runs.get(job.runIds[0] ?? '');
	const coordinator = first ? sanitizeLine(first.expertKey) : '?';
	return `── job ${sanitizeLine(job.jobId)} · ${coordinator} · ${again ? 'continues' : 'started'} ${utc(again ? again.startedAt : (first?.startedAt ?? job.firstSeenAt))}`;
}

/** `── job ID ✓ completed · 17 steps · 42692 in / 907 out tokens · $0.15 · 10.2s` (`✗ failed: <why>` for a failed job) */
export function jobEndLine(model: Model, job: Job, prices: PriceTable): string {
	const totals = jobTotals(model, job);
	const tokens = `${totals.usage.inputTokens} in / ${totals.usage.outputTokens} out tokens`;
	return `── job ${sanitizeLine(job.jobId)} ${jobStatusText(totals)} · ${jobStepsText(totals)} · ${tokens} · ${formatCost(jobCost(model, job, prices))} · ${formatDuration(jobDurationMs(totals))}`;
}

/**
 * A job's state in the words its runs' lines use (`✗ run failed`, `⏹ run stopped at max steps`), the same for every
 * runtime: the runtime's own names (`stoppedByError`) mean nothing to a person reading Claude Code's or Codex's jobs.
 */
const jobStatusWords: Record<RunStatus, string> = {
	init: 'starting',
	proceeding: 'running',
	completed: 'completed',
	stoppedByInteractiveTool: 'waits for input',
	stoppedByDelegate: 'waits for delegates',
	stoppedByExceededMaxSteps: 'stopped at max steps',
	stoppedByError: 'failed',
};

/** `✓ completed`, `⏹ stopped at max steps`, …, or `✗ failed: <why>` for a job that failed (`JobTotals.failure`). */
export function jobStatusText(totals: Pick<JobTotals, 'status' | 'failure'>): string {
	return totals.failure === undefined ? `${statusMarks[totals.status]} ${jobStatusWords[totals.status]}` : `✗ failed: ${sanitizeLine(totals.failure)}`;
}

/** Why a run stopped, after `[expert] `: `✓ run completed`, `✗ run failed: …`, `⏸ run waits for delegates: a, b`, … */
export function runStopText(model: Model, run: Run): string {
	const mark = statusMarks[run.status];
	switch (run.status) {
		case 'completed':
			return `${mark} run completed · ${runSteps(run)} step${runSteps(run) === 1 ? '' : 's'}`;
		case 'stoppedByError':
			return `${mark} run failed${run.error ? `: ${sanitizeLine(`${run.error.name}: ${run.error.message}`)}` : ''}`;
		case 'stoppedByExceededMaxSteps': {
			const job = model.jobs.get(run.jobId);
			let highest = 0;
			for (const step of run.endedSteps) highest = Math.max(highest, step);
			return `${mark} run stopped at max steps: ${highest}${job?.maxSteps === undefined ? '' : `/${job.maxSteps}`}`;
		}

		case 'stoppedByDelegate': {
			const names = waitingCalls(model, run).flatMap(activity => (activity.type === 'delegate' ? [sanitizeLine(activity.delegateExpertKey)] : []));
			return `${mark} run waits for delegates${names.length > 0 ? `: ${names.join(', ')}` : ''}`;
		}

		case 'stoppedByInteractiveTool': {
			const asked = waitingCalls(model, run).find(activity => activity.type === 'interactiveTool');
			const question = asked ? describeActivity(asked).detail : '';
			const stop = interactiveStop(model, run);
			const json = stop?.answerForm === 'json' ? ` (JSON: the step called ${sanitizeLine(stop.firstCall ?? '')} first, which a plain answer would go to)` : '';
			const answer = stop === undefined ? '' : ` · answer with: ${sanitizeLine(stop.command)}${json}`;
			return `${mark} run waits for input${question === '' ? '' : `: ${sanitizeLine(question)}`}${answer}`;
		}

		case 'init':
		case 'proceeding':
			return `${mark} run ${run.status}`;
		default:
			return assertNever(run.status);
	}
}

/** The calls at the end of the run's activities that have no answer yet (what it stopped on). */
function waitingCalls(model: Model, run: Run): Activity[] {
	const pane = model.panes.get(run.paneId);
	const out: Activity[] = [];
	if (!pane) return [];
	for (let i = pane.activityIndices.length - 1; i >= 0; i--) {
		const activity = model.activities[pane.activityIndices[i]!];
		if (!activity || activity.runId !== run.runId) break;
		if ((activity.type === 'delegate' || activity.type === 'interactiveTool') && activity.result === undefined) out.unshift(activity);
	}

	if (out.length > 0) return out;
	// A question asked again after a resume is the earlier run's activity: the calls the run stopped on name it.
	const calls = model.toolCalls.get(pane.paneId);
	for (const id of run.pendingToolCallIds) {
		const index = callOf(calls, id);
		const activity = index === undefined ? undefined : model.activities[index];
		if ((activity?.type === 'delegate' || activity?.type === 'interactiveTool') && activity.result === undefined) out.push(activity);
	}

	return out;
}

function assertNever(value: never): never {
	throw new Error(`unexpected status: ${String(value)}`);
}
