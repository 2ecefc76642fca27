import {describe, expect, it} from 'vitest';
import {modelFromFixtures, runByExpert} from '../../test/helpers/load.js';
import {createModel} from '../model/state.js';
import {currentJob, jobOfKey, shownJobs} from './jobs.js';

describe('the job of the selected row', () => {
	const model = modelFromFixtures('real/simple.ndjson', 'demo.ndjson');
	const [simple, demo] = shownJobs(model);

	it('lists the jobs the tree shows, in order', () => {
		expect(shownJobs(model).map(job => job.jobId)).toEqual(['ivc73wpbhfw5k0eafe5tydni', 'nibyyurl65b4kj4hbi6jlvhk']);
	});

	it('is found from a job, pane, activity, live or notice row', () => {
		const run = runByExpert(model, 'test-runner');
		const activity = model.activities.find(candidate => candidate.runId === run.runId)!;
		expect(jobOfKey(model, `j:${simple!.jobId}`)).toBe(simple);
		expect(jobOfKey(model, `p:${run.paneId}`)).toBe(demo);
		expect(jobOfKey(model, `a:${activity.id}`)).toBe(demo);
		expect(jobOfKey(model, `l:${run.paneId}:reasoning:3`)).toBe(demo);
		expect(jobOfKey(model, `n:${run.paneId}:q`)).toBe(demo);
	});

	it('is none for no selection or a key it does not know', () => {
		expect(jobOfKey(model, undefined)).toBeUndefined();
		expect(jobOfKey(model, 'x:1')).toBeUndefined();
		expect(jobOfKey(model, 'p:nope')).toBeUndefined();
	});
});

describe('currentJob', () => {
	it('is the job that saw an event last, whichever was read first', () => {
		// demo.ndjson's events are days later than simple.ndjson's.
		expect(currentJob(modelFromFixtures('real/simple.ndjson', 'demo.ndjson'))?.jobId).toBe('nibyyurl65b4kj4hbi6jlvhk');
		expect(currentJob(modelFromFixtures('demo.ndjson', 'real/simple.ndjson'))?.jobId).toBe('nibyyurl65b4kj4hbi6jlvhk');
		expect(currentJob(createModel())).toBeUndefined();
	});
});
