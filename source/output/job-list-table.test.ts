import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../test/helpers/load.js';
import {listJobs} from '../load/job-listing.js';
import type {JobListing} from '../query/job-listing.js';
import {jobListing} from '../../test/helpers/job-listings.js';
import {jobListTable} from './job-list-table.js';

/** A completed job of the coordinator's, one step of one run, no tokens; `overrides` on top. */
function listing(overrides: Partial<JobListing>): JobListing {
	return jobListing('job', {coordinator: 'coordinator', steps: 1, ...overrides});
}

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('jobListTable', () => {
	it('lists a saved Perstack job under a header: id, coordinator, status, steps, runs, start, what it was asked', () => {
		const root = fixturePath('jobs/perstack');
		const lines = jobListTable(root, listJobs(root)).trimEnd().split('\n');
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/^JOB\s+EXPERT\s+STATUS\s+STEPS\s+RUNS\s+STARTED\s+QUERY$/);
		const cells = lines[1]!.split(/\s{2,}/);
		expect(cells.slice(0, 5)).toEqual(['xrg3kr5eyfy4evxm775cs81p', 'coordinator', '✓ completed', '6', '3']);
		expect(cells[5]).toMatch(timestamp);
		expect(cells[6]).toBe('Find out what is in the workspace.');
	});

	it('says a job\u2019s state in words, and cuts a long query to its first line and 60 columns', () => {
		const [, row] = jobListTable('/jobs', [listing({status: 'stoppedByExceededMaxSteps', query: `${'word '.repeat(20)}\nsecond line`})])
			.trimEnd()
			.split('\n');
		const cells = row!.split(/\s{2,}/);
		expect(cells[2]).toBe('⏹ stopped at max steps');
		expect(cells.at(-1)).toBe(`${'word '.repeat(11)}word…`);
	});

	it('says so when there are no jobs', () => {
		expect(jobListTable('/home/me/.perstack', [])).toBe('no jobs in /home/me/.perstack\n');
	});

	it('lines the columns up, numbers to the right', () => {
		const lines = jobListTable('/jobs', [
			listing({jobId: 'short', coordinator: 'writer', steps: 7, runs: 1, status: 'stoppedByError'}),
			listing({jobId: 'a-much-longer-job-id', coordinator: 'release-coordinator', steps: 1234, runs: 12}),
		])
			.trimEnd()
			.split('\n');
		const statusColumn = lines[0]!.indexOf('STATUS');
		expect(lines[1]!.indexOf('✗ failed')).toBe(statusColumn);
		expect(lines[2]!.indexOf('✓ completed')).toBe(statusColumn);
		const stepsEnd = lines[0]!.indexOf('STEPS') + 'STEPS'.length;
		expect(lines[1]!.slice(0, stepsEnd)).toMatch(/ 7$/);
		expect(lines[2]!.slice(0, stepsEnd)).toMatch(/ 1234$/);
	});

	it('shows an unknown coordinator as ?, and falls back to the last event when the start is unknown', () => {
		const [, row] = jobListTable('/jobs', [listing({coordinator: undefined, lastEventAt: 1_795_294_858_570})])
			.trimEnd()
			.split('\n');
		const cells = row!.split(/\s{2,}/);
		expect(cells[1]).toBe('?');
		expect(cells[5]).toMatch(timestamp);
		const [, bare] = jobListTable('/jobs', [listing({})])
			.trimEnd()
			.split('\n');
		expect(bare).toMatch(/ 1$/);
	});

	it('keeps escape sequences in job ids and names off the terminal', () => {
		const table = jobListTable('/jobs\u001B[2J', [listing({jobId: 'job\u001B]0;pwned\u0007', coordinator: 'evil\u009B31m'})]);
		expect(table).not.toMatch(/[\u001B\u0007\u009B]/);
		expect(jobListTable('/jobs\u001B[2J', [])).not.toContain('\u001B');
	});
});
