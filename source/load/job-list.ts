import {statSync} from 'node:fs';
import {join} from 'node:path';
import {subagentsOf} from '../input/claude-sessions.js';
import {namesIn} from '../input/regular-file.js';
import type {RolloutHeads} from '../input/codex-sessions.js';
import {assertNever} from '../model/assert-never.js';
import {eventFilesOf, jobsIn, newestFirst, placeholderOf, type JobListing} from './job-listing.js';

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
	#kind: 'sessions' | 'rollouts' | 'jobs' = 'jobs';
	#describe: (path: string) => JobListing = path => placeholder(path, 0);

	constructor(root: string, options: {follow: boolean; clock?: () => number; where?: string | undefined}) {
		this.#root = root;
		this.#where = options.where;
		this.#follow = options.follow;
		this.#clock = options.clock ?? (() => performance.now());
	}

	/** How many jobs are still to be read. */
	get pending(): number {
		return this.#queue.length;
	}

	/**
	 * Reads for up to `budgetMs` (at least one job): the root is looked at first when nothing is left to read and it
	 * never was or is followed. The list when it changed, undefined when it did not.
	 */
	next(budgetMs: number): JobListing[] | undefined {
		let changed = false;
		if (this.#queue.length === 0 && (!this.#looked || this.#follow)) changed = this.#look();
		const until = this.#clock() + budgetMs;
		while (this.#queue.length > 0) {
			const path = this.#queue.pop()!;
			const entry = this.#entries.get(path);
			if (!entry) continue;
			const started = this.#clock();
			const signature = this.#follow ? this.#signature(path) : '';
			const listing = this.#describe(path);
			const ended = this.#clock();
			changed ||= entry.signature === undefined || !sameListing(entry.listing, listing);
			this.#entries.set(path, {...entry, listing, signature, describedAt: ended, costMs: ended - started});
			if (ended >= until) break;
		}

		return changed ? this.#listing() : undefined;
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
		const {kind, paths, describe} = jobsIn(this.#root, this.#heads, this.#where);
		this.#kind = kind;
		this.#describe = describe;
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
		switch (this.#kind) {
			case 'sessions':
				return sessionSignature(path);
			case 'rollouts':
				// A session's rollout, and its sub-agents' as the listing last read them (a new one shows as its parent grows).
				return [path, ...(this.#entries.get(path)?.listing.companions ?? [])].map(fileMark).join(' ');
			case 'jobs':
				return jobSignature(path);
			default:
				return assertNever(this.#kind);
		}
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

/** A file's size and time of change, or `-` when it cannot be looked at. */
function fileMark(path: string): string {
	try {
		const stat = statSync(path);
		return `${stat.size}:${stat.mtimeMs}`;
	} catch {
		return '-';
	}
}

/** A session's transcript and its sub-agents' (a sub-agent writes only its own file while it runs). */
function sessionSignature(path: string): string {
	const marks = [fileMark(path)];
	const subagents = subagentsOf(path);
	// No folder: no sub-agents (yet).
	if (subagents !== undefined) for (const name of namesIn(subagents)) marks.push(`${name}=${fileMark(join(subagents, name))}`);

	return marks.join(' ');
}

/** A job directory's event files (each event a file of its own, named by its time) and its `job.json`. */
function jobSignature(path: string): string {
	const files = eventFilesOf(path);
	let newest = '';
	for (const file of files) if (file.name > newest) newest = file.name;
	return `${files.length} ${newest} ${fileMark(join(path, 'job.json'))}`;
}
