import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {fixtureFiles} from '../../test/helpers/fixture-files.js';
import {modelFromText} from '../../test/helpers/load.js';
import type {Model} from '../model/state.js';
import {shapeLines} from '../../tools/shape-log.js';
import {jobCost} from './cost.js';
import {continueJobFigures, jobFigures, startJobFigures, type JobFigures} from './job-figures.js';
import {builtinPrices} from './prices.js';
import {maxStepsNote} from './resume-command.js';
import {hasLiveRun, jobTotals} from './tree.js';

/*
 * The header's figures of a job from one walk, at once or in slices, are what the walks they stand for give
 * one by one.
 */

const fixtureTexts = fixtureFiles().map(path => readFileSync(path, 'utf8'));

function oneByOne(model: Model, jobId: string): JobFigures {
	const job = model.jobs.get(jobId)!;
	const totals = jobTotals(model, job);
	return {totals, cost: jobCost(model, job, builtinPrices), anyLive: hasLiveRun(model, job), maxNote: maxStepsNote(model, job, totals.status)};
}

describe("a job's figures from one walk", () => {
	it('are the totals, the cost, whether a run is live and the max-steps note, for every job of every fixture, cut anywhere', () => {
		fc.assert(
			fc.property(fc.constantFrom(...fixtureTexts), fc.double({min: 0.05, max: 1, noNaN: true}), (text, cut) => {
				const lines = text.split('\n').filter(line => line !== '');
				const model = modelFromText(lines.slice(0, Math.max(1, Math.ceil(lines.length * cut))).join('\n') + '\n');
				for (const job of model.jobs.values()) expect(jobFigures(model, job, builtinPrices), job.jobId).toEqual(oneByOne(model, job.jobId));
			}),
			{numRuns: 120},
		);
	});

	it('are the same worked out in slices, over a job of thousands of runs', () => {
		const model = modelFromText([...shapeLines({shape: 'wide', runs: 5000, seed: 3})].join('\n') + '\n');
		const job = [...model.jobs.values()][0]!;
		const walk = startJobFigures(job, builtinPrices);
		let slices = 1;
		let figures = continueJobFigures(model, walk, () => true);
		while (!figures) {
			slices++;
			figures = continueJobFigures(model, walk, () => true);
		}

		expect(slices).toBeGreaterThan(3);
		expect(figures).toEqual(oneByOne(model, job.jobId));
		expect(figures.totals.stepsRun).toBe(5000);
	});

	it('say the job stopped at max steps, and how far its steps went', () => {
		const model = modelFromText(readFileSync(fixtureFiles().find(path => path.endsWith('max-steps.ndjson'))!, 'utf8'));
		const job = [...model.jobs.values()][0]!;
		expect(jobFigures(model, job, builtinPrices).maxNote).toMatch(/^stopped at max steps: \d+/);
	});
});
