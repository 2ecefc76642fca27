import {readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {subagentsOf} from '../input/claude-sessions.js';
import {eventFilesOf, jobsIn, newestFirst, type JobListing} from './job-listing.js';

/*
 * The job list kept up to date while following (`perscope -f perstack`, `perscope --claude -f`): a job or session
 * started since shows up, and one that goes on shows its new steps and status. Each look lists the root and takes a
 * signature of each job (what its files are and how big), cheap next to reading them; only a job whose signature
 * changed is read again, and a job that takes long to read (a session of many megabytes, growing as Claude Code
 * writes it) no more often than ten times what its last reading took, so that following costs at most a tenth of a
 * core whatever the jobs' sizes.
 */

type Entry = {signature: string; listing: JobListing; describedAt: number; costMs: number};

/** A job read again no sooner than this many times its last reading took. */
const costFactor = 10;

export class FollowedJobList {
	readonly #root: string;
	readonly #entries = new Map<string, Entry>();
	readonly #clock: () => number;

	constructor(root: string, clock: () => number = () => performance.now()) {
		this.#root = root;
		this.#clock = clock;
	}

	/** Every job of the root, read now: the list to show first. */
	list(): JobListing[] {
		return this.refresh() ?? [];
	}

	/** The list again when a job appeared, went or changed since the last look; undefined when nothing did. */
	refresh(): JobListing[] | undefined {
		const {kind, paths, describe} = jobsIn(this.#root);
		let changed = paths.length !== this.#entries.size;
		const present = new Set(paths);
		for (const path of this.#entries.keys()) {
			if (present.has(path)) continue;
			this.#entries.delete(path);
			changed = true;
		}

		for (const path of paths) {
			const signature = kind === 'sessions' ? sessionSignature(path) : jobSignature(path);
			const entry = this.#entries.get(path);
			if (entry?.signature === signature) continue;
			const started = this.#clock();
			if (entry && started - entry.describedAt < costFactor * entry.costMs) continue;
			const listing = describe(path);
			const ended = this.#clock();
			this.#entries.set(path, {signature, listing, describedAt: ended, costMs: ended - started});
			changed ||= entry === undefined || !sameListing(entry.listing, listing);
		}

		return changed ? newestFirst([...this.#entries.values()].map(entry => entry.listing)) : undefined;
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
	if (subagents !== undefined) {
		let names: string[] = [];
		try {
			names = readdirSync(subagents).sort();
		} catch {
			// No sub-agents (yet).
		}

		for (const name of names) marks.push(`${name}=${fileMark(join(subagents, name))}`);
	}

	return marks.join(' ');
}

/** A job directory's event files (each event a file of its own, named by its time) and its `job.json`. */
function jobSignature(path: string): string {
	const files = eventFilesOf(path);
	let newest = '';
	for (const file of files) if (file.name > newest) newest = file.name;
	return `${files.length} ${newest} ${fileMark(join(path, 'job.json'))}`;
}
