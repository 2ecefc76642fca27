import {closeSync} from 'node:fs';
import type {LineSplitter} from '../../parse/line-splitter.js';
import {openRegularFileSync, readOpenedSync, type OpenedFile} from '../regular-file.js';

/*
 * A persisted event file holds one event, possibly pretty-printed. JSON allows a raw line break only
 * between tokens (inside strings they must be escaped), so turning every CR and LF into a space keeps
 * it the same event, on one line. The bytes then go through a splitter like any other line, which
 * applies --max-line-bytes without ever holding an oversized file, and reports problems as line 1 of
 * the file's path.
 */

/**
 * The runtime names an event file after its timestamp, step and type, so two events of one type written in the
 * same millisecond share a file: the file can hold one whole JSON value followed by the tail of the other. This
 * passes the whole value on as the event it is and counts what follows it, for the caller to report.
 */
export class EventFileFeed {
	#depth = 0;
	#inString = false;
	#escaped = false;
	#state: 'before' | 'value' | 'after' | 'not an object' = 'before';
	/** Bytes after the first whole value, whitespace aside. */
	leftover = 0;
	readonly #splitter: LineSplitter;

	constructor(splitter: LineSplitter) {
		this.#splitter = splitter;
	}

	push(chunk: Buffer): void {
		flattenLineBreaks(chunk);
		if (this.#state === 'not an object') {
			this.#splitter.push(chunk);
			return;
		}

		if (this.#state === 'after') {
			this.#countLeftover(chunk, 0);
			return;
		}

		const end = this.#valueEnd(chunk);
		if (end === -1) {
			this.#splitter.push(chunk);
			return;
		}

		this.#splitter.push(chunk.subarray(0, end));
		this.#state = 'after';
		this.#countLeftover(chunk, end);
	}

	end(): void {
		this.#splitter.end();
	}

	#countLeftover(chunk: Buffer, from: number): void {
		for (let i = from; i < chunk.length; i++) {
			const byte = chunk[i]!;
			if (byte !== 32 && byte !== 9) this.leftover++;
		}
	}

	/**
	 * Where the first whole value ends in this chunk, or -1. Most of an event's bytes are inside strings (texts,
	 * tool results), so a string longer than `shortString` is crossed by looking for its next quote and backslash
	 * with indexOf, not byte by byte: on the 200 MB of 100,000 event files this takes about half the time of the
	 * byte-by-byte walk (0.6-0.8 s against 1.0-1.6 s, on a loaded 2-core machine). `#escaped` carries a backslash
	 * that ended the previous chunk: the byte the next one starts with is escaped.
	 */
	#valueEnd(chunk: Buffer): number {
		if (chunk.length === 0) return -1;
		let quote = -2;
		let backslash = -2;
		let i = 0;
		if (this.#escaped) {
			this.#escaped = false;
			i = 1;
		}

		while (i < chunk.length) {
			if (this.#inString) {
				// Keys and short values end within a few bytes: looked at one by one, cheaper than a call each.
				const near = Math.min(chunk.length, i + shortString);
				while (i < near) {
					const byte = chunk[i]!;
					if (byte === 34 || byte === 92) break;
					i++;
				}

				if (i < near) {
					if (chunk[i] === 34) {
						this.#inString = false;
						i++;
					} else {
						i += 2;
						if (i > chunk.length) this.#escaped = true;
					}

					continue;
				}

				if (i >= chunk.length) return -1;
				if (quote !== -1 && quote < i) quote = chunk.indexOf(34, i);
				if (backslash !== -1 && backslash < i) backslash = chunk.indexOf(92, i);
				if (backslash !== -1 && (quote === -1 || backslash < quote)) {
					// An escape: the byte after the backslash (a quote, another backslash, `u`…) is not the string's end.
					i = backslash + 2;
					if (i > chunk.length) this.#escaped = true;
					continue;
				}

				if (quote === -1) return -1;
				this.#inString = false;
				i = quote + 1;
				continue;
			}

			const byte = chunk[i]!;
			if (this.#state === 'before') {
				if (byte === 32 || byte === 9 || byte === 0xef || byte === 0xbb || byte === 0xbf) {
					i++;
					continue;
				}

				if (byte !== 123 && byte !== 91) {
					this.#state = 'not an object';
					return -1;
				}

				this.#state = 'value';
			}

			if (byte === 34) {
				this.#inString = true;
			} else if (byte === 123 || byte === 91) {
				this.#depth++;
			} else if ((byte === 125 || byte === 93) && --this.#depth === 0) {
				return i + 1;
			}

			i++;
		}

		return -1;
	}
}

/** How far into a string #valueEnd looks byte by byte before it searches with indexOf. */
const shortString = 16;

/** What is reported for the bytes after an event file's event. */
export function leftoverReason(leftover: number): string {
	return `${leftover} byte${leftover === 1 ? '' : 's'} after the event's JSON were left over and skipped (two events of one type written in the same millisecond share a file name; the first whole event is read)`;
}

export function flattenLineBreaks(bytes: Buffer): void {
	for (const breakByte of [10, 13]) {
		let at = bytes.indexOf(breakByte);
		while (at !== -1) {
			bytes[at] = 32;
			at = bytes.indexOf(breakByte, at + 1);
		}
	}
}

/** Feeds bytes already in memory (they are changed in place); returns the leftover bytes after the event. */
export function feedEventBytes(bytes: Buffer, splitter: LineSplitter): number {
	const feed = new EventFileFeed(splitter);
	feed.push(bytes);
	feed.end();
	return feed.leftover;
}

export type EventFileRead = {bytes: number; leftover: number};

/**
 * Reads an event file in chunks into the splitter, if it is a regular file: anything else throws NotRegularFile
 * without being read (regular-file.ts). At most its size when opened is read.
 */
export function feedEventFileSync(path: string, splitter: LineSplitter, buffer: Buffer, known: 'regular' | 'unknown' = 'unknown'): EventFileRead {
	const file = openRegularFileSync(path, known);
	try {
		return feedOpenedEventFile(file, splitter, buffer);
	} finally {
		closeSync(file.fd);
	}
}

/** Reads an opened event file in chunks into the splitter (the caller closes it). */
export function feedOpenedEventFile(file: OpenedFile, splitter: LineSplitter, buffer: Buffer): EventFileRead {
	const feed = new EventFileFeed(splitter);
	const bytes = readOpenedSync(file, buffer, piece => feed.push(piece));
	feed.end();
	return {bytes, leftover: feed.leftover};
}
