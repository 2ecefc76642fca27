import {readFileSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {Ingest} from './ingest.js';
import type {RunStatus} from '../model/events.js';
import type {Job, Model} from '../model/state.js';
import type {JobListing} from '../query/job-listing.js';
import {zeroUsage} from '../model/usage.js';
import {streamTypes} from '../parse/stream-line.js';
import {jobTotals} from '../query/tree.js';
import {originalQuery} from '../query/resume-command.js';
import {compareEventFiles} from '../input/job/event-order.js';
import {feedEventFileSync} from '../input/job/event-file.js';
import {eventFilesOf, jobDirectoriesIn, type EventFile} from '../input/job/job-directory.js';
import {projectFoldersIn, sessionFilesIn, subagentsOf} from '../input/claude-sessions.js';
import {codexSessionsIn, rolloutThread, type RolloutHeads} from '../input/codex-sessions.js';
import {geminiChatsIn, geminiProjectOf, geminiProjectsListed, geminiSubagentChatsOf} from '../input/gemini-chats.js';
import {SessionFiles, type SessionFilesOf} from '../input/read-session.js';
import {jobSignature, type JobKind} from './job-signature.js';
import type {ListingCache} from './listing-cache.js';

export type {JobListing} from '../query/job-listing.js';

/*
 * Streaming deltas can be most of a job's files and change nothing the listing shows (status, steps,
 * usage, start), so they are not read for it.
 */
const streamingTypes: ReadonlySet<string> = new Set(streamTypes);

/**
 * The jobs under a jobs root (`perstack` or `perstack/jobs`), newest first. Each job's events are reduced
 * with the same core as everything else, so the listing agrees with what opening the job shows.
 */
export function listJobs(root: string, where?: string, cache?: ListingCache): JobListing[] {
	const jobs = jobsIn(root, undefined, where);
	return newestFirst(jobs.paths.map(path => describeKept(jobs, path, cache)));
}

/** The jobs of a root (jobsIn): their kind, their paths, how one is listed, and the files read with each. */
export type RootJobs = {
	kind: JobKind;
	paths: string[];
	/** A job's listing, read a piece at a time (as read: asListed gives it as the root lists it; describe: at once). */
	reading: (path: string) => ListingReading;
	describe: (path: string) => JobListing;
	companions: ReadonlyMap<string, readonly string[]>;
	/** Sessions of several projects together (every Claude Code project's, every Gemini CLI project's): each one's project. */
	projectOf: ((path: string) => string) | undefined;
};

/** A job as `describe` lists it, or as the cache kept it when its files are as they were then (kept when read). */
export function describeKept(jobs: RootJobs, path: string, cache: ListingCache | undefined): JobListing {
	if (!cache) return jobs.describe(path);
	// Taken before it is read: a job written to meanwhile is read again next time.
	const signature = jobSignature(jobs.kind, path, jobs.companions.get(path) ?? []);
	const kept = keptListing(jobs, path, signature, cache);
	if (kept) return kept;
	const reading = jobs.reading(path);
	const listing = readWhole(reading);
	keepListing(path, signature, listing, reading, cache);
	return asListed(jobs, path, listing);
}

/** A job's listing as its root lists it: with its project, across every Claude Code project (readings give none). */
export function asListed(jobs: RootJobs, path: string, listing: JobListing): JobListing {
	return jobs.projectOf ? {...listing, project: jobs.projectOf(path)} : listing;
}

/** A first prompt longer than this is not kept (the cache's file is read whole at every listing). */
const maxKeptQuery = 16 * 1024;

/** What the cache kept of a job whose files have this signature, as this root lists it; undefined for nothing. */
export function keptListing(jobs: RootJobs, path: string, signature: string, cache: ListingCache | undefined): JobListing | undefined {
	const kept = cache?.get(path, signature);
	if (!kept) return undefined;
	// A rollout's sub-agents as they are found now: the file is the person's own, but any program could write it.
	const companions = jobs.companions.get(path) ?? [];
	if ((kept.companions ?? []).join('\n') !== companions.join('\n')) return undefined;
	// Kept as read, without its project, which depends on the root it is listed from (a project's folder, or all of them).
	return asListed(jobs, path, kept);
}

/** Keeps a job's listing as its reading gave it, once read whole and without a problem. */
export function keepListing(path: string, signature: string, listing: JobListing, reading: ListingReading, cache: ListingCache | undefined): void {
	if (!cache || reading.failed || (listing.query?.length ?? 0) > maxKeptQuery) return;
	cache.set(path, signature, listing);
}

/**
 * The jobs of a root: a Claude Code project's sessions, or every project's (`~/.claude/projects`), Codex's sessions,
 * else the job directories; and how one of them is listed. `heads` keeps Codex rollouts' first lines between looks.
 */
export function jobsIn(root: string, heads?: RolloutHeads, where?: string): RootJobs {
	const none = new Map<string, readonly string[]>();
	// Each folder read once: a followed list asks every second.
	const jobDirectories = jobDirectoriesIn(root);
	if (jobDirectories.length > 0) return rootJobs('jobs', jobDirectories, jobListing, none);
	const sessions = sessionFilesIn(root);
	if (sessions.length > 0) return rootJobs('sessions', sessions, sessionListing, none);
	// Gemini CLI's chats (`~/.gemini`, its `tmp`, a project's folder or its `chats`): each session's. Before Claude
	// Code's projects: a `chats` folder holds each session's sub-agents in a folder named by a UUID, as a project's are.
	const chats = geminiChatsIn(root, where);
	if (chats.length > 0) {
		const companions = new Map(chats.map(path => [path, geminiSubagentChatsOf(path) ?? []]));
		return rootJobs(
			'chats',
			chats,
			path => chatListing(path, companions.get(path) ?? []),
			companions,
			geminiProjectsListed(root) ? geminiProjectOf : undefined,
		);
	}

	const projects = projectFoldersIn(root);
	if (projects.length > 0)
		return rootJobs(
			'sessions',
			projects.flatMap(project => sessionFilesIn(project)),
			sessionListing,
			none,
			path => basename(dirname(path)),
		);
	// A Codex folder of sessions: each session's rollout, read with its sub-agents'.
	const rollouts = codexSessionsIn(root, where, heads);
	if (rollouts.length > 0) {
		const companions = new Map(rollouts.map(session => [session.path, session.subagents]));
		return rootJobs(
			'rollouts',
			rollouts.map(session => session.path),
			path => rolloutListing(path, companions.get(path) ?? []),
			companions,
		);
	}

	return rootJobs('jobs', [], jobListing, none);
}

function rootJobs(
	kind: JobKind,
	paths: string[],
	reading: (path: string) => ListingReading,
	companions: ReadonlyMap<string, readonly string[]>,
	projectOf?: (path: string) => string,
): RootJobs {
	const jobs: RootJobs = {kind, paths, reading, describe: path => asListed(jobs, path, readWhole(reading(path))), companions, projectOf};
	return jobs;
}

/** Listings in the order the list shows them: newest first, then by id. */
export function newestFirst(listings: JobListing[]): JobListing[] {
	return listings.sort(
		(a, b) => (b.startedAt ?? b.lastEventAt ?? 0) - (a.startedAt ?? a.lastEventAt ?? 0) || (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : 0),
	);
}

/**
 * The job directories under a jobs root, oldest first, from their event files' names alone (each names its
 * event's time; the first is the job's start) or, without any, their `job.json`: the order `--summary` gives
 * them in, the listing's reversed, found without reading an event (a summary would read them all twice).
 */
export function jobsOldestFirst(root: string, where?: string, cache?: ListingCache): Array<{path: string; companions: string[]}> {
	const jobs = jobsIn(root, undefined, where);
	// Sessions are ordered by their lines' times, read as the listing reads them (the root listed once).
	if (jobs.kind !== 'jobs')
		return newestFirst(jobs.paths.map(path => describeKept(jobs, path, cache)))
			.toReversed()
			.map(listed => ({path: listed.path, companions: listed.companions ?? []}));
	const started = (path: string): number => {
		let first: number | undefined;
		for (const file of eventFilesOf(path)) if (Number.isFinite(file.timestamp) && (first === undefined || file.timestamp < first)) first = file.timestamp;
		return first ?? fromJobFile(path).startedAt ?? 0;
	};

	return jobs.paths
		.map(path => ({path, jobId: basename(path), at: started(path)}))
		.sort((a, b) => a.at - b.at || (a.jobId < b.jobId ? 1 : a.jobId > b.jobId ? -1 : 0))
		.map(job => ({path: job.path, companions: []}));
}

/**
 * A job being listed a piece at a time: `advance` reads while `more()` says there is time, and gives the listing once
 * the job is read whole (undefined until then); `close` lets go of a reading left unfinished. A session of tens of
 * megabytes takes a second or more to read: the chooser reads it between keys (job-list.ts).
 */
export type ListingReading = {
	advance(more: () => boolean): JobListing | undefined;
	close(): void;
	/** A file could not be read whole (it vanished, or is not a regular file): the listing is not kept. */
	readonly failed: boolean;
};

/** Reads a whole listing at once. */
function readWhole(reading: ListingReading): JobListing {
	return reading.advance(() => true)!;
}

/** Bytes a session's reading feeds between two looks at the time. */
const sliceBytes = 256 * 1024;

/**
 * A session's files read as opening it reads them, in the order their lines were written (a sub-agent whose file comes
 * before the one it was started from is then under its call, not a sub-agent of the main loop still running); then
 * listed by `finish`.
 */
function sessionReading(files: Pick<SessionFilesOf, 'path' | 'subagents' | 'companions'>, finish: (model: Model) => JobListing): ListingReading {
	const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
	const session = new SessionFiles({...files, label: files.path, splitterFor: source => ingest.splitter(source), problem: () => undefined});
	let started = false;
	let done = false;
	let failed = false;
	const close = () => {
		if (done) return;
		done = true;
		try {
			session.end();
		} catch {
			// A file that cannot be closed has nothing more to give.
		}
	};

	return {
		advance(more) {
			try {
				if (!started) {
					started = true;
					session.openSession();
					session.openSubagents();
					session.startPass();
				}

				while (!done && session.feed(sliceBytes) >= sliceBytes) if (!more()) return undefined;
			} catch {
				// A file that vanished or cannot be read only makes the listing less complete (opening it says so).
				failed = true;
			}

			close();
			return finish(ingest.model);
		},
		close,
		get failed() {
			return failed;
		},
	};
}

function sessionListing(path: string): ListingReading {
	return sessionReading({path, subagents: subagentsOf(path)}, model => {
		const job = [...model.jobs.values()].find(candidate => candidate.runIds.length > 0);
		// Nothing in it yet that makes a run: listed by its name, to be opened.
		return job ? listingOf(model, job, path, 'ended') : placeholderOf(path);
	});
}

/** A Gemini CLI chat, read as opening it reads it: with its sub-agents' chats. */
function chatListing(path: string, subagents: readonly string[]): ListingReading {
	return sessionReading({path, subagents: undefined, companions: subagents}, model => {
		const job = [...model.jobs.values()].find(candidate => candidate.runIds.length > 0);
		const listing = job ? listingOf(model, job, path, 'ended') : placeholderOf(path);
		return subagents.length > 0 ? {...listing, companions: [...subagents]} : listing;
	});
}

function rolloutListing(path: string, subagents: readonly string[]): ListingReading {
	return sessionReading({path, subagents: undefined, companions: subagents}, model => {
		const job = [...model.jobs.values()].find(candidate => candidate.runIds.length > 0);
		const listing = job ? listingOf(model, job, path, 'ended') : placeholderOf(path);
		return subagents.length > 0 ? {...listing, companions: [...subagents]} : listing;
	});
}

/** A session or rollout listed by its name alone (nothing in it makes a run yet, or it is not read yet), to be opened. */
export function placeholderOf(path: string, lastEventAt?: number): JobListing {
	return {
		// A Codex rollout by its thread, the session's id, as it will be listed once read.
		jobId: rolloutThread(basename(path)) ?? basename(path).replace(/\.jsonl$/, ''),
		path,
		coordinator: undefined,
		status: 'init',
		steps: 0,
		usage: zeroUsage,
		runs: 0,
		startedAt: undefined,
		lastEventAt,
		query: undefined,
	};
}

/** A job's entry in a listing, from what its files made; `lastEventAt` as its files say, or when the job ended. */
function listingOf(model: Model, job: Job, path: string, lastEventAt: number | undefined | 'ended'): JobListing {
	const totals = jobTotals(model, job);
	return {
		jobId: job.jobId,
		path,
		coordinator: totals.coordinator?.expertKey,
		status: totals.status,
		steps: totals.steps,
		usage: totals.usage,
		runs: job.runIds.length,
		startedAt: totals.startedAt,
		lastEventAt: lastEventAt === 'ended' ? totals.endedAt : lastEventAt,
		query: firstQuery(model, job.runIds),
	};
}

/** The query of the job's first run without a parent (its first coordinator's, or a session's first prompt). */
function firstQuery(model: Model, runIds: readonly string[]): string | undefined {
	for (const runId of runIds) {
		const run = model.runs.get(runId);
		if (run && run.parentRunId === null) return originalQuery(model, run);
	}

	return undefined;
}

export function describeJob(path: string): JobListing {
	return readWhole(jobListing(path));
}

/** A job directory's event files read one by one (not its streaming deltas), then listed. */
function jobListing(path: string): ListingReading {
	let files: EventFile[] | undefined;
	let next = 0;
	const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
	const buffer = Buffer.allocUnsafe(1024 * 1024);
	let lastEventAt: number | undefined;
	let failed = false;
	return {
		get failed() {
			return failed;
		},
		advance(more) {
			files ??= eventFilesOf(path).sort(compareEventFiles);
			for (; next < files.length; next++) {
				if (next > 0 && !more()) return undefined;
				const file = files[next]!;
				if (Number.isFinite(file.timestamp) && (lastEventAt === undefined || file.timestamp > lastEventAt)) lastEventAt = file.timestamp;
				if (streamingTypes.has(file.type) || typeof file.kind === 'object') continue;
				try {
					// Only a regular file is opened, and read no further than its size: a FIFO or /dev/zero put in its
					// place would hold the listing (and the chooser) for ever.
					feedEventFileSync(file.path, ingest.splitter(file.path), buffer, file.kind);
				} catch {
					// A file that vanished, cannot be read or is not a regular file only makes the listing less complete.
					failed = true;
				}
			}

			const name = basename(path);
			const {model} = ingest;
			const job = model.jobs.get(name) ?? [...model.jobs.values()].find(candidate => candidate.runIds.length > 0);
			if (job && job.runIds.length > 0) return listingOf(model, job, path, lastEventAt);
			return {...fromJobFile(path), jobId: name, path, runs: 0, lastEventAt, query: undefined};
		},
		close: () => undefined,
	};
}

/** What an older runtime's `job.json` says, for a job without event files. */
function fromJobFile(path: string): Pick<JobListing, 'coordinator' | 'status' | 'steps' | 'usage' | 'startedAt'> {
	const empty: Pick<JobListing, 'coordinator' | 'status' | 'steps' | 'usage' | 'startedAt'> = {
		coordinator: undefined,
		status: 'init',
		steps: 0,
		usage: zeroUsage,
		startedAt: undefined,
	};
	let value: unknown;
	try {
		value = JSON.parse(readFileSync(join(path, 'job.json'), 'utf8'));
	} catch {
		return empty;
	}

	if (typeof value !== 'object' || value === null) return empty;
	const field = (key: string): unknown => Reflect.get(value, key);
	const coordinator = field('coordinatorExpertKey');
	const steps = field('totalSteps');
	const startedAt = field('startedAt');
	return {
		coordinator: typeof coordinator === 'string' ? coordinator : undefined,
		status: jobStatus(field('status')),
		steps: typeof steps === 'number' ? steps : 0,
		usage: zeroUsage,
		startedAt: typeof startedAt === 'number' ? startedAt : undefined,
	};
}

/** `job.json` statuses, in the words runs use. */
function jobStatus(status: unknown): RunStatus {
	switch (status) {
		case 'running':
			return 'proceeding';
		case 'completed':
			return 'completed';
		case 'stoppedByMaxSteps':
			return 'stoppedByExceededMaxSteps';
		case 'stoppedByInteractiveTool':
			return 'stoppedByInteractiveTool';
		case 'stoppedByError':
			return 'stoppedByError';
		default:
			return 'init';
	}
}
