import {closeSync, openSync, readSync} from 'node:fs';

/** How far into a file its head is looked at for what says it is a JSON document. */
const headBytes = 4096;

/**
 * What a regular file's first bytes say it is: `gzip` (its two magic bytes, whatever its name: rotated logs are often
 * compressed without a `.gz`); `json` when it begins as a JSON document of events rather than lines
 * (parse/json-document-lines.ts, which decides the same way): its first byte other than a blank or a byte order mark
 * is `[` followed, past blanks, by `{` or `]` (an array), or `{` followed, past spaces, by a line break and then,
 * past blanks, `"` or `}` (a pretty-printed object); also when its head ends before that is decided, since then
 * the reading that decides as it goes must take it; else `lines`. `empty`: nothing could be read from it (a file
 * of size 0 that is not empty, as /proc's are, is read to its end rather than by its size). A file that cannot be
 * read is `lines`, not empty: its reader meets the error and reports it.
 */
export function fileHead(path: string): {kind: 'gzip' | 'json' | 'lines'; empty: boolean} {
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

function headKind(head: Buffer, read: number): 'gzip' | 'json' | 'lines' {
	if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
	let opened: number | undefined;
	let broken = false;
	for (let at = 0; at < read; at++) {
		const byte = head[at]!;
		if (opened === 0x7b) {
			if (byte === 0x0a) broken = true;
			if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
			return broken && (byte === 0x22 || byte === 0x7d) ? 'json' : 'lines';
		}

		if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
		if (opened === 0x5b) return byte === 0x7b || byte === 0x5d ? 'json' : 'lines';
		if (byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
		if (byte !== 0x5b && byte !== 0x7b) return 'lines';
		opened = byte;
	}

	// Empty, or undecided as far as looked.
	return read === 0 ? 'lines' : 'json';
}
