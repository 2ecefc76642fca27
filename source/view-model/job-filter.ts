import type {JobListing} from '../query/job-listing.js';

/**
 * The job list's `/`: the jobs whose id, coordinator, project or first prompt hold every word typed, in any case.
 * A job not read yet is known by its id alone.
 */
export function jobsMatching(jobs: JobListing[], typed: string): JobListing[] {
	const words = typed
		.toLowerCase()
		.split(/\s+/)
		.filter(word => word !== '');
	if (words.length === 0) return jobs;
	return jobs.filter(job => {
		const text = [job.jobId, job.coordinator, job.project, job.query]
			.filter(part => part !== undefined)
			.join('\n')
			.toLowerCase();
		return words.every(word => text.includes(word));
	});
}
