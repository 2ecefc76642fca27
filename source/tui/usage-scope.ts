import type {Job, Model} from '../model/state.js';
import {coordinatorName} from './job-row.js';
import {currentJob} from './header.js';
import {shownJobs} from './selected-job.js';

/**
 * What the usage overlay adds up when the log holds several jobs: the job the selection is in (as the header
 * names it, `job 3/40`), or every job once the person asks. Undefined with one job, where there is no choice.
 */
export type UsageScope = {job: Job; number: number; count: number; coordinator: string; allJobs: boolean};

/** `selected`: the job the selection is in (selection-job.ts), if any. */
export function usageScope(model: Model, selected: Job | undefined, allJobs: boolean): UsageScope | undefined {
	const jobs = shownJobs(model);
	if (jobs.length < 2) return undefined;
	const job = selected ?? currentJob(model);
	if (!job) return undefined;
	return {job, number: jobs.indexOf(job) + 1, count: jobs.length, coordinator: coordinatorName(model, job), allJobs};
}
