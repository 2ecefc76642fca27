import {closeSync, openSync, readSync} from 'node:fs';

/**
 * Whether a file is gzip-compressed, judged by its first two bytes rather than its name: rotated logs are
 * often compressed without a `.gz`, and a `.gz` name is sometimes a plain file.
 */
export function isGzipFile(path: string): boolean {
	try {
		const fd = openSync(path, 'r');
		try {
			const head = Buffer.alloc(2);
			const read = readSync(fd, head, 0, 2, 0);
			return read === 2 && head[0] === 0x1f && head[1] === 0x8b;
		} finally {
			closeSync(fd);
		}
	} catch {
		return false;
	}
}
