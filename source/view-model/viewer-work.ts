import {Scheduler} from '../slices/scheduler.js';
import {FiguresCache} from './job-figures-cache.js';
import {FilterAhead} from './search/filter-ahead.js';
import {Progress} from './search/progress.js';
import {Searches} from './search/searches.js';
import {TextsAhead} from './search/texts-ahead.js';
import {Layouts} from './tree/layouts.js';

/**
 * What one viewer works out of its model and keeps, and the work it does in slices between keys: the tree's
 * layouts, the searches, a filter on its way, texts made ahead, a job's figures. One per viewer, made by the
 * wiring (app/) and given to the views in their environment (ViewEnv); nothing of it is module state, so two
 * viewers (or two tests) never share a cache or a running task. All its work runs on one scheduler (slices/),
 * which the load's posts share: they take turns on the model (slices/turns.ts).
 */
export class ViewerWork {
	readonly layouts: Layouts;
	/** Tells the views as searches and filters in slices move on. */
	readonly progress = new Progress();
	readonly searches: Searches;
	readonly filters: FilterAhead;
	readonly texts: TextsAhead;

	constructor(readonly scheduler: Scheduler = new Scheduler()) {
		this.layouts = new Layouts(scheduler);
		this.searches = new Searches(scheduler, this.progress);
		this.filters = new FilterAhead(scheduler, this.layouts, this.progress);
		this.texts = new TextsAhead(scheduler);
	}

	/** A cache of a job's figures for one header (`onReady`: figures made in slices are ready). */
	figuresCache(onReady: () => void): FiguresCache {
		return new FiguresCache(this.scheduler, onReady);
	}

	/**
	 * Whether the views are working something out of the model in slices now (a tree's layout, a job's figures,
	 * a filter's layout): what changes the model in place waits meanwhile.
	 */
	readingModel(): boolean {
		return this.scheduler.turns.reading;
	}
}
