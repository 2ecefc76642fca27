import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../test/helpers/load.js';
import {describeJob} from './job-listing.js';

const job = fixturePath('jobs/perstack/jobs/xrg3kr5eyfy4evxm775cs81p');

describe('describeJob', () => {
	it('reads the status of a whole job from its coordinator', () => {
		expect(describeJob(job)).toMatchObject({jobId: 'xrg3kr5eyfy4evxm775cs81p', coordinator: 'coordinator', status: 'completed', steps: 6, runs: 3});
	});

	it("derives a child run directory's status from its own events instead of showing init", () => {
		expect(describeJob(`${job}/runs/mycc7mg8nbsgxciteyvrtyci`)).toMatchObject({coordinator: 'child-expert', status: 'completed', steps: 4, runs: 1});
	});
});
