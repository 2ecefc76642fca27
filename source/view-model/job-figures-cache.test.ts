import {describe, expect, it} from 'vitest';
import {manualScheduler} from '../../test/helpers/manual-scheduler.js';
import {modelFromText} from '../../test/helpers/load.js';
import type {Model} from '../model/state.js';
import {jobFigures} from '../query/job-figures.js';
import {builtinPrices} from '../query/prices.js';
import {shapeLines} from '../../tools/shape-log.js';
import {HeldPosts} from '../load/viewer/held-posts.js';
import {FiguresCache} from './job-figures-cache.js';

/*
 * The header's figures of a job: at once for a small job, and for a large one, on a new model a load posted,
 * made in slices while the figures of the model before stay shown.
 */

function wide(runs: number): Model {
	return modelFromText([...shapeLines({shape: 'wide', runs, seed: 5})].join('\n') + '\n');
}

const readOnly = new Map<number, Model>();
/**
 * `wide(runs)` made once for the file, for the tests that only read it (a cache and its walks change nothing in a
 * model): loading the same 6,000 and 7,000 runs again in each test was most of the file's time.
 */
function readWide(runs: number): Model {
	let model = readOnly.get(runs);
	if (model === undefined) {
		model = wide(runs);
		readOnly.set(runs, model);
	}

	return model;
}

describe("the header's figures of a job", () => {
	it('of a large job on a newly posted model: the last ones stay shown until the new ones are made in slices, then those', () => {
		// Each look at the clock is past a slice's end: a slice walks its least.
		const scheduler = manualScheduler({tick: 100});
		let ready = 0;
		const cache = new FiguresCache(scheduler, () => ready++);
		const before = readWide(6000);
		const after = readWide(9000);
		const jobOf = (model: Model) => [...model.jobs.values()][0]!;
		expect(cache.figuresFor(before, jobOf(before), builtinPrices).totals.stepsRun).toBe(6000);
		expect(cache.figuresFor(after, jobOf(after), builtinPrices).totals.stepsRun).toBe(6000);
		scheduler.runOne();
		// Walking, it holds the model's read turn: the load's posts wait.
		expect(scheduler.turns.reading).toBe(true);
		expect(ready).toBe(0);
		expect(scheduler.runAll()).toBeGreaterThan(2);
		expect(ready).toBe(1);
		expect(scheduler.turns.reading).toBe(false);
		expect(cache.figuresFor(after, jobOf(after), builtinPrices)).toEqual(jobFigures(after, jobOf(after), builtinPrices));
	});

	it('of a small job, or of a model changed in place, at once', () => {
		const scheduler = manualScheduler({tick: 100});
		const cache = new FiguresCache(scheduler, () => undefined);
		const small = wide(30);
		const job = [...small.jobs.values()][0]!;
		expect(cache.figuresFor(small, job, builtinPrices).totals.stepsRun).toBe(30);
		// A large model after it: made in slices, then the same model changed in place (a load on the viewer's thread).
		const large = wide(6000);
		const largeJob = [...large.jobs.values()][0]!;
		expect(cache.figuresFor(large, largeJob, builtinPrices).totals.stepsRun).toBe(30);
		scheduler.runAll();
		expect(cache.figuresFor(large, largeJob, builtinPrices).totals.stepsRun).toBe(6000);
		modelFromText([...shapeLines({shape: 'wide', runs: 6010, seed: 5})].slice(12_000).join('\n') + '\n', {model: large});
		expect(cache.figuresFor(large, largeJob, builtinPrices).totals.stepsRun).toBe(6010);
		expect(scheduler.waiting()).toBe(0);
	});

	it('do not begin while the model is part way through taking in a post, and then do', () => {
		const scheduler = manualScheduler({tick: 100});
		scheduler.turns.setChanging(true);
		const cache = new FiguresCache(scheduler, () => undefined);
		const before = readWide(6000);
		const after = readWide(7000);
		cache.figuresFor(before, [...before.jobs.values()][0]!, builtinPrices);
		cache.figuresFor(after, [...after.jobs.values()][0]!, builtinPrices);
		scheduler.runSome(5);
		expect(cache.figuresFor(after, [...after.jobs.values()][0]!, builtinPrices).totals.stepsRun).toBe(6000);
		expect(scheduler.turns.reading).toBe(false);
		scheduler.turns.setChanging(false);
		scheduler.runAll();
		expect(cache.figuresFor(after, [...after.jobs.values()][0]!, builtinPrices).totals.stepsRun).toBe(7000);
		cache.stop();
	});
});

describe("a walk and the load's posts", () => {
	it('regression: a walk asked for while a post is part way in waits for it, and holds no post back meanwhile (each waited on the other for ever)', () => {
		const scheduler = manualScheduler({tick: 100});
		const before = readWide(6000);
		const after = readWide(7000);
		const jobOf = (model: Model) => [...model.jobs.values()][0]!;
		let ready = 0;
		const cache = new FiguresCache(scheduler, () => ready++);
		cache.figuresFor(before, jobOf(before), builtinPrices);
		// A post of two parts, the first put in: the model is part way through a change.
		const parts: number[] = [];
		const posts = new HeldPosts<'post'>({
			*inParts() {
				parts.push(1);
				yield;
				parts.push(2);
			},
			scheduler,
		});
		posts.offer('post');
		scheduler.runOne();
		expect(posts.partWay).toBe(true);
		// The header asks for the figures of a newly posted model: a walk in slices, which must not begin yet.
		expect(cache.figuresFor(after, jobOf(after), builtinPrices).totals.stepsRun).toBe(6000);
		expect(scheduler.turns.reading).toBe(false);
		expect(scheduler.runAll()).toBeLessThan(1000);
		expect(parts).toEqual([1, 2]);
		expect(ready).toBe(1);
		expect(cache.figuresFor(after, jobOf(after), builtinPrices).totals.stepsRun).toBe(7000);
	});
});
