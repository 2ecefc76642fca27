import {readFile, stat} from 'node:fs/promises';
import {compareEventFiles} from './event-order.js';
import {feedEventBytes, feedEventFile, leftoverReason} from './event-file.js';
import {isMissing} from './fs-errors.js';
import {eventDirectoriesOf, eventFilesIn, modifiedAt, type EventFile} from './job-directory.js';
import type {LineSplitter} from '../parse/line-splitter.js';
import {Wakeup} from './wakeup.js';

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
	/** A file that could not be read at all (as opposed to one that holds no valid event). */
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
/** Files fed between two `afterChunk` calls, so a huge job still lets the screen update. */
const filesPerChunk = 64;

type PendingFile = EventFile & {size: number; mtimeMs: number};

/**
 * Reads a persisted job: every event file, in event order, each as one line whose source is the file's
 * path. When following, the runs are listed again every `jobPollMs` and new files are fed, each exactly once.
 */
export async function readJobDirectory(reading: JobReading): Promise<void> {
	const {signal, progress} = reading;
	const fed = new Set<string>();
	const pending = new Map<string, PendingFile>();
	const listedAt = new Map<string, number>();
	const buffer = Buffer.allocUnsafe(1024 * 1024);
	const wakeup = new Wakeup();
	progress.bytesTotal = 0;
	let caughtUp = false;

	const scan = async () => {
		const now = Date.now();
		for (const directory of await eventDirectoriesOf(reading.path)) {
			const mtime = await modifiedAt(directory);
			if (mtime === undefined) continue;
			if (listedAt.get(directory) === mtime && now - mtime > coarseClockMs) continue;
			listedAt.set(directory, mtime);
			for (const file of await eventFilesIn(directory)) {
				if (fed.has(file.path) || pending.has(file.path)) continue;
				const info = await statUnlessGone(file.path);
				if (!info) continue;
				pending.set(file.path, {...file, size: info.size, mtimeMs: info.mtimeMs});
				progress.bytesTotal = (progress.bytesTotal ?? 0) + info.size;
			}
		}
	};

	const feedPending = async () => {
		let sinceChunk = 0;
		for (const file of [...pending.values()].sort(compareEventFiles)) {
			if (signal.aborted) return;
			const read = await feedOne(reading, file, buffer);
			if (read === 'not yet') {
				// It and everything after it wait for the next listing, so the order holds.
				file.mtimeMs = (await statUnlessGone(file.path))?.mtimeMs ?? file.mtimeMs;
				break;
			}

			pending.delete(file.path);
			fed.add(file.path);
			progress.bytesRead += read;
			if (progress.bytesTotal !== undefined && progress.bytesTotal < progress.bytesRead) progress.bytesTotal = progress.bytesRead;
			if (++sinceChunk >= filesPerChunk) {
				sinceChunk = 0;
				await reading.afterChunk();
			}
		}
	};

	try {
		while (!signal.aborted) {
			await scan();
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
}

/** Feeds one event file; 'not yet' when it looks half-written. Returns the bytes read. */
async function feedOne(reading: JobReading, file: PendingFile, buffer: Buffer): Promise<number | 'not yet'> {
	const recent = reading.follow && Date.now() - file.mtimeMs < settleMs;
	try {
		if (!recent) {
			const read = await feedEventFile(file.path, reading.splitterFor(file.path), buffer);
			if (read.leftover > 0) reading.problem(file.path, leftoverReason(read.leftover));
			return read.bytes;
		}

		if (file.size > maxCheckedBytes) return 'not yet';
		const bytes = await readFile(file.path);
		if (!parsesAsJson(bytes)) return 'not yet';
		feedEventBytes(bytes, reading.splitterFor(file.path));
		return bytes.length;
	} catch (error) {
		// Removed between listing and reading: there is nothing left to show.
		if (isMissing(error)) return 0;
		reading.problem(file.path, `cannot read ${file.path}: ${error instanceof Error ? error.message : String(error)}`);
		return 0;
	}
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

async function statUnlessGone(path: string): Promise<{size: number; mtimeMs: number} | undefined> {
	try {
		const info = await stat(path);
		return {size: info.size, mtimeMs: info.mtimeMs};
	} catch {
		return undefined;
	}
}
