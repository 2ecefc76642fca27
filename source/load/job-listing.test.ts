import {cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../test/helpers/load.js';
import {describeJob, describeKept, jobsIn, jobsOldestFirst, listJobs} from './job-listing.js';
import {ListingCache} from './listing-cache.js';
import {scratchDirectories} from '../../test/helpers/scratch.js';

const scratch = scratchDirectories('perscope-order-');

const job = fixturePath('jobs/perstack/jobs/xrg3kr5eyfy4evxm775cs81p');

describe('describeJob', () => {
	it('reads the status of a whole job from its coordinator', () => {
		expect(describeJob(job)).toMatchObject({jobId: 'xrg3kr5eyfy4evxm775cs81p', coordinator: 'coordinator', status: 'completed', steps: 6, runs: 3});
	});

	it("derives a child run directory's status from its own events instead of showing init", () => {
		expect(describeJob(`${job}/runs/mycc7mg8nbsgxciteyvrtyci`)).toMatchObject({coordinator: 'child-expert', status: 'completed', steps: 4, runs: 1});
	});
});

describe('jobsOldestFirst', () => {
	/** A jobs folder: the delegation job (2026-11-21), the released CLI's follow-up (2026-11-27), one older job known by its job.json alone. */
	function jobsFolder(): string {
		const root = scratch();
		cpSync(job, join(root, 'jobs/xrg3kr5eyfy4evxm775cs81p'), {recursive: true});
		cpSync(fixturePath('released/jobdir-followup'), join(root, 'jobs/nh97zzzwnx6y4a76u4s8o5m3'), {recursive: true});
		mkdirSync(join(root, 'jobs/old/runs'), {recursive: true});
		writeFileSync(join(root, 'jobs/old/job.json'), JSON.stringify({id: 'old', status: 'completed', startedAt: 1_600_000_000_000}));
		return root;
	}

	it('--summary of a jobs folder read every event twice (once to order the jobs): the order comes from the event files names, the listing reversed', () => {
		const root = jobsFolder();
		const names = (jobs: Array<string | {path: string}>) => jobs.map(job => basename(typeof job === 'string' ? job : job.path));
		expect(names(jobsOldestFirst(root))).toEqual(['old', 'xrg3kr5eyfy4evxm775cs81p', 'nh97zzzwnx6y4a76u4s8o5m3']);
		expect(names(jobsOldestFirst(root))).toEqual(names(listJobs(root).map(listed => listed.path)).toReversed());
		// Events that cannot be read do not change it: only the names are read.
		for (const {path} of jobsOldestFirst(root).slice(1)) {
			for (const run of readdirSync(join(path, 'runs'))) {
				for (const file of readdirSync(join(path, 'runs', run))) writeFileSync(join(path, 'runs', run, file), 'not json');
			}
		}

		expect(names(jobsOldestFirst(root))).toEqual(['old', 'xrg3kr5eyfy4evxm775cs81p', 'nh97zzzwnx6y4a76u4s8o5m3']);
	});
});

describe('listings kept between runs (the cache)', () => {
	it('lists a job from the cache when its files are as they were, and keeps none of a session that could not be read', () => {
		const root = scratch();
		cpSync(job, join(root, 'jobs/xrg3kr5eyfy4evxm775cs81p'), {recursive: true});
		const cacheFile = join(scratch(), 'listings.json');
		const whole = listJobs(root, undefined, new ListingCache(cacheFile));
		expect(whole.map(listed => [listed.jobId, listed.steps])).toEqual([['xrg3kr5eyfy4evxm775cs81p', 6]]);
		const kept = new ListingCache(cacheFile);
		expect(listJobs(root, undefined, kept)).toEqual(whole);

		// A session that went between the folder's listing and its reading: listed by its name, and not kept.
		const project = scratch();
		const session = join(project, '0ccdcfe9-b26c-42b6-bd34-9894be0511a7.jsonl');
		cpSync(fixturePath('claude-code/session-transcript-cc2.1.197.ndjson'), session);
		const jobs = jobsIn(project);
		rmSync(session);
		const partialFile = join(scratch(), 'listings.json');
		const partial = new ListingCache(partialFile);
		expect(describeKept(jobs, session, partial)).toMatchObject({jobId: '0ccdcfe9-b26c-42b6-bd34-9894be0511a7', status: 'init', steps: 0});
		partial.save();
		expect(existsSync(partialFile)).toBe(false);
	});
});
