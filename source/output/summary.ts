import type {Diagnostic, RunStatus, Usage} from '../model/events.js';
import type {Model, ResumedFrom} from '../model/state.js';
import {endedWhileWaiting, jobTotals, runSteps, runsInTreeOrder, type EndedWhileWaiting} from '../query/tree.js';

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
	runs: RunSummary[];
};

export type Summary = {
	jobs: JobSummary[];
	events: number;
	unknownEvents: Record<string, number>;
	diagnostics: Diagnostic[];
};

export function buildSummary(model: Model): Summary {
	const jobs: JobSummary[] = [];
	for (const job of model.jobs.values()) {
		if (job.runIds.length === 0) continue;
		const totals = jobTotals(model, job);
		jobs.push({
			jobId: job.jobId,
			status: totals.status,
			steps: totals.steps,
			usage: totals.usage,
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
				activities: run.activityCount,
				startedAt: run.startedAt ?? null,
				endedAt: run.endedAt ?? null,
				error: run.error ? `${run.error.name}: ${run.error.message}` : null,
			})),
		});
	}

	const unknownEvents: Record<string, number> = {};
	for (const [type, count] of [...model.unknownEvents].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) unknownEvents[type] = count;
	return {jobs, events: model.events, unknownEvents, diagnostics: model.diagnostics};
}
