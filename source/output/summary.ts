import type {Diagnostic, RunStatus, Usage} from '../model/events.js';
import type {Job, Model, ResumedFrom, Run} from '../model/state.js';
import {eachRunInTreeOrder, endedWhileWaiting, endedWithoutFinalEvent, jobTotals, runSteps, runsInTreeOrder, type EndedWhileWaiting} from '../query/tree.js';
import {costForJson, costOfRun, jobCost, totalCost, whyNoCost} from '../query/cost.js';
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
	/**
	 * Present, and true, only on a run that still stood as running when the input ended: no event said how it
	 * ended (`status` is its last checkpoint's). Absent otherwise, so summaries of runs that ended are unchanged.
	 */
	endedWithoutFinalEvent?: true;
	status: RunStatus;
	steps: number;
	usage: Usage;
	/** The model its `initializeRuntime` named; null when none was seen. */
	model: string | null;
	/** US dollars, from `usage` at the model's prices; null when the price table does not have the model. */
	costUsd: number | null;
	/** Present only when `costUsd` is null: why (`no price for claude-fable-9 in the price table …`). */
	costUnknown?: string;
	activities: number;
	startedAt: number | null;
	endedAt: number | null;
	/**
	 * Present only on a run whose runtime reported how long it took (Claude Code's and Amp's `result.duration_ms`):
	 * that, in milliseconds: the least it lasted, and its duration where `startedAt` and `endedAt` are null (the
	 * stream carries no time).
	 */
	reportedDurationMs?: number | undefined;
	error: string | null;
};

export type JobSummary = {
	jobId: string;
	/** Its coordinator's status (the last checkpoint's). */
	status: RunStatus;
	/** Why the job failed, once the input ended and it will not go on (`JobTotals.failure`); null otherwise. */
	failure: string | null;
	/** The runtime's step counter (Perstack: the highest step number, which parallel delegates share). */
	steps: number;
	/** Steps run, summed over the runs. */
	stepsRun: number;
	usage: Usage;
	/**
	 * What it cost: what its runtime reported where it did (`reportedCostUsd`), plus the price table's cost of its
	 * runs no report covers (query/cost.ts); null when any part of that is unknown.
	 */
	costUsd: number | null;
	/** Present only on a job whose runtime reported what its work cost (Claude Code's `total_cost_usd`, opencode's steps' `cost`): that amount. */
	reportedCostUsd?: number | undefined;
	/** Present only where its runs' runtime reported how long they took: its top-level runs' (`RunSummary.reportedDurationMs`) added up. */
	reportedDurationMs?: number | undefined;
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
	/** The first `maxStoredDiagnostics` (10,000) of them; `diagnosticCount` says how many there were in all. */
	diagnostics: Diagnostic[];
	diagnosticCount: number;
};

export function buildSummary(model: Model, prices: PriceTable = builtinPrices): Summary {
	const jobs: JobSummary[] = [];
	for (const job of summarisedJobs(model))
		jobs.push({...jobHead(model, job, prices), runs: runsInTreeOrder(model, job).map(run => runSummary(model, run, prices))});
	return {jobs, ...summaryTail(model, prices)};
}

/**
 * The JSON text of `buildSummary(model, prices)`, byte for byte, in pieces of at most `runsPerPiece` runs, ended
 * sooner once one holds `pieceChars` characters. For 200,000 runs the document and its one string are several times
 * the size of the model; this holds one piece. Its pieces stay small enough for V8's young generation: a piece
 * of 1,000 runs (~500 KB) and its copies went to the large-object space, which only a full collection frees, and
 * the 20,000 small jobs' 39 MB of JSON grew the heap by ~20 MB as they were written (docs/performance.md).
 */
export function* summaryJsonPieces(model: Model, prices: PriceTable = builtinPrices, runsPerPiece = 1000, pieceChars = 32 * 1024): Generator<string> {
	let piece = '{"jobs":[';
	let firstJob = true;
	// Runs counted over every job: counted per job, a log of 20,000 jobs of four runs each was one piece of 39 MB,
	// held with its copies while it was written (docs/performance.md).
	let count = 0;
	for (const job of summarisedJobs(model)) {
		// `runs` is a job's last key: its head is the job's JSON without the closing brace.
		piece += `${firstJob ? '' : ','}${JSON.stringify(jobHead(model, job, prices)).slice(0, -1)},"runs":[`;
		firstJob = false;
		let firstRun = true;
		// One run at a time: a model that keeps runs as records (model/storage/) makes each a view as it is read.
		for (const run of eachRunInTreeOrder(model, job)) {
			piece += `${firstRun ? '' : ','}${JSON.stringify(runSummary(model, run, prices))}`;
			firstRun = false;
			if (++count === runsPerPiece || piece.length >= pieceChars) {
				yield piece;
				piece = '';
				count = 0;
			}
		}

		piece += ']}';
	}

	// The tail's keys follow `jobs`: its JSON without the opening brace.
	yield `${piece}],${JSON.stringify(summaryTail(model, prices)).slice(1)}`;
}

type JobHead = Omit<JobSummary, 'runs'>;
type SummaryTail = Omit<Summary, 'jobs'>;

function* summarisedJobs(model: Model): Generator<Job> {
	for (const job of model.jobs.values()) if (job.runIds.length > 0) yield job;
}

function jobHead(model: Model, job: Job, prices: PriceTable): JobHead {
	const totals = jobTotals(model, job);
	return {
		jobId: job.jobId,
		status: totals.status,
		failure: totals.failure ?? null,
		steps: totals.steps,
		stepsRun: totals.stepsRun,
		usage: totals.usage,
		costUsd: costForJson(jobCost(model, job, prices)),
		// Undefined, and so left out of the JSON, for a job nothing reported a cost for (one literal: see runSummary).
		reportedCostUsd: job.reportedCost === undefined ? undefined : (costForJson(job.reportedCost.usd) ?? undefined),
		reportedDurationMs: totals.reportedDurationMs,
	};
}

function runSummary(model: Model, run: Run, prices: PriceTable): RunSummary {
	const cost = costOfRun(model, run, prices);
	const ended = endedWithoutFinalEvent(model, run);
	const error = run.error ? `${run.error.name}: ${run.error.message}` : null;
	// Most runs have none of the optional keys: one literal, whose shape V8 knows. Keys written after a spread in a
	// literal are defined one by one through a slow path, and made summing up 35,000 runs a third slower.
	if (!run.closesCycle && !ended && cost !== undefined)
		return {
			runId: run.runId,
			expertKey: run.expertKey,
			parentRunId: run.parentRunId,
			resumesRunId: run.resumesRunId,
			resumedFrom: run.resumedFrom,
			endedWhileWaiting: endedWhileWaiting(model, run) ?? null,
			status: run.status,
			steps: runSteps(run),
			usage: run.usage,
			model: run.model ?? null,
			costUsd: costForJson(cost),
			activities: run.activityCount,
			startedAt: run.startedAt ?? null,
			endedAt: run.endedAt ?? null,
			reportedDurationMs: run.reportedDurationMs,
			error,
		};
	return {
		runId: run.runId,
		expertKey: run.expertKey,
		parentRunId: run.parentRunId,
		...(run.closesCycle ? {delegationCycle: true as const} : {}),
		resumesRunId: run.resumesRunId,
		resumedFrom: run.resumedFrom,
		endedWhileWaiting: endedWhileWaiting(model, run) ?? null,
		...(ended ? {endedWithoutFinalEvent: true as const} : {}),
		status: run.status,
		steps: runSteps(run),
		usage: run.usage,
		model: run.model ?? null,
		costUsd: costForJson(cost),
		...(cost === undefined ? costUnknown(model, run, prices) : {}),
		activities: run.activityCount,
		startedAt: run.startedAt ?? null,
		endedAt: run.endedAt ?? null,
		reportedDurationMs: run.reportedDurationMs,
		error,
	};
}

function costUnknown(model: Model, run: Run, prices: PriceTable): {costUnknown?: string} {
	const why = whyNoCost(model, run, prices);
	return why === undefined ? {} : {costUnknown: why};
}

function summaryTail(model: Model, prices: PriceTable): SummaryTail {
	// Keyed by type names from the input: an object literal would take `__proto__` as its prototype, not a key.
	const unknownEvents: Record<string, number> = Object.create(null) as Record<string, number>;
	for (const [type, count] of [...model.unknownEvents].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) unknownEvents[type] = count;
	const pricesUsed = {source: prices.source, date: prices.date, file: prices.file};
	return {
		costUsd: costForJson(totalCost(model, prices)),
		prices: pricesUsed,
		events: model.events,
		unknownEvents,
		diagnostics: model.diagnostics,
		diagnosticCount: model.diagnosticCount,
	};
}
