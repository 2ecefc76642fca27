import type {Diagnostic, RunStatus, Usage} from '../model/events.js';
import type {Model, ResumedFrom} from '../model/state.js';
import {endedWhileWaiting, jobTotals, runSteps, runsInTreeOrder, type EndedWhileWaiting} from '../query/tree.js';
import {costForJson, jobCost, runCost, totalCost} from '../query/cost.js';
import {builtinPrices, type PriceTable} from '../query/prices.js';

export type RunSummary = {
	runId: string;
	expertKey: string;
	parentRunId: string | null;
	/**
	 * Present, and true, only on a run whose link to `parentRunId` would close a delegation cycle: the cycle is
	 * broken there, and the run is listed as a root of its job (docs/model-rules.md).
	 */
	delegationCycle?: true;
	resumesRunId: string | null;
	/** Where a run started from a checkpoint of an earlier run (`--resume-from`, a `--continue-job` follow-up). */
	resumedFrom: ResumedFrom | null;
	/** For a run still waiting for its delegates when the input ended, none of them running: why the job ended there. */
	endedWhileWaiting: EndedWhileWaiting | null;
	status: RunStatus;
	steps: number;
	usage: Usage;
	/** The model its `initializeRuntime` named; null when none was seen. */
	model: string | null;
	/** US dollars, from `usage` at the model's prices; null when the price table does not have the model. */
	costUsd: number | null;
	activities: number;
	startedAt: number | null;
	endedAt: number | null;
	error: string | null;
};

export type JobSummary = {
	jobId: string;
	status: RunStatus;
	steps: number;
	usage: Usage;
	/** The sum of its runs' costs; null when any of them is unknown. */
	costUsd: number | null;
	runs: RunSummary[];
};

/** Which price table the costs come from: the built-in one, or the file given with `--prices`. */
export type PricesSummary = {source: string; date: string | null; file: string | null};

export type Summary = {
	jobs: JobSummary[];
	/** What every job cost together; null when any run's cost is unknown. */
	costUsd: number | null;
	prices: PricesSummary;
	events: number;
	unknownEvents: Record<string, number>;
	diagnostics: Diagnostic[];
};

export function buildSummary(model: Model, prices: PriceTable = builtinPrices): Summary {
	const jobs: JobSummary[] = [];
	for (const job of model.jobs.values()) {
		if (job.runIds.length === 0) continue;
		const totals = jobTotals(model, job);
		jobs.push({
			jobId: job.jobId,
			status: totals.status,
			steps: totals.steps,
			usage: totals.usage,
			costUsd: costForJson(jobCost(model, job, prices)),
			runs: runsInTreeOrder(model, job).map(run => ({
				runId: run.runId,
				expertKey: run.expertKey,
				parentRunId: run.parentRunId,
				...(run.closesCycle ? {delegationCycle: true as const} : {}),
				resumesRunId: run.resumesRunId,
				resumedFrom: run.resumedFrom,
				endedWhileWaiting: endedWhileWaiting(model, run) ?? null,
				status: run.status,
				steps: runSteps(run),
				usage: run.usage,
				model: run.model ?? null,
				costUsd: costForJson(runCost(run, prices)),
				activities: run.activityCount,
				startedAt: run.startedAt ?? null,
				endedAt: run.endedAt ?? null,
				error: run.error ? `${run.error.name}: ${run.error.message}` : null,
			})),
		});
	}

	const unknownEvents: Record<string, number> = {};
	for (const [type, count] of [...model.unknownEvents].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) unknownEvents[type] = count;
	const pricesUsed = {source: prices.source, date: prices.date, file: prices.file};
	return {jobs, costUsd: costForJson(totalCost(model, prices)), prices: pricesUsed, events: model.events, unknownEvents, diagnostics: model.diagnostics};
}
