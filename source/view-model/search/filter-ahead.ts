import {continueFilterScan, filterMatches, filterScanShare, isEmptyFilter, startFilterScan, type Filter, type FilterScan} from '../../query/filter.js';
import type {Model} from '../../model/state.js';
import type {Scheduler, Task} from '../../slices/scheduler.js';
import type {Layouts} from '../tree/layouts.js';
import type {Progress} from './progress.js';

/** A filter being worked out in slices before it is applied: the one last asked for. */
type FilterJob = {filter: Filter; scan: FilterScan; layout: ((until: number) => boolean) | undefined; task: Task | undefined};

export type FilterRequest = {
	filter: Filter;
	/** The model now: a load may replace it or add to it between slices (the work then starts over on it). */
	model: () => Model;
	/** The filter applied now: when it changes before this one is ready (`C`, `x`), this one is dropped. */
	current: () => Filter;
	/** Applies the filter, its bitmap and layout made. */
	apply: (filter: Filter) => void;
	/**
	 * Whether the model is one a load on the viewer's thread changes in place (ViewStore.changedInPlace), as the key
	 * finds it: the filter is then worked out whole on the key, as the tree lays such a model out at once. In slices,
	 * the next chunk of a live stream made the work start over at once anyway, on a revision without the unfiltered
	 * layout to cut the filter's from, and the soak's filter Enters were its slowest keys (docs/performance.md).
	 */
	changesInPlace?: boolean | undefined;
};

/**
 * A filter's Enter, of one viewer: works out which activities the filter shows, then the filtered tree's layout,
 * in slices of idle time, and applies the filter once both are made, so the tree goes on showing what it showed
 * until then (`progressOf` says how far it has got, for the footer). The first slice runs on the key, so on a
 * small log the filter is applied at once. A newer request takes the place of one in progress.
 */
export class FilterAhead {
	#filtering: FilterJob | undefined;

	constructor(
		readonly scheduler: Scheduler,
		readonly layouts: Layouts,
		/** Told when a filter starts or stops being worked out, and as it gets further. */
		readonly progress: Progress,
	) {}

	whenReady(request: FilterRequest): void {
		this.cancel();
		const {scheduler, progress} = this;
		const {filter} = request;
		const was = request.current();
		const scan = startFilterScan(request.model(), filter);
		let layoutModel: Model | undefined;
		let layoutRev = -1;
		const job: FilterJob = {filter, scan, layout: undefined, task: undefined};
		const changesInPlace = request.changesInPlace === true;
		/** One slice: the bitmap, then the layout; true when both are made for the model of now. */
		const work = (until: number, minimum: number, read: () => boolean): boolean => {
			const model = request.model();
			// The model changed in place since the scan began: a live stream read on this thread, which changes it
			// between any two slices, and a scan starts over on each revision, so one cut into slices would never end.
			// The tree works the filter of such a model out at once at every revision; so is this one.
			const inPlace = changesInPlace || (scan.activities === model.activities && scan.rev !== model.rev);
			const enough = () => !inPlace && scheduler.now() >= until && scan.next >= minimum;
			if (!continueFilterScan(model, scan, enough)) return false;
			// Applied with its bitmap: the tree lays it out at once, cut from the unfiltered layout of this revision.
			if (changesInPlace) return true;
			// The layout reads the model across slices: from here on the filter holds the model's read turn (the
			// load's posts wait until it is applied), once no post is part way in.
			if (!read()) return false;
			if (!job.layout || layoutModel !== model || layoutRev !== model.rev) {
				// The model changed in place since the layout began (as above): a layout made ahead would be stale at every
				// slice and never done; the tree lays such a model out at once, at each revision, so the filter is applied
				// with its bitmap made.
				if (job.layout && layoutModel === model) return true;
				job.layout = this.layouts.layoutAhead(model, filter);
				layoutModel = model;
				layoutRev = model.rev;
			}

			// A log the first slice's minimum covers is laid out whole on the key too: it shows at once.
			return job.layout(model.activities.length <= minimum ? Number.POSITIVE_INFINITY : until);
		};

		job.task = scheduler.run(
			(until, {first, read}) => {
				if (!first) {
					if (this.#filtering !== job) return true;
					if (request.current() !== was) {
						this.#drop(job);
						return true;
					}
				}

				if (!work(until, first ? scheduler.budgets.firstSlice : 0, read)) return false;
				const wasShown = this.#filtering === job;
				if (wasShown) this.#filtering = undefined;
				request.apply(filter);
				if (wasShown) progress.tell();
				return true;
			},
			{now: true, progress: () => progress.tell()},
		);
		if (job.task.over) return;
		this.#filtering = job;
		progress.tell();
	}

	/** The filter being worked out and how far (0 to 1), or undefined when none is. Its layout counts as the last tenth. */
	progressOf(): {filter: Filter; share: number} | undefined {
		const job = this.#filtering;
		if (!job) return undefined;
		const laying = job.scan.matches !== undefined && job.layout !== undefined;
		return {filter: job.filter, share: laying ? 0.9 : filterScanShare(job.scan) * 0.9};
	}

	/** Drops the filter being worked out (`C`, `x`: a newer change of the filter). */
	cancel(): void {
		if (this.#filtering) this.#drop(this.#filtering);
	}

	#drop(job: FilterJob): void {
		job.task?.cancel();
		if (this.#filtering !== job) return;
		this.#filtering = undefined;
		this.progress.tell();
	}
}

/** How many activities the filter hides, for the header. */
export function hiddenCount(model: Model, filter: Filter): number {
	return isEmptyFilter(filter) ? 0 : model.activities.length - filterMatches(model, filter).shownCount;
}
