import type {Job, Model} from '../model/state.js';
import {continueJobFigures, jobFigures, startJobFigures, type JobFigures} from '../query/job-figures.js';
import type {PriceTable} from '../query/prices.js';
import {idleTimers, startRetryMs, type Scheduler} from './idle-time.js';

/*
 * The header's figures of a job (query/job-figures.ts), once per model revision. A job of many runs is walked
 * in slices when a load posts a new model, the figures of the model before it staying on screen meanwhile, as the
 * tree's layout does (rows.ts): walked at once, 200,000 runs kept every key waiting.
 */

/** A job with fewer runs is walked at once: it takes less than a slice or two. */
const lagFromRuns = 5000;
/** How long one slice of a walk runs before keys and frames get their turn. */
const sliceMs = 8;

type Made = {jobId: string; model: Model; rev: number; prices: PriceTable; figures: JobFigures};

/** The walks going on now, of every cache: what changes the model in place waits on them (figuresInSlices). */
const walking = new Set<object>();

/**
 * Whether a job's figures are being worked out in slices now. A walk reads the model between keys and frames,
 * so the load's posts, which change the model in place, wait until it is done (LoadOptions.holdPosts).
 */
export function figuresInSlices(): boolean {
	return walking.size > 0;
}

export type FiguresCache = {
	/** The figures of `job` in `model`: made now, or those shown last while newer ones are made in slices. */
	figuresFor: (model: Model, job: Job, prices: PriceTable) => JobFigures;
	/** Drops a walk going on (the header is gone). */
	stop: () => void;
};

/**
 * `onReady`: figures made in slices are ready, and `figuresFor` gives them. `canStart`: whether a walk may begin
 * now (not while the model is part way through taking in a post of the load, ViewStore.modelChanging).
 */
export function createFiguresCache(onReady: () => void, canStart: () => boolean = () => true, scheduler: Scheduler = idleTimers): FiguresCache {
	let shown: Made | undefined;
	let pending: {model: Model; rev: number; jobId: string; cancel: () => void} | undefined;
	const token = {};

	const stop = (): void => {
		pending?.cancel();
		pending = undefined;
		walking.delete(token);
	};

	const inSlices = (model: Model, job: Job, prices: PriceTable): void => {
		if (pending?.model === model && pending.rev === model.rev && pending.jobId === job.jobId) return;
		stop();
		const walk = startJobFigures(job, prices);
		const {rev} = model;
		const step = (): void => {
			if (walk.next === 0 && !canStart()) {
				if (pending) pending.cancel = scheduler.later(step, startRetryMs);
				return;
			}

			const deadline = scheduler.now() + sliceMs;
			const figures = continueJobFigures(model, walk, () => scheduler.now() >= deadline);
			if (!figures) {
				if (pending) pending.cancel = scheduler.soon(step);
				return;
			}

			pending = undefined;
			walking.delete(token);
			shown = {jobId: job.jobId, model, rev, prices, figures};
			onReady();
		};

		pending = {model, rev, jobId: job.jobId, cancel: scheduler.soon(step)};
		walking.add(token);
	};

	const figuresFor = (model: Model, job: Job, prices: PriceTable): JobFigures => {
		if (shown?.model === model && shown.rev === model.rev && shown.jobId === job.jobId && shown.prices === prices) return shown.figures;
		// At once: a small job; the first figures of a job; other prices; or a model changed in place (a load on
		// this thread), which would go on changing between slices.
		if (job.runIds.length < lagFromRuns || shown?.jobId !== job.jobId || shown.prices !== prices || shown.model === model) {
			stop();
			shown = {jobId: job.jobId, model, rev: model.rev, prices, figures: jobFigures(model, job, prices)};
			return shown.figures;
		}

		inSlices(model, job, prices);
		return shown.figures;
	};

	return {figuresFor, stop};
}
