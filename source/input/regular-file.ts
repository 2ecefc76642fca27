import {closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync, type Stats} from 'node:fs';

/*
 * Files that are expected to be regular files (a job directory's event files), opened so that nothing put in
 * their place can hang perscope. A FIFO opened the usual way blocks until a writer comes, in a thread that
 * nothing can cancel; /dev/zero or /dev/urandom never end. So the path is looked at first and only a regular
 * file (or a link to one) is opened; it is opened non-blocking (a FIFO swapped in meanwhile returns at once
 * instead of waiting for a writer), and what was opened is looked at again through its descriptor, which
 * cannot be swapped; and no more is read than the size it had then, so a file that grows without end is read
 * once, as far as that.
 */

/** What a path that is not a regular file is, in words: `a FIFO`, `a character device`… */
export function whatItIs(stats: Pick<Stats, 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket' | 'isDirectory' | 'isSymbolicLink'>): string {
	if (stats.isFIFO()) return 'a FIFO';
	if (stats.isCharacterDevice()) return 'a character device';
	if (stats.isBlockDevice()) return 'a block device';
	if (stats.isSocket()) return 'a socket';
	if (stats.isDirectory()) return 'a directory';
	if (stats.isSymbolicLink()) return 'a symbolic link';
	return 'not a regular file';
}

/** A path that is not a regular file, and so was not read. */
export class NotRegularFile extends Error {
	constructor(
		readonly path: string,
		readonly what: string,
	) {
		super(`not read: it is ${what}, not a regular file`);
		this.name = 'NotRegularFile';
	}
}

export type OpenedFile = {fd: number; size: number; mtimeMs: number};

/**
 * Opens a regular file for reading, or throws NotRegularFile (and a file system error as openSync does).
 * `known` says the caller already saw a regular file there (a directory listing's type), so the path is
 * not looked at again before the open: the descriptor's own look after it still catches a swap.
 */
export function openRegularFileSync(path: string, known: 'regular' | 'unknown' = 'unknown'): OpenedFile {
	if (known === 'unknown') {
		const stats = statSync(path);
		if (!stats.isFile()) throw new NotRegularFile(path, whatItIs(stats));
	}

	// O_NOCTTY: a terminal swapped in must not become ours.
	const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
	let stats: Stats;
	try {
		stats = fstatSync(fd);
	} catch (error) {
		closeSync(fd);
		throw error;
	}

	if (!stats.isFile()) {
		closeSync(fd);
		throw new NotRegularFile(path, whatItIs(stats));
	}

	return {fd, size: stats.size, mtimeMs: stats.mtimeMs};
}

/**
 * Reads an opened file from its start, at most its size when opened (and at most `limit`), handing each piece
 * to `piece` (the buffer is reused: a piece is only valid during the call). Returns the bytes read.
 */
export function readOpenedSync(file: OpenedFile, buffer: Buffer, piece: (bytes: Buffer) => void, limit = Number.POSITIVE_INFINITY): number {
	const end = Math.min(file.size, limit);
	let position = 0;
	while (position < end) {
		const read = readSync(file.fd, buffer, 0, Math.min(buffer.length, end - position), position);
		if (read === 0) break;
		piece(buffer.subarray(0, read));
		position += read;
	}

	return position;
}

/** The whole of a regular file (at most `limit` bytes: undefined when it is larger), or throws as openRegularFileSync does. */
export function readRegularFileSync(path: string, limit: number): Buffer | undefined {
	const file = openRegularFileSync(path);
	try {
		if (file.size > limit) return undefined;
		const bytes = Buffer.allocUnsafe(file.size);
		let position = 0;
		while (position < bytes.length) {
			const read = readSync(file.fd, bytes, position, bytes.length - position, position);
			if (read === 0) break;
			position += read;
		}

		return bytes.subarray(0, position);
	} finally {
		closeSync(file.fd);
	}
}

/**
 * A regular file's first line, read no further than its first newline (or `limit` bytes, a piece more at most): a
 * session file's head, without the rest of a long session. Undefined when it cannot be read.
 */
export function firstLineSync(path: string, limit: number): string | undefined {
	const buffer = Buffer.allocUnsafe(64 * 1024);
	const pieces: Buffer[] = [];
	try {
		const file = openRegularFileSync(path);
		try {
			for (let position = 0; position < Math.min(file.size, limit); ) {
				const read = readSync(file.fd, buffer, 0, buffer.length, position);
				if (read === 0) break;
				pieces.push(Buffer.from(buffer.subarray(0, read)));
				position += read;
				if (buffer.subarray(0, read).includes(10)) break;
			}
		} finally {
			closeSync(file.fd);
		}
	} catch {
		return undefined;
	}

	const bytes = Buffer.concat(pieces);
	const end = bytes.indexOf(10);
	return bytes.toString('utf8', 0, end < 0 ? bytes.length : end);
}

/** A regular file's first `count` bytes (fewer in a shorter file), or its last; undefined when it cannot be read. */
export function bytesOfSync(path: string, where: 'start' | 'end', count: number): Buffer | undefined {
	try {
		const file = openRegularFileSync(path);
		try {
			const length = Math.min(file.size, count);
			const bytes = Buffer.alloc(length);
			const read = readSync(file.fd, bytes, 0, length, where === 'start' ? 0 : file.size - length);
			return bytes.subarray(0, read);
		} finally {
			closeSync(file.fd);
		}
	} catch {
		return undefined;
	}
}

/** The names in a folder, sorted; none when it is not there or cannot be read (a folder not written yet reads as empty). */
export function namesIn(folder: string): string[] {
	try {
		return readdirSync(folder).sort();
	} catch {
		return [];
	}
}

/** Whether a directory is at `path` (a link followed); false for anything else, or nothing. */
export function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** Whether a regular file is at `path` (a link followed); false for anything else, or nothing. */
export function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
