import {constants} from 'node:fs';
import {open, stat} from 'node:fs/promises';
import {isMissing} from './fs-errors.js';
import {followPollMs, onceCaughtUp, setFlag, type FileReading} from './file-reading.js';
import {NotRegularFile, whatItIs} from './regular-file.js';
import {Wakeup, watchPath} from './wakeup.js';

/*
 * A followed file its writer writes again whole as it grows (a chat Gemini CLI kept before 0.40: one JSON document,
 * replaced at each message): read whole each time it changes, each version given to the same source as its next
 * line, never as bytes appended to the last. A version is one line as a document read at once is
 * (parse/json-document-lines.ts): its line breaks, which in JSON can only be blanks between tokens, become spaces, so
 * that one cut short is a bad line of its own. Its reader takes what a version adds to the one before
 * (chat-reader.ts: each message by its id).
 */

/** A version caught while its writer was still writing it is not given on: it is read again at the next look. */
function isWhole(bytes: Buffer): boolean {
	try {
		JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
		return true;
	} catch {
		return false;
	}
}

/** Follows the file; `splitter`: the one its source was given (a file followed as lines until it turned out to be one). */
export async function followRewritten(reading: FileReading, splitter = reading.splitterFor(reading.label)): Promise<void> {
	const {path, signal, progress} = reading;
	const wakeup = new Wakeup();
	const unwatch = watchPath(path, wakeup);
	/** The version last given on (its inode, size and time), and one not whole when last looked at. */
	let given: string | undefined;
	let broken: string | undefined;
	const catchUp = onceCaughtUp(reading);
	try {
		while (!signal.aborted) {
			// Read only when the file changed since the version given on (its inode, size or time).
			const now = await stampOf(path);
			const version = now === undefined || now === given ? undefined : await readVersion(path);
			setFlag(reading, 'waiting', now === undefined);
			if (version && version.stamp !== given) {
				// Not whole twice, unchanged between: it is what the file holds, given on to be reported as it is.
				if (isWhole(version.bytes) || broken === version.stamp) {
					given = version.stamp;
					splitter.push(oneLine(version.bytes));
					progress.bytesRead = version.bytes.length;
					progress.bytesTotal = version.bytes.length;
					await reading.afterChunk();
				} else broken = version.stamp;
			}

			if (given !== undefined || now === undefined) catchUp();

			setFlag(reading, 'following', true);
			await wakeup.wait(followPollMs, signal);
		}
	} finally {
		unwatch();
		progress.following = false;
		progress.waiting = false;
	}

	splitter.end();
	await reading.afterChunk();
}

/** A version as one line: without a byte order mark, its line breaks spaces, a newline at its end. */
function oneLine(bytes: Buffer): Buffer {
	const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	const line = Buffer.alloc(bytes.length - start + 1, 0x0a);
	bytes.copy(line, 0, start);
	for (let index = 0; index < line.length - 1; index++) if (line[index] === 0x0a || line[index] === 0x0d) line[index] = 0x20;
	return line;
}

/** What tells a version of the file at `path` from the next; undefined while nothing is there. */
async function stampOf(path: string): Promise<string | undefined> {
	try {
		return stampOfStats(await stat(path));
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw error;
	}
}

function stampOfStats(stats: {ino: number; size: number; mtimeMs: number}): string {
	return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

/**
 * The file's bytes as they are now, and what tells this version from the next; undefined while nothing is at the path.
 * Opened without waiting (a FIFO or a terminal swapped in at the path must not hold the reading), and read only if
 * what was opened is a regular file.
 */
async function readVersion(path: string): Promise<{stamp: string; bytes: Buffer} | undefined> {
	let handle;
	try {
		handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw error;
	}

	try {
		const stats = await handle.stat();
		if (!stats.isFile()) throw new NotRegularFile(path, whatItIs(stats));
		const bytes = await handle.readFile();
		return {stamp: stampOfStats(stats), bytes};
	} finally {
		await handle.close();
	}
}
