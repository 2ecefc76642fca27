import {filterMatches, isEmptyFilter, type Filter} from '../../query/filter.js';
import {continueScan, narrows, scanCovered, startScan, stepKnown, type MatchScan, type ScanStart} from '../../query/search.js';
import {changedSince, markActivities, type ActivitiesMark} from '../../query/activity-changes.js';
import type {Model} from '../../model/state.js';
import type {Scheduler, Task} from '../../slices/scheduler.js';
import type {Progress} from './progress.js';

/** Queries kept per model revision and filter: typing and deleting back finds the earlier ones again. */
const keptQueries = 8;

/** A jump waiting for the search to find its target (`jumpWhenFound`). */
type Jump = {
	model: Model;
	query: string;
	filter: Filter;
	scan: MatchScan;
	from: number | undefined;
	direction: 1 | -1;
	found: (index: number) => void;
	none: () => void;
};

/**
 * The tree's searches of one viewer, shared by every view that asks (the tree, the prompt, the footer), kept for
 * the last few queries of one model revision and filter. A query that holds an earlier one (`tes` → `test`) is
 * searched among that one's matches only, as far as that one had got: a keystroke of an incremental search over
 * a million activities then looks at the few that still match, not at all of them again.
 */
export class Searches {
	readonly #searches = new WeakMap<Model['activities'], Kept>();
	/** The search being worked on in slices: the one last asked for. A newer one takes its place. */
	#running: {scan: MatchScan; task: Task | undefined} | undefined;
	#pending: Jump | undefined;

	constructor(
		readonly scheduler: Scheduler,
		/** Told as a search in slices finds more, or is done. */
		readonly progress: Progress,
	) {}

	#keptFor(model: Model, filter: Filter): Kept {
		let known = this.#searches.get(model.activities);
		if (!known || known.rev !== model.rev || known.filter !== filter) {
			known = {rev: model.rev, filter, scans: new Map(), carry: carryFrom(known, model, filter), mark: markActivities(model)};
			this.#searches.set(model.activities, known);
		}

		return known;
	}

	/**
	 * The search for `query` in `model`, among the activities `filter` shows: done, or going on in slices of idle
	 * time (the views are told as it finds more, `progress`). A new search does its first slice at once, so the
	 * key that started it answers with what it found so far; the search asked for last is the one worked on, so a
	 * newer keystroke leaves the older one where it was (kept, for deleting back to it or narrowing). What it
	 * finds when done is exactly what a search in one go finds (`findMatches`).
	 */
	searchFor(model: Model, query: string, filter: Filter): MatchScan {
		const {scheduler} = this;
		const kept = this.#keptFor(model, filter);
		const {scans} = kept;
		let scan = scans.get(query);
		if (!scan) {
			const shown = isEmptyFilter(filter) ? undefined : filterMatches(model, filter).shown;
			const within = carriedWithin(kept.carry, query) ?? narrowedFrom(scans, query, model.activities.length);
			const made = startScan(model, query, {...(shown ? {include: (_activity, index) => shown[index] === 1} : {}), ...(within ? {within} : {})});
			scan = made;
			scans.set(query, made);
			if (scans.size > keptQueries) scans.delete(scans.keys().next().value!);
			// The first slice runs on the key, and searches at least the first slice's activities: a small log is searched whole on the key.
			const until = scheduler.keyDeadline();
			continueScan(model, made, () => scheduler.now() >= until && made.tested >= scheduler.budgets.firstSlice);
		}

		// A jump waiting on an earlier revision's search for the same query waits on this one now.
		const pending = this.#pending;
		if (pending && pending.scan !== scan && pending.query === query && pending.filter === filter && pending.model.activities === model.activities) {
			this.#pending = {...pending, model, scan};
			this.#settleJump();
		}

		if (!scan.done) this.#run(model, scan);
		return scan;
	}

	#run(model: Model, scan: MatchScan): void {
		if (this.#running?.scan === scan) return;
		this.#running?.task?.cancel();
		const {scheduler, progress} = this;
		const job: {scan: MatchScan; task: Task | undefined} = {scan, task: undefined};
		this.#running = job;
		job.task = scheduler.run(
			until => {
				const done = continueScan(model, scan, () => scheduler.now() >= until);
				if (this.#pending?.scan === scan) this.#settleJump();
				if (done) {
					if (this.#running === job) this.#running = undefined;
					progress.tell();
				}

				return done;
			},
			{progress: () => progress.tell()},
		);
	}

	/** Search matches in one go (tests, and anything that needs them all now): `searchFor` worked to its end. */
	sharedMatches(model: Model, query: string, filter: Filter): number[] {
		if (query === '') return [];
		const scan = this.searchFor(model, query, filter);
		if (!scan.done) {
			continueScan(model, scan);
			if (this.#running?.scan === scan) {
				this.#running.task?.cancel();
				this.#running = undefined;
			}

			if (this.#pending?.scan === scan) this.#settleJump();
		}

		return scan.matches;
	}

	/**
	 * Jumps to the match `n` (+1) or `N` (-1) gives from `from` as soon as the search knows it (`stepKnown`): at
	 * once when it is among the matches found so far, else when the search gets there. `none` when it is done and
	 * there is no match. A newer jump takes the place of one still waiting. Returns whether it is waiting.
	 */
	jumpWhenFound(
		model: Model,
		query: string,
		filter: Filter,
		from: number | undefined,
		direction: 1 | -1,
		found: (index: number) => void,
		none: () => void,
	): boolean {
		const scan = this.searchFor(model, query, filter);
		this.#pending = {model, query, filter, scan, from, direction, found, none};
		this.#settleJump();
		return this.#pending !== undefined;
	}

	/** Forgets a jump still waiting (the prompt was closed, or the query cleared). */
	cancelJump(): void {
		this.#pending = undefined;
	}

	#settleJump(): void {
		const pending = this.#pending;
		if (!pending) return;
		const target = stepKnown(pending.scan, pending.from, pending.direction);
		if (target === 'wait') return;
		this.#pending = undefined;
		if (target === undefined) pending.none();
		else pending.found(target);
	}
}

/** A search is carried on from while its matches are at most this part of the activities: see `carriedWithin`. */
const carriedShare = 4;

/** The searches kept for one model revision and filter, what they may carry on from, and the activities they began with. */
type Kept = {rev: number; filter: Filter; scans: Map<string, MatchScan>; carry: Carry | undefined; mark: ActivitiesMark | undefined};

/**
 * The searches of the revision before, to carry on from (a live stream read on this thread changes the model in
 * place, a frame at a time): `changed`, the activities below `length` whose object changed since (ascending).
 */
type Carry = {scans: Map<string, MatchScan>; length: number; changed: number[]};

/**
 * What the searches of a new revision may carry on from: the searches of the revision before, for the same
 * activities array and no filter (a filter's matches are the revision's own). An activity's searchable text
 * depends on the activity object alone, and a changed activity is a new object (model/reduce/activities.ts);
 * which changed since is told by the activities' tracker (query/activity-changes.ts). While the prompt was open,
 * each frame of a live stream searched every activity again.
 */
function carryFrom(known: Kept | undefined, model: Model, filter: Filter): Carry | undefined {
	if (!known?.mark || known.filter !== filter || !isEmptyFilter(filter) || known.rev >= model.rev) return undefined;
	const changed = changedSince(model, known.mark);
	return changed && {scans: known.scans, length: Math.min(known.mark.length, model.activities.length), changed};
}

/**
 * A search of the revision before for the same query, done: its matches and the changed activities are tested
 * again, then every activity after those it saw. Below that, an unchanged activity that did not match still does not.
 */
function carriedWithin(carry: Carry | undefined, query: string): ScanStart['within'] {
	const earlier = carry?.scans.get(query);
	// Its matches are tested again one by one, where a search afresh reads the texts in order (`continueScan`'s
	// common loop): a query most activities match is quicker searched afresh (`v` on the soak's model: 1.4 against 1.8 ms).
	if (!carry || !earlier?.done || carry.length === 0 || earlier.matches.length > carry.length / carriedShare) return undefined;
	return {matches: mergeBelow(earlier.matches, carry.changed, carry.length), end: carry.length};
}

/**
 * Two ascending lists as one, each index once, below `end` (a search done in slices went on into activities
 * added after the revision it began at: from `end` on, every activity is searched again).
 */
function mergeBelow(a: readonly number[], b: readonly number[], end: number): number[] {
	const out: number[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length || j < b.length) {
		const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
		if (next >= end) break;
		if (out.at(-1) !== next) out.push(next);
	}

	return out;
}

/** Of the earlier searches this query narrows, the one that leaves the least to search. */
function narrowedFrom(scans: Map<string, MatchScan>, query: string, total: number): ScanStart['within'] {
	let best: {matches: readonly number[]; end: number; work: number} | undefined;
	for (const [earlier, scan] of scans) {
		if (!narrows(earlier, query)) continue;
		const end = scan.done ? total : scanCovered(scan);
		const work = scan.matches.length + (total - end);
		if (!best || work < best.work) best = {matches: scan.matches, end, work};
	}

	return best && {matches: best.matches, end: best.end};
}
