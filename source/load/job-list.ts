import {statSync} from 'node:fs';
import type {RolloutHeads} from '../input/codex-sessions.js';
import {asListed, jobsIn, keepListing, keptListing, newestFirst, placeholderOf, type JobListing, type ListingReading, type RootJobs} from './job-listing.js';
import {jobSignature} from './job-signature.js';
import type {ListingCache} from './listing-cache.js';

/*
 * The job chooser's list, read a slice at a time: a root of many jobs (every Claude Code project's sessions, a
 * year of Perstack jobs) shows at once, each job by its name until it is read, the newest files first, so the top of
 * the list fills first and keys answer meanwhile.
 *
 * Following (`perscope -f perstack`, `perscope --claude -f`), the root is looked at again once all is read: a job or
 * session started since shows up, and one that goes on shows its new steps and status. Each look takes a signature
 * of each job (what its files are and how big), cheap next to reading them; only a job whose signature changed is
 * read again, and a job that takes long to read (a session of many megabytes, growing as Claude Code writes it) no
 * more often than ten times what its last reading took, so that following costs at most a tenth of a core whatever
 * the jobs' sizes.
 */

type Entry = {
	listing: JobListing;
	/** Undefined until it is read; when following, what its files were when it was. */
	signature: string | undefined;
	/** When the file or folder was last changed: the newest are read first. */
	changedAt: number;
	describedAt: number;
	costMs: number;
};

/** A job being read: its signature when it began, the jobs of the root it is one of, and the time its slices took so far. */
type Reading = {path: string; signature: string; read: ListingReading; costMs: number; jobs: RootJobs};

/** A job read again no sooner than this many times its last reading took. */
const costFactor = 10;

export class JobList {
	readonly #root: string;
	readonly #follow: boolean;
	/** Of Codex's sessions, only those that ran in this directory. */
	readonly #where: string | undefined;
	readonly #clock: () => number;
	readonly #entries = new Map<string, Entry>();
	/** Paths to read, the next one last. */
	#queue: string[] = [];
	#looked = false;
	/** Codex rollouts' first lines, read once for every look (each holds the model's instructions: tens of kilobytes). */
	readonly #heads: RolloutHeads = new Map();
	#jobs: RootJobs | undefined;
	/** The job being read, over as many slices as it takes. */
	#reading: Reading | undefined;
	/** Listings kept from earlier runs, and where this one's are kept. */
	readonly #cache: ListingCache | undefined;

	constructor(root: string, options: {follow: boolean; clock?: () => number; where?: string | undefined; cache?: ListingCache | undefined}) {
		this.#root = root;
		this.#where = options.where;
		this.#follow = options.follow;
		this.#clock = options.clock ?? (() => performance.now());
		this.#cache = options.cache;
	}

	/** Keeps what was read for the next run (the cache's file). */
	save(): void {
		this.#cache?.save();
	}

	/** Lets go of a job left half read (the list is closed). */
	close(): void {
		this.#reading?.read.close();
		this.#reading = undefined;
	}

	/** How many jobs are still to be read. */
	get pending(): number {
		return this.#queue.length + (this.#reading ? 1 : 0);
	}

	/**
	 * Reads for up to `budgetMs` (at least a slice of a job: a large session is read over several calls): the root is
	 * looked at first when nothing is left to read and it never was or is followed. The list when it changed,
	 * undefined when it did not.
	 */
	next(budgetMs: number): JobListing[] | undefined {
		let changed = false;
		if (this.pending === 0 && (!this.#looked || this.#follow)) changed = this.#look();
		const until = this.#clock() + budgetMs;
		const more = () => this.#clock() < until;
		while (this.pending > 0) {
			const reading = this.#reading ?? this.#startReading();
			if (reading === 'kept') changed = true;
			if (reading === 'kept' || reading === undefined) {
				if (!more()) break;
				continue;
			}

			const entry = this.#entries.get(reading.path);
			const started = this.#clock();
			// A job of many megabytes is read over several slices: keys are answered between them.
			const read = reading.read.advance(more);
			const ended = this.#clock();
			reading.costMs += ended - started;
			if (!read) break;
			this.#reading = undefined;
			keepListing(reading.path, reading.signature, read, reading.read, this.#cache);
			const listing = asListed(reading.jobs, reading.path, read);
			if (entry) {
				changed ||= entry.signature === undefined || !sameListing(entry.listing, listing);
				this.#entries.set(reading.path, {...entry, listing, signature: reading.signature, describedAt: ended, costMs: reading.costMs});
			}

			if (!more()) break;
		}

		return changed ? this.#listing() : undefined;
	}

	/**
	 * The next job to read: a reading of it; `kept` when the cache lists it as it is; undefined when it is gone. Its
	 * signature is taken before it is read: a job written to meanwhile is read again at the next look.
	 */
	#startReading(): Reading | 'kept' | undefined {
		const path = this.#queue.pop()!;
		const entry = this.#entries.get(path);
		if (!entry || !this.#jobs) return undefined;
		const signature = this.#follow || this.#cache ? this.#signature(path) : '';
		const kept = keptListing(this.#jobs, path, signature, this.#cache);
		if (kept) {
			this.#entries.set(path, {...entry, listing: kept, signature, describedAt: this.#clock(), costMs: 0});
			return 'kept';
		}

		this.#reading = {path, signature, read: this.#jobs.reading(path), costMs: 0, jobs: this.#jobs};
		return this.#reading;
	}

	/** Every job of the root, read now (a test's, or a root known to be small). */
	all(): JobListing[] {
		let jobs = this.next(Number.POSITIVE_INFINITY) ?? this.#listing();
		while (this.#queue.length > 0) jobs = this.next(Number.POSITIVE_INFINITY) ?? jobs;
		return jobs;
	}

	#listing(): JobListing[] {
		return newestFirst([...this.#entries.values()].map(entry => entry.listing));
	}

	/** Lists the root: new jobs to read (newest first), gone ones dropped, and, following, changed ones to read again. */
	#look(): boolean {
		const first = !this.#looked;
		this.#looked = true;
		this.#jobs = jobsIn(this.#root, this.#heads, this.#where);
		const {paths} = this.#jobs;
		let changed = first;
		const present = new Set(paths);
		for (const path of this.#entries.keys()) {
			if (present.has(path)) continue;
			this.#entries.delete(path);
			changed = true;
		}

		const now = this.#clock();
		const toRead: Array<{path: string; changedAt: number}> = [];
		for (const path of paths) {
			const entry = this.#entries.get(path);
			if (!entry) {
				const changedAt = modifiedAt(path);
				this.#entries.set(path, {listing: placeholder(path, changedAt), signature: undefined, changedAt, describedAt: 0, costMs: 0});
				toRead.push({path, changedAt});
				changed = true;
				continue;
			}

			if (entry.signature === this.#signature(path) || now - entry.describedAt < costFactor * entry.costMs) continue;
			toRead.push({path, changedAt: entry.changedAt});
		}

		// The newest first: the queue's next is its last.
		this.#queue = toRead.sort((a, b) => a.changedAt - b.changedAt).map(item => item.path);
		return changed;
	}

	#signature(path: string): string {
		if (!this.#jobs) return '';
		// A session's rollout, and its sub-agents' as the listing last read them (a new one shows as its parent grows).
		const companions = this.#entries.get(path)?.listing.companions ?? this.#jobs.companions.get(path) ?? [];
		return jobSignature(this.#jobs.kind, path, companions);
	}
}

/** A job not read yet: its name, and the time its files last changed to place it by. */
function placeholder(path: string, changedAt: number): JobListing {
	return {...placeholderOf(path, changedAt), pending: true};
}

function modifiedAt(path: string): number {
	try {
		return statSync(path).mtimeMs;
	} catch {
		return 0;
	}
}

function sameListing(a: JobListing, b: JobListing): boolean {
	return (
		a.jobId === b.jobId &&
		a.coordinator === b.coordinator &&
		a.status === b.status &&
		a.steps === b.steps &&
		a.runs === b.runs &&
		a.startedAt === b.startedAt &&
		a.lastEventAt === b.lastEventAt &&
		a.query === b.query &&
		a.usage.inputTokens === b.usage.inputTokens &&
		a.usage.outputTokens === b.usage.outputTokens
	);
}
