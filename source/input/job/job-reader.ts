import {closeSync} from 'node:fs';
import {feedEventBytes, feedOpenedEventFile, leftoverReason} from './event-file.js';
import {describeFsError, isMissing} from '../fs-errors.js';
import {eventDirectoriesOf, eventFilesIn, modifiedAt, type EventFile} from './job-directory.js';
import type {LineSplitter} from '../../parse/line-splitter.js';
import {NotRegularFile, openRegularFileSync, readOpenedSync, type OpenedFile} from '../regular-file.js';
import {compareEventFiles} from './event-order.js';
import {Wakeup} from '../wakeup.js';

export type JobProgress = {
	bytesRead: number;
	bytesTotal: number | undefined;
	following: boolean;
};

export type JobReading = {
	/** A job directory (`jobs/<jobId>`) or one run of it (`jobs/<jobId>/runs/<runId>`). */
	path: string;
	follow: boolean;
	signal: AbortSignal;
	progress: JobProgress;
	splitterFor: (source: string) => LineSplitter;
	/** A file or directory that could not be read at all (as opposed to one that holds no valid event). */
	problem: (source: string, reason: string) => void;
	afterChunk: () => Promise<void>;
	changed: () => void;
	caughtUp: () => void;
};

/** How often a followed job directory is listed again for new event files. */
export const jobPollMs = 500;
/** A file changed more recently than this that does not parse is taken to be half-written, and retried. */
const settleMs = 1000;
/** A directory changed more recently than this is listed again even if its time looks unchanged (coarse clocks). */
const coarseClockMs = 2000;
const maxCheckedBytes = 64 * 1024 * 1024;
/** Files fed between two `afterChunk` calls, so a huge job still lets the screen update and a signal be heard. */
const filesPerChunk = 64;
/** What a file not read yet is taken to weigh, before any has been read. */
const guessedFileBytes = 4096;

/** Said when no event file of a job could be read, and some part of it could not be (exit code 1). */
export class NothingReadable extends Error {
	constructor() {
		super('none of its event files could be read');
		this.name = 'NothingReadable';
	}
}

/**
 * Reads a persisted job: every event file, in event order, each as one line whose source is the file's
 * path. When following, the runs are listed again every `jobPollMs` and new files are fed, each exactly once.
 *
 * The files are read with synchronous calls, a chunk of them between two `afterChunk`: each is a few tens of
 * microseconds, where an asynchronous call waits for a turn of the thread pool, and 100,000 files of four calls
 * each waited 10-30 s in all (docs/performance.md). Nothing read can block: only regular files are opened, and
 * no more than their size (regular-file.ts). A file or directory that cannot be read is reported, once; when
 * nothing at all could be read, this throws NothingReadable.
 */
export async function readJobDirectory(reading: JobReading): Promise<void> {
	const {signal, progress} = reading;
	// Only a followed job is listed again, and needs to know what it has seen.
	const seen = reading.follow ? new Set<string>() : undefined;
	const reported = new Set<string>();
	const listedAt = new Map<string, number>();
	const buffer = Buffer.allocUnsafe(1024 * 1024);
	const wakeup = new Wakeup();
	let pending: EventFile[] = [];
	let filesRead = 0;
	let unreadable = 0;
	let caughtUp = false;

	const report = (source: string, reason: string) => {
		unreadable++;
		if (reported.has(source)) return;
		reported.add(source);
		reading.problem(source, reason);
	};

	// Sizes are learnt as the files are opened, not by a stat of each when listed: the total is what has been read
	// and, for what has not, the average so far.
	const estimateTotal = () => {
		const average = filesRead > 0 ? progress.bytesRead / filesRead : guessedFileBytes;
		progress.bytesTotal = Math.round(progress.bytesRead + pending.length * average);
	};

	const scan = () => {
		const now = Date.now();
		const {directories, unreadable: runs} = eventDirectoriesOf(reading.path);
		if (runs) report(runs.path, `cannot read ${runs.path}: ${describeFsError(runs.error)}; the runs in it are not shown`);
		const listed: EventFile[] = [];
		for (const directory of directories) {
			const mtime = modifiedAt(directory);
			if (mtime === undefined) continue;
			if (listedAt.get(directory) === mtime && now - mtime > coarseClockMs) continue;
			listedAt.set(directory, mtime);
			let files: EventFile[];
			try {
				files = eventFilesIn(directory);
			} catch (error) {
				if (!isMissing(error)) report(directory, `cannot read ${directory}: ${describeFsError(error)}; the events of this run are not shown`);
				continue;
			}

			for (const file of files) {
				if (seen) {
					if (seen.has(file.path)) continue;
					seen.add(file.path);
				}

				if (typeof file.kind === 'object') report(file.path, new NotRegularFile(file.path, file.kind.other).message);
				else listed.push(file);
			}
		}

		// In event order across the runs, what waits from before included.
		if (listed.length > 0) pending = (pending.length === 0 ? listed : [...pending, ...listed]).sort(compareEventFiles);
	};

	const feedPending = async () => {
		let done = 0;
		let sinceChunk = 0;
		try {
			for (const file of pending) {
				if (signal.aborted) return;
				const read = feedOne(reading, file, buffer);
				// Not taken: it and everything after it wait for the next listing, so the order holds.
				if (read === 'not yet') break;

				done++;
				if (read === 'unreadable') {
					unreadable++;
				} else if (read !== 'gone') {
					filesRead++;
					progress.bytesRead += read;
				}

				if (++sinceChunk >= filesPerChunk) {
					sinceChunk = 0;
					estimateTotal();
					await reading.afterChunk();
				}
			}
		} finally {
			pending = pending.slice(done);
			estimateTotal();
		}
	};

	try {
		while (!signal.aborted) {
			scan();
			estimateTotal();
			await feedPending();
			await reading.afterChunk();
			if (!caughtUp) {
				caughtUp = true;
				reading.caughtUp();
			}

			if (!reading.follow || signal.aborted) break;
			if (!progress.following) {
				progress.following = true;
				reading.changed();
			}

			await wakeup.wait(jobPollMs, signal);
		}
	} finally {
		progress.following = false;
	}

	if (!reading.follow && !signal.aborted && filesRead === 0 && unreadable > 0) throw new NothingReadable();
}

/** Feeds one event file: the bytes read, 'not yet' when it looks half-written, 'gone' or 'unreadable' (then reported). */
function feedOne(reading: JobReading, file: EventFile, buffer: Buffer): number | 'not yet' | 'gone' | 'unreadable' {
	let opened: OpenedFile;
	try {
		opened = openRegularFileSync(file.path, file.kind === 'regular' ? 'regular' : 'unknown');
	} catch (error) {
		return failed(reading, file.path, error);
	}

	try {
		if (!(reading.follow && Date.now() - opened.mtimeMs < settleMs)) {
			const read = feedOpenedEventFile(opened, reading.splitterFor(file.path), buffer);
			if (read.leftover > 0) reading.problem(file.path, leftoverReason(read.leftover));
			return read.bytes;
		}

		// Changed a moment ago, while following: it may still be being written, so it counts once it parses.
		if (opened.size > maxCheckedBytes) return 'not yet';
		const bytes = Buffer.allocUnsafe(opened.size);
		let position = 0;
		readOpenedSync(opened, buffer, piece => (position += piece.copy(bytes, position)));
		const whole = bytes.subarray(0, position);
		if (!parsesAsJson(whole)) return 'not yet';
		feedEventBytes(whole, reading.splitterFor(file.path));
		return position;
	} catch (error) {
		return failed(reading, file.path, error);
	} finally {
		closeSync(opened.fd);
	}
}

function failed(reading: JobReading, path: string, error: unknown): 'gone' | 'unreadable' {
	// Removed between listing and reading: there is nothing left to show.
	if (isMissing(error)) return 'gone';
	reading.problem(path, error instanceof NotRegularFile ? error.message : `cannot read ${path}: ${describeFsError(error)}`);
	return 'unreadable';
}

function parsesAsJson(bytes: Buffer): boolean {
	const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	try {
		JSON.parse(bytes.toString('utf8', start));
		return true;
	} catch {
		return false;
	}
}
