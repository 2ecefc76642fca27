import type {JobListing} from '../../source/query/job-listing.js';

const usage = {inputTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 0, cachedInputTokens: 0};

/** A job as a list shows it: `/jobs/<id>`, the writer's, completed in 3 steps of one run, no tokens; `overrides` on top. */
export function jobListing(jobId: string, overrides: Partial<JobListing> = {}): JobListing {
	return {
		jobId,
		path: `/jobs/${jobId}`,
		coordinator: 'writer',
		status: 'completed',
		steps: 3,
		usage,
		runs: 1,
		query: undefined,
		startedAt: undefined,
		lastEventAt: undefined,
		...overrides,
	};
}
