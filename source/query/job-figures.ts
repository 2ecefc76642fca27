import type {Job, Model, Run} from '../model/state.js';
import {addCosts, costOfRun, type Cost} from './cost.js';
import type {PriceTable} from './prices.js';
import {maxStepsReached} from './resume-command.js';
import {endedWithoutFinalEvent, isLive, jobFailure, runSteps, shownStatus, type JobTotals} from './tree.js';

/*
 * What the viewer's header says of a job, from one walk of its runs that can be cut into slices: the totals
 * (`jobTotals`), the cost (`jobCost`), whether any run is live (`hasLiveRun`) and the max-steps note
 * (`maxStepsNote`). Each of those walks every run of the job on its own; a fleet's job has 200,000 runs, and
 * the header works them out for each new model a load posts.
 */

export type JobFigures = {
	totals: JobTotals;
	cost: Cost;
	/** Whether any run of the job is live (a coordinator waiting on its delegates is not; they are). */
	anyLive: boolean;
	/** `maxStepsNote`: how far the steps went, when the job stopped at max steps. */
	maxNote: string | undefined;
};

/** A walk of a job's runs, as far as it has got (`next`), with what it has added up. */
export type JobFiguresWalk = {
	readonly job: Job;
	readonly prices: PriceTable;
	next: number;
	steps: number;
	inputTokens: number;
	outputTokens: number;
	reasoningTokens: number;
	totalTokens: number;
	cachedInputTokens: number;
	coordinator: Run | undefined;
	topmost: Run | undefined;
	startedAt: number | undefined;
	endedAt: number | undefined;
	reportedDurationMs: number | undefined;
	cost: Cost;
	anyLive: boolean;
	/** A run stopped at max steps and was not resumed: the job stopped there, whatever its coordinator says. */
	stoppedAtMax: boolean;
	highestStep: number | undefined;
	/** Whether every run is Perstack's, whose step numbers run across the job (`JobTotals.steps`). */
	perstackOnly: boolean;
	/** A run that ended without a final event. */
	cut: Run | undefined;
};

/** How many runs a walk adds up between two looks at the clock. */
const runsBetweenLooks = 1024;

export function startJobFigures(job: Job, prices: PriceTable): JobFiguresWalk {
	return {
		job,
		prices,
		next: 0,
		steps: 0,
		inputTokens: 0,
		outputTokens: 0,
		reasoningTokens: 0,
		totalTokens: 0,
		cachedInputTokens: 0,
		coordinator: undefined,
		topmost: undefined,
		startedAt: undefined,
		endedAt: undefined,
		reportedDurationMs: undefined,
		// What the runtime reported; the runs no report covers are added as they are walked.
		cost: job.reportedCost?.usd ?? 0,
		anyLive: false,
		stoppedAtMax: false,
		highestStep: undefined,
		perstackOnly: true,
		cut: undefined,
	};
}

function addRun(model: Model, walk: JobFiguresWalk, run: Run): void {
	walk.steps += runSteps(run);
	const {usage} = run;
	walk.inputTokens += usage.inputTokens;
	walk.outputTokens += usage.outputTokens;
	walk.reasoningTokens += usage.reasoningTokens;
	walk.totalTokens += usage.totalTokens;
	walk.cachedInputTokens += usage.cachedInputTokens;
	if (run.parentRunId === null) walk.coordinator = run;
	else if (!model.runs.has(run.parentRunId)) walk.topmost = run;
	if (run.startedAt !== undefined && (walk.startedAt === undefined || run.startedAt < walk.startedAt)) walk.startedAt = run.startedAt;
	const last = run.endedAt ?? run.lastEventAt;
	if (last !== undefined && (walk.endedAt === undefined || last > walk.endedAt)) walk.endedAt = last;
	if (run.reportedDurationMs !== undefined && run.parentRunId === null) walk.reportedDurationMs = (walk.reportedDurationMs ?? 0) + run.reportedDurationMs;
	if (walk.cost !== undefined && walk.job.reportedCost?.runIds.has(run.runId) !== true) walk.cost = addCosts(walk.cost, costOfRun(model, run, walk.prices));
	if (!walk.anyLive && isLive(shownStatus(run))) walk.anyLive = true;
	if (run.status === 'stoppedByExceededMaxSteps' && run.resumedByRunId === null) walk.stoppedAtMax = true;
	// A run's ended steps are sorted: its highest is its last.
	const highest = run.endedSteps.at(-1);
	if (highest !== undefined && (walk.highestStep === undefined || highest > walk.highestStep)) walk.highestStep = highest;
	if (run.dialect !== 'perstack') walk.perstackOnly = false;
	if (!walk.cut && endedWithoutFinalEvent(model, run)) walk.cut = run;
}

/**
 * Goes on with the walk until it has added up every run of the job (the figures) or `enough()` says to stop
 * (undefined: call again, on the same model, to go on).
 */
export function continueJobFigures(model: Model, walk: JobFiguresWalk, enough: () => boolean): JobFigures | undefined {
	const {runIds} = walk.job;
	while (walk.next < runIds.length) {
		const end = Math.min(runIds.length, walk.next + runsBetweenLooks);
		for (let index = walk.next; index < end; index++) {
			const run = model.runs.get(runIds[index]!);
			if (run) addRun(model, walk, run);
		}

		walk.next = end;
		if (walk.next < runIds.length && enough()) return undefined;
	}

	return figuresOf(model, walk);
}

function figuresOf(model: Model, walk: JobFiguresWalk): JobFigures {
	const coordinator = walk.coordinator ?? walk.topmost;
	const status = coordinator?.status ?? 'init';
	const usage = {
		inputTokens: walk.inputTokens,
		outputTokens: walk.outputTokens,
		reasoningTokens: walk.reasoningTokens,
		totalTokens: walk.totalTokens,
		cachedInputTokens: walk.cachedInputTokens,
	};
	const totals: JobTotals = {
		status,
		failure: jobFailure(model, coordinator, walk.cut),
		steps: walk.perstackOnly ? (walk.highestStep ?? 0) : walk.steps,
		stepsRun: walk.steps,
		usage,
		coordinator,
		startedAt: walk.startedAt,
		endedAt: walk.endedAt,
		reportedDurationMs: walk.reportedDurationMs,
	};
	const stopped = status === 'stoppedByExceededMaxSteps' || walk.stoppedAtMax;
	return {totals, cost: walk.cost, anyLive: walk.anyLive, maxNote: stopped ? maxStepsReached(walk.job, walk.highestStep) : undefined};
}

/** The figures of a job at once. */
export function jobFigures(model: Model, job: Job, prices: PriceTable): JobFigures {
	return continueJobFigures(model, startJobFigures(job, prices), () => false)!;
}
