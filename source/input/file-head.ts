import {closeSync, openSync, readSync} from 'node:fs';

/** How far into a file its head is looked at for the byte that says it is a JSON array. */
const headBytes = 4096;

/**
 * What a regular file's first bytes say it is: `gzip` (its two magic bytes, whatever its name: rotated logs are often
 * compressed without a `.gz`); `array` when its first byte other than a blank or a byte order mark is `[` followed,
 * past blanks, by `{` or `]` (a JSON array of events, read as its elements: parse/json-array-lines.ts, which
 * decides the same way), also when its head ends before that is decided, since then the reading that decides as it
 * goes must take it; else `lines`. `empty`: nothing could be read from it (a file of size 0 that is not empty, as
 * /proc's are, is read to its end rather than by its size). A file that cannot be read is `lines`, not empty: its
 * reader meets the error and reports it.
 */
export function fileHead(path: string): {kind: 'gzip' | 'array' | 'lines'; empty: boolean} {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch {
		return {kind: 'lines', empty: false};
	}

	try {
		const head = Buffer.alloc(headBytes);
		const read = readSync(fd, head, 0, headBytes, 0);
		return {kind: headKind(head, read), empty: read === 0};
	} catch {
		return {kind: 'lines', empty: false};
	} finally {
		closeSync(fd);
	}
}

function headKind(head: Buffer, read: number): 'gzip' | 'array' | 'lines' {
	if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
	let opened = false;
	for (let at = 0; at < read; at++) {
		const byte = head[at]!;
		if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
		if (!opened && (byte === 0xef || byte === 0xbb || byte === 0xbf)) continue;
		if (opened) return byte === 0x7b || byte === 0x5d ? 'array' : 'lines';
		if (byte !== 0x5b) return 'lines';
		opened = true;
	}

	// Empty, or undecided as far as looked.
	return read === 0 ? 'lines' : 'array';
}
