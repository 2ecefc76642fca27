import type {Job, Model} from '../model/state.js';
import {continueJobFigures, jobFigures, startJobFigures, type JobFigures} from '../query/job-figures.js';
import type {PriceTable} from '../query/prices.js';
import type {Scheduler, Task} from '../slices/scheduler.js';

/*
 * The header's figures of a job (query/job-figures.ts), once per model revision. A job of many runs is walked
 * in slices when a load posts a new model, the figures of the model before it staying on screen meanwhile, as the
 * tree's layout does (tree/layouts.ts): walked at once, 200,000 runs kept every key waiting.
 */

/** A job with fewer runs is walked at once: it takes less than a slice or two. */
const lagFromRuns = 5000;

type Made = {jobId: string; model: Model; rev: number; prices: PriceTable; figures: JobFigures};

export class FiguresCache {
	#shown: Made | undefined;
	#pending: {model: Model; rev: number; jobId: string; task: Task} | undefined;

	constructor(
		readonly scheduler: Scheduler,
		/** Figures made in slices are ready, and `figuresFor` gives them. */
		readonly onReady: () => void,
	) {}

	/** Drops a walk going on (the header is gone). */
	stop(): void {
		this.#pending?.task.cancel();
		this.#pending = undefined;
	}

	#inSlices(model: Model, job: Job, prices: PriceTable): void {
		const pending = this.#pending;
		if (pending?.model === model && pending.rev === model.rev && pending.jobId === job.jobId) return;
		this.stop();
		const {scheduler} = this;
		const walk = startJobFigures(job, prices);
		const {rev} = model;
		const task = scheduler.run(
			until => {
				const figures = continueJobFigures(model, walk, () => scheduler.now() >= until);
				if (!figures) return false;
				this.#pending = undefined;
				this.#shown = {jobId: job.jobId, model, rev, prices, figures};
				this.onReady();
				return true;
			},
			// A walk reads the model between keys: the load's posts wait until it is done, and it waits for one part way.
			{reads: true},
		);
		this.#pending = {model, rev, jobId: job.jobId, task};
	}

	/** The figures of `job` in `model`: made now, or those shown last while newer ones are made in slices. */
	figuresFor(model: Model, job: Job, prices: PriceTable): JobFigures {
		const shown = this.#shown;
		if (shown?.model === model && shown.rev === model.rev && shown.jobId === job.jobId && shown.prices === prices) return shown.figures;
		// At once: a small job; the first figures of a job; other prices; or a model changed in place (a load on
		// this thread), which would go on changing between slices.
		if (job.runIds.length < lagFromRuns || shown?.jobId !== job.jobId || shown.prices !== prices || shown.model === model) {
			this.stop();
			this.#shown = {jobId: job.jobId, model, rev: model.rev, prices, figures: jobFigures(model, job, prices)};
			return this.#shown.figures;
		}

		this.#inSlices(model, job, prices);
		return shown.figures;
	}
}
