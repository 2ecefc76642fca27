import {describe, expect, it} from 'vitest';
import {jobListing as job} from '../../test/helpers/job-listings.js';
import {jobsMatching} from './job-filter.js';

describe('jobsMatching (the job list’s /)', () => {
	const jobs = [
		job('0ccdcfe9', {query: 'Which notes file is longest? Use a sub-agent.', project: '-home-me-app'}),
		job('c17ceeb0', {query: 'What does greet.txt say?', project: '-home-me-other'}),
		job('xrg3kr5e', {coordinator: 'coordinator', query: 'List the workspace'}),
		job('a9c2eaab', {pending: true, coordinator: undefined}),
	];

	it('keeps the jobs holding every word typed, in any case, in their id, coordinator, project or first prompt', () => {
		expect(jobsMatching(jobs, 'NOTES sub').map(listed => listed.jobId)).toEqual(['0ccdcfe9']);
		expect(jobsMatching(jobs, 'other').map(listed => listed.jobId)).toEqual(['c17ceeb0']);
		expect(jobsMatching(jobs, 'coordinator').map(listed => listed.jobId)).toEqual(['xrg3kr5e']);
		expect(jobsMatching(jobs, 'a9c2').map(listed => listed.jobId)).toEqual(['a9c2eaab']);
		expect(jobsMatching(jobs, 'greet notes')).toEqual([]);
	});

	it('keeps every job, as it was, for nothing typed or only spaces', () => {
		expect(jobsMatching(jobs, '')).toBe(jobs);
		expect(jobsMatching(jobs, '   ')).toBe(jobs);
	});
});
