import {closeSync, openSync, readSync} from 'node:fs';
import {open} from 'node:fs/promises';
import type {LineSplitter} from './line-splitter.js';

/*
 * A persisted event file holds one event, possibly pretty-printed. JSON allows a raw line break only
 * between tokens (inside strings they must be escaped), so turning every CR and LF into a space keeps
 * it the same event, on one line. The bytes then go through a splitter like any other line, which
 * applies --max-line-bytes without ever holding an oversized file, and reports problems as line 1 of
 * the file's path.
 */

const chunkBytes = 1024 * 1024;

export function flattenLineBreaks(bytes: Buffer): void {
	for (const breakByte of [10, 13]) {
		let at = bytes.indexOf(breakByte);
		while (at !== -1) {
			bytes[at] = 32;
			at = bytes.indexOf(breakByte, at + 1);
		}
	}
}

/** Feeds bytes already in memory (they are changed in place). */
export function feedEventBytes(bytes: Buffer, splitter: LineSplitter): void {
	flattenLineBreaks(bytes);
	splitter.push(bytes);
	splitter.end();
}

/** Reads a file in chunks into the splitter; returns the bytes read. */
export async function feedEventFile(path: string, splitter: LineSplitter, buffer: Buffer = Buffer.allocUnsafe(chunkBytes)): Promise<number> {
	const handle = await open(path, 'r');
	try {
		let position = 0;
		for (;;) {
			const {bytesRead} = await handle.read(buffer, 0, buffer.length, position);
			if (bytesRead === 0) break;
			const chunk = buffer.subarray(0, bytesRead);
			flattenLineBreaks(chunk);
			splitter.push(chunk);
			position += bytesRead;
		}

		splitter.end();
		return position;
	} finally {
		await handle.close();
	}
}

export function feedEventFileSync(path: string, splitter: LineSplitter, buffer: Buffer = Buffer.allocUnsafe(chunkBytes)): number {
	const fd = openSync(path, 'r');
	try {
		let position = 0;
		for (;;) {
			const bytesRead = readSync(fd, buffer, 0, buffer.length, position);
			if (bytesRead === 0) break;
			const chunk = buffer.subarray(0, bytesRead);
			flattenLineBreaks(chunk);
			splitter.push(chunk);
			position += bytesRead;
		}

		splitter.end();
		return position;
	} finally {
		closeSync(fd);
	}
}
