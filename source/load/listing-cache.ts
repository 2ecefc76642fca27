import {mkdirSync, readFileSync, renameSync, statSync, writeFileSync} from 'node:fs';
import {dirname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {runStatuses} from '../model/events.js';
import type {JobListing} from '../query/job-listing.js';
import {jsonObject} from '../parse/dialects/json-values.js';
import {isRecord} from '../parse/dialects/wire-reader.js';

/*
 * Listings of jobs read before, kept between runs (`~/.cache/perscope/listings.json`): `perscope ~/.claude/projects`
 * reads every session whole to list it (its status, steps and tokens are worked out from all its lines), a few
 * seconds for a large folder each time it opens; a session whose files have not changed since is listed from here.
 * Each is kept with the signature of its files when it was read (what they are, their sizes and times of change)
 * and the build that read it: a newer perscope reads them again. Bounded: the most recently used `maxEntries`.
 */

const maxEntries = 20_000;

type Entry = {signature: string; listing: JobListing};

export class ListingCache {
	readonly #file: string | undefined;
	readonly #build: string;
	/** In the order they were last used, the latest last. */
	readonly #entries: Map<string, Entry>;
	#changed = false;

	readonly #maxEntries: number;

	/** The cache kept in `file` (none: nothing kept between runs); a file that cannot be read or is not one is empty. */
	constructor(file: string | undefined, options: {maxEntries?: number} = {}) {
		this.#file = file;
		this.#maxEntries = options.maxEntries ?? maxEntries;
		this.#build = buildMark();
		this.#entries = file === undefined ? new Map() : readEntries(file, this.#build);
	}

	/** The listing of `path` read when its files had this signature, by this build; undefined when there is none. */
	get(path: string, signature: string): JobListing | undefined {
		const entry = this.#entries.get(path);
		if (entry === undefined || entry.signature !== signature) return undefined;
		// The most recently used last, as it is written when something new is kept (not rewritten for a use alone).
		this.#entries.delete(path);
		this.#entries.set(path, entry);
		return entry.listing;
	}

	set(path: string, signature: string, listing: JobListing): void {
		// A job not read yet is nothing to keep.
		if (listing.pending) return;
		this.#entries.delete(path);
		this.#entries.set(path, {signature, listing});
		this.#changed = true;
	}

	/** Writes what changed (a new file put in place of the old at once: another perscope may read it meanwhile). */
	save(): void {
		if (this.#file === undefined || !this.#changed) return;
		this.#changed = false;
		const kept = [...this.#entries].slice(-this.#maxEntries);
		const temporary = `${this.#file}.${process.pid}.tmp`;
		try {
			mkdirSync(dirname(this.#file), {recursive: true, mode: 0o700});
			// The first prompt of each session is in it: the person's own, readable by them alone.
			writeFileSync(temporary, JSON.stringify({build: this.#build, entries: kept}), {mode: 0o600});
			renameSync(temporary, this.#file);
		} catch {
			// Not kept: the next run reads the jobs again, as without a cache.
		}
	}
}

/** How listings are written down: one more whenever what a listing holds changes. */
const listingFormat = 1;

/**
 * This build of perscope: its version, and the file of this module with its size and time (a build or an install
 * writes it anew; a package manager that gives every file one time still changes the version).
 */
function buildMark(): string {
	let version = 'unknown';
	try {
		const field = jsonObject(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))?.['version'];
		if (typeof field === 'string') version = field;
	} catch {
		// The mark without it: the module's own file still tells builds apart.
	}

	try {
		const path = fileURLToPath(import.meta.url);
		const stat = statSync(path);
		return `${listingFormat} ${version} ${path} ${stat.size}:${stat.mtimeMs}`;
	} catch {
		return `${listingFormat} ${version}`;
	}
}

function readEntries(file: string, build: string): Map<string, Entry> {
	const entries = new Map<string, Entry>();
	let value: Record<string, unknown> | undefined;
	try {
		value = jsonObject(readFileSync(file, 'utf8'));
	} catch {
		return entries;
	}

	if (value === undefined || value['build'] !== build || !Array.isArray(value['entries'])) return entries;
	for (const pair of value['entries']) {
		const [path, entry]: unknown[] = Array.isArray(pair) ? pair : [];
		if (typeof path !== 'string' || !isRecord(entry) || typeof entry['signature'] !== 'string') continue;
		const listing = listingOf(entry['listing'], path);
		if (listing) entries.set(path, {signature: entry['signature'], listing});
	}

	return entries;
}

const statuses: ReadonlySet<string> = new Set(runStatuses);

/** A listing as this build wrote it, or undefined: the file is this build's, but any program could have written it. */
function listingOf(value: unknown, path: string): JobListing | undefined {
	if (!isRecord(value) || value['path'] !== path || typeof value['jobId'] !== 'string') return undefined;
	const {usage} = value;
	const status = value['status'];
	if (typeof status !== 'string' || !statuses.has(status) || !isRecord(usage)) return undefined;
	const numbers = ['steps', 'runs'].every(key => typeof value[key] === 'number');
	const usageNumbers = ['inputTokens', 'outputTokens', 'reasoningTokens', 'totalTokens', 'cachedInputTokens'].every(key => typeof usage[key] === 'number');
	const optional = (key: string, type: 'string' | 'number') => value[key] === undefined || typeof value[key] === type;
	const texts = optional('coordinator', 'string') && optional('query', 'string') && optional('project', 'string');
	const times = optional('startedAt', 'number') && optional('lastEventAt', 'number');
	const companions = value['companions'] === undefined || (Array.isArray(value['companions']) && value['companions'].every(file => typeof file === 'string'));
	if (!numbers || !usageNumbers || !texts || !times || !companions || value['pending'] !== undefined) return undefined;
	// Checked field by field above: what JSON.stringify made of a JobListing.
	return value as JobListing;
}
