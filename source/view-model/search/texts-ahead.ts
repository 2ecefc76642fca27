import {keptTextChars, prepareTexts, textsFull} from '../../query/search.js';
import type {Model} from '../../model/state.js';
import type {Scheduler, Task} from '../../slices/scheduler.js';

/** While `busy` (a file read on this thread), how long to wait before asking again. */
const busyRetryMs = 250;
/** Texts are made ahead as far as they are kept (`keptTextChars`). */
export const prepareAheadChars = keptTextChars;

/**
 * Makes every activity's searchable text ahead, of one viewer's model, in short slices on idle time, so that the
 * first keystroke of a search after a load reads texts instead of making them all.
 */
export class TextsAhead {
	/** The one model whose texts are being made ahead; a newer model (or revision) takes its place. */
	#preparing: {model: Model; rev: number; activities: Model['activities']; reached: () => number; task: Task} | undefined;

	constructor(readonly scheduler: Scheduler) {}

	/**
	 * Slices yield to keys (each is a separate turn of the event loop) and wait while `busy` says the thread is
	 * reading a file. Calling it again for the same model revision does nothing; a new model or revision starts
	 * over (texts already made are kept by activity, so starting over skips them cheaply), and it stops at
	 * `budget` characters of text or where no more texts are kept. Returns when the first slice is scheduled.
	 */
	prepare(model: Model, busy: () => boolean = () => false, budget = prepareAheadChars): void {
		const preparing = this.#preparing;
		if (preparing && preparing.model === model && preparing.rev === model.rev) return;
		preparing?.task.cancel();
		const {scheduler} = this;
		// The same activities, changed in place (a live stream read on this thread moves the revision with every
		// event): the texts made so far stay made, and a search checks each against its activity as it reads it. The
		// pass goes on from where the last one got to, so that a revision costs its new activities, not a walk of the
		// whole log at every frame (a day's stream: a tenth of the viewer's CPU, growing with the log).
		let next = preparing?.activities === model.activities ? preparing.reached() : 0;
		let made = 0;
		const task = scheduler.run(
			until => {
				let sliceChars = 0;
				next = prepareTexts(model, next, chars => {
					sliceChars = chars;
					return scheduler.now() >= until || made + chars >= budget;
				});
				made += sliceChars;
				return next >= model.activities.length || made >= budget || textsFull(model);
			},
			{ready: () => !busy(), waitMs: busyRetryMs},
		);
		this.#preparing = {model, rev: model.rev, activities: model.activities, reached: () => next, task};
	}

	/** Whether making texts ahead for this model revision is over: all made, or the budget reached (for tests). */
	prepared(model: Model): boolean {
		const preparing = this.#preparing;
		return preparing !== undefined && preparing.model === model && preparing.rev === model.rev && preparing.task.over;
	}
}
