import type {Stats} from 'node:fs';
import {open, stat, type FileHandle} from 'node:fs/promises';
import {isMissing} from './fs-errors.js';
import {followPollMs, onceCaughtUp, setFlag, type FileReading} from './file-reading.js';
import {isChatDocumentHead, mayYetBeChatDocumentHead} from './file-head.js';
import {followRewritten} from './follow-rewritten.js';
import {Wakeup, watchPath} from './wakeup.js';

const chunkBytes = 1024 * 1024;

/**
 * Reads a regular file to its end and, when following, keeps reading what is appended, like `tail -F`:
 * a partial last line waits for its newline, a truncated file (copytruncate) is read again from the start,
 * a rotated file (renamed away, a new file at the path) is drained and the new one read from the start,
 * and a path that does not exist yet is waited for.
 */
export async function readRegularFile(reading: FileReading): Promise<void> {
	if (reading.follow && reading.rewritten === true) return followRewritten(reading);
	const {path, follow, signal, progress} = reading;
	const wakeup = new Wakeup();
	const unwatch = follow ? watchPath(path, wakeup) : () => undefined;
	// One buffer for the whole file: the splitter copies whatever it keeps past a push.
	const buffer = Buffer.allocUnsafe(chunkBytes);
	let generation = 1;
	let splitter = reading.splitterFor(reading.label);
	let handle: FileHandle | undefined;
	let offset = 0;
	const catchUp = onceCaughtUp(reading);

	const startOver = () => {
		generation++;
		splitter = reading.splitterFor(`${reading.label} (#${generation})`);
		offset = 0;
		progress.bytesRead = 0;
	};

	/**
	 * Reads what was appended; `rewritten` when a followed file begins as one its writer writes again whole,
	 * `compressed` when it begins as a gzip file.
	 */
	const drain = async (from: FileHandle): Promise<'rewritten' | 'compressed' | undefined> => {
		while (!signal.aborted) {
			const {bytesRead} = await from.read(buffer, 0, buffer.length, offset);
			if (bytesRead === 0) return undefined;
			// A followed file that was not there, or empty, as the plan was made: what it turns out to be decides (too
			// few of its first bytes to say are taken at the next look).
			if (follow && offset === 0 && isChatDocumentHead(buffer.subarray(0, bytesRead))) return 'rewritten';
			if (follow && offset === 0 && bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'compressed';
			if (follow && offset === 0 && mayYetBeChatDocumentHead(buffer.subarray(0, bytesRead))) return undefined;
			offset += bytesRead;
			splitter.push(buffer.subarray(0, bytesRead));
			progress.bytesRead = offset;
			if (progress.bytesTotal === undefined || progress.bytesTotal < offset) progress.bytesTotal = offset;
			await reading.afterChunk();
		}

		return undefined;
	};

	try {
		while (!signal.aborted) {
			if (!handle) {
				handle = await openUnlessMissing(path, follow);
				if (!handle) {
					setFlag(reading, 'waiting', true);
					catchUp();
					await wakeup.wait(followPollMs, signal);
					continue;
				}

				setFlag(reading, 'waiting', false);
				progress.bytesTotal = (await handle.stat()).size;
			}

			const drained = await drain(handle);
			if (drained === 'rewritten') {
				await handle.close();
				handle = undefined;
				// Told it caught up once, whichever reader tells it.
				return await followRewritten({...reading, caughtUp: catchUp}, splitter);
			}

			if (drained === 'compressed') {
				await handle.close();
				handle = undefined;
				// As a compressed file given is read: uncompressed, to its end, once (it is never followed).
				const {readGzipFile} = await import('./read-gzip.js');
				await readGzipFile({path, splitter, signal, progress: bytes => (progress.bytesRead = bytes), afterChunk: reading.afterChunk});
				catchUp();
				return;
			}

			catchUp();
			if (!follow || signal.aborted) break;
			setFlag(reading, 'following', true);
			await wakeup.wait(followPollMs, signal);
			if (signal.aborted) break;

			const current = await handle.stat();
			const atPath = await statUnlessMissing(path);
			if (atPath && !sameFile(atPath, current)) {
				// Rotated: what the writer added to the old file before letting go of it is still ours.
				await drain(handle);
				splitter.end();
				await reading.afterChunk();
				await handle.close();
				handle = undefined;
				startOver();
				continue;
			}

			// Truncated in place (copytruncate): the old lines were copied elsewhere; the new ones start at 0.
			if (current.size < offset) startOver();
			progress.bytesTotal = current.size;
		}
	} finally {
		unwatch();
		progress.following = false;
		progress.waiting = false;
		await handle?.close();
	}

	// A last line without a newline is an event too once nothing more will be appended to it.
	splitter.end();
	await reading.afterChunk();
}

function sameFile(a: Stats, b: Stats): boolean {
	return a.ino === b.ino && a.dev === b.dev;
}

async function openUnlessMissing(path: string, follow: boolean): Promise<FileHandle | undefined> {
	try {
		return await open(path, 'r');
	} catch (error) {
		if (follow && isMissing(error)) return undefined;
		throw error;
	}
}

async function statUnlessMissing(path: string): Promise<Stats | undefined> {
	try {
		return await stat(path);
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw error;
	}
}
