import type {Job, Model} from '../model/state.js';
import {coordinatorName, currentJob, shownJobs} from './jobs.js';

/**
 * What the usage overlay adds up when the log holds several jobs: the job the selection is in (as the header
 * names it, `job 3/40`), or every job once the person asks. Undefined with one job, where there is no choice.
 */
export type UsageScope = {job: Job; number: number; count: number; coordinator: string; allJobs: boolean};

/** `selected`: the job the selection is in (tree/selection-job.ts), if any. */
export function usageScope(model: Model, selected: Job | undefined, allJobs: boolean): UsageScope | undefined {
	const jobs = shownJobs(model);
	if (jobs.length < 2) return undefined;
	const job = selected ?? currentJob(model);
	if (!job) return undefined;
	return {job, number: jobs.indexOf(job) + 1, count: jobs.length, coordinator: coordinatorName(model, job), allJobs};
}

/**
 * Columns of the usage table for a screen `width` wide: numbers narrow first, then the expert's name. COST
 * (0 when left out) goes where it would squeeze the name below what reads as a name: the token columns, REASON
 * and SHARE stay.
 */
export function usageColumns(width: number): {expert: number; number: number; cost: number; bar: boolean} {
	const number = width >= 90 ? 9 : 6;
	// RUNS, four token counts, SHARE, and the spaces between them.
	const tokens = 5 + 4 * (number + 1) + 2 + 5 + 1;
	// `<$0.0001` is the widest cost below a thousand dollars.
	const costWidth = width >= 90 ? 9 : 8;
	const cost = width - 1 - tokens - (costWidth + 1) >= 16 ? costWidth : 0;
	const fixed = tokens + (cost === 0 ? 0 : cost + 1);
	const bar = width - fixed - 24 >= 21;
	return {expert: Math.max(8, Math.min(24, width - 1 - fixed)), number, cost, bar};
}
