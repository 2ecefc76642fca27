import {JsonDocumentLines} from './json-document-lines.js';

/** One line of input, with where it came from so the raw event can be found again later. */
export type Line = {
	source: string;
	/** 1-based line number within its source. */
	line: number;
	/** Byte offset of the line's first byte within its source. */
	offset: number;
	text: string;
};

/** A line that was longer than the limit: its bytes were skipped, never held. */
export type OverlongLine = {
	source: string;
	line: number;
	offset: number;
	bytes: number;
};

export type LineSink = {
	line(line: Line): void;
	overlong(line: OverlongLine): void;
	/** The source has ended, its last line handed on (LineSplitter.end). */
	end?(): void;
};

/** A sink that takes each line as its bytes, `bytes[start, end)`, valid only during the call. */
export type LineBytesSink = {
	lineBytes(bytes: Buffer, start: number, end: number, ref: {source: string; line: number; offset: number}): void;
	overlong(line: OverlongLine): void;
	/** The source has ended, its last line handed on (LineSplitter.end). */
	end?(): void;
};

export const defaultMaxLineBytes = 64 * 1024 * 1024;

/** Where lines carry on from: the offset and number (0-based count) of the next line. */
export type LinePosition = {offset: number; lines: number};

const newline = 0x0a;
const carriageReturn = 0x0d;

/**
 * Splits a byte stream into lines, from a given position in its source, handing on each line's bytes.
 *
 * We do not use split2 here although it is in the stack: its `maxLength` counts UTF-16 units of the
 * unterminated remainder rather than bytes, on overflow it either errors the stream or drops the line
 * without telling anyone, and a multi-megabyte line is re-split and re-concatenated on every chunk.
 * Working on Buffers lets us count bytes exactly, skip an overlong line without buffering it, report its
 * line number, and leave decoding to the whole line (so a character cut across chunks is never mangled, and
 * the fast path can cut histories out of a line before anything is decoded).
 *
 * A line is handed on without its newline or a carriage return before it; blank lines (spaces, tabs) are
 * counted but not handed on; a UTF-8 byte order mark at the start of a line is skipped (it counts towards the
 * line's length for `maxLineBytes`, as any byte of it does).
 */
export class LineCutter {
	readonly #maxLineBytes: number;
	readonly #line: (bytes: Buffer, start: number, end: number, line: number, offset: number) => void;
	readonly #overlong: (overlong: OverlongLine) => void;
	readonly #source: string;
	#pending: Buffer[] = [];
	#pendingBytes = 0;
	#discarding = false;
	#discardedBytes = 0;
	#lines: number;
	#lineStart: number;
	#position: number;

	constructor(options: {
		source: string;
		from: LinePosition;
		maxLineBytes: number;
		line: (bytes: Buffer, start: number, end: number, line: number, offset: number) => void;
		overlong: (overlong: OverlongLine) => void;
	}) {
		this.#source = options.source;
		this.#maxLineBytes = options.maxLineBytes;
		this.#line = options.line;
		this.#overlong = options.overlong;
		this.#lines = options.from.lines;
		this.#lineStart = options.from.offset;
		this.#position = options.from.offset;
	}

	/** Bytes of the source consumed so far. */
	get position(): number {
		return this.#position;
	}

	/** The position after the last line handed on. */
	get next(): LinePosition {
		return {offset: this.#lineStart, lines: this.#lines};
	}

	push(chunk: Buffer): void {
		this.#cut(chunk);
	}

	/** Flushes a last line that has no newline. */
	end(): void {
		if (this.#pendingBytes > 0 || this.#discarding) this.#finishHeld(this.#position);
	}

	/** Cuts `chunk` into lines; it follows the bytes already consumed. */
	#cut(chunk: Buffer): void {
		const base = this.#position;
		this.#position += chunk.length;
		let from = 0;
		while (from < chunk.length) {
			const at = chunk.indexOf(newline, from);
			if (at === -1) {
				this.#hold(chunk, from, chunk.length);
				return;
			}

			if (this.#pendingBytes === 0 && !this.#discarding) this.#finish(chunk, from, at, base + at + 1);
			else {
				this.#hold(chunk, from, at);
				this.#finishHeld(base + at + 1);
			}

			from = at + 1;
		}
	}

	#hold(chunk: Buffer, from: number, to: number): void {
		const length = to - from;
		if (length === 0) return;
		if (this.#discarding) {
			this.#discardedBytes += length;
			return;
		}

		if (this.#pendingBytes + length > this.#maxLineBytes) {
			this.#discarding = true;
			this.#discardedBytes = this.#pendingBytes + length;
			this.#pending = [];
			this.#pendingBytes = 0;
			return;
		}

		this.#pending.push(Buffer.from(chunk.subarray(from, to)));
		this.#pendingBytes += length;
	}

	#finishHeld(nextLineStart: number): void {
		if (this.#discarding) {
			const offset = this.#lineStart;
			this.#lines++;
			this.#lineStart = nextLineStart;
			this.#discarding = false;
			this.#overlong({source: this.#source, line: this.#lines, offset, bytes: this.#discardedBytes});
			this.#discardedBytes = 0;
			return;
		}

		const bytes = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending, this.#pendingBytes);
		this.#pending = [];
		this.#pendingBytes = 0;
		this.#finish(bytes, 0, bytes.length, nextLineStart);
	}

	/** A whole line `bytes[start, end)`, without its newline. */
	#finish(bytes: Buffer, start: number, end: number, nextLineStart: number): void {
		this.#lines++;
		const offset = this.#lineStart;
		this.#lineStart = nextLineStart;
		const length = end - start;
		if (length > this.#maxLineBytes) {
			this.#overlong({source: this.#source, line: this.#lines, offset, bytes: length});
			return;
		}

		let last = end;
		if (last > start && bytes[last - 1] === carriageReturn) last--;
		// A UTF-8 byte order mark is no part of the event after it, at the start of the source or of any line:
		// two logs that each begin with one, written one after the other, read as they read apart. The line
		// then begins after it, where the inspector reads it again.
		let first = start;
		if (last - first >= 3 && bytes[first] === 0xef && bytes[first + 1] === 0xbb && bytes[first + 2] === 0xbf) first += 3;
		if (isBlank(bytes, first, last)) return;
		this.#line(bytes, first, last, this.#lines, offset + first - start);
	}
}

function isBlank(bytes: Buffer, start: number, end: number): boolean {
	for (let i = start; i < end; i++) {
		const byte = bytes[i];
		if (byte !== 0x20 && byte !== 0x09 && byte !== carriageReturn) return false;
	}

	return true;
}

/** Splits a byte stream into lines, of text or of bytes as the sink takes them, from its start (see LineCutter). */
export class LineSplitter {
	readonly #cutter: LineCutter;
	/** A stream that is a JSON document of events gives its events as lines (json-document-lines.ts). */
	readonly #lines: JsonDocumentLines | undefined;
	readonly #sink: LineSink | LineBytesSink;
	#consumed = 0;

	/** `jsonDocuments: false`: lines only, for text that is not events (a command's stderr). */
	constructor(source: string, sink: LineSink | LineBytesSink, maxLineBytes = defaultMaxLineBytes, {jsonDocuments = true}: {jsonDocuments?: boolean} = {}) {
		this.#cutter = new LineCutter({
			source,
			from: {offset: 0, lines: 0},
			maxLineBytes,
			line:
				'lineBytes' in sink
					? (bytes, start, end, line, offset) => sink.lineBytes(bytes, start, end, {source, line, offset})
					: // Invalid UTF-8 becomes U+FFFD rather than throwing; the line is then judged as JSON.
						(bytes, start, end, line, offset) => sink.line({source, line, offset, text: bytes.toString('utf8', start, end)}),
			overlong: line => sink.overlong(line),
		});
		this.#lines = jsonDocuments ? new JsonDocumentLines(bytes => this.#cutter.push(bytes)) : undefined;
		this.#sink = sink;
	}

	/** Bytes of the source consumed so far. */
	get position(): number {
		return this.#consumed;
	}

	push(chunk: Buffer): void {
		this.#consumed += chunk.length;
		if (this.#lines) this.#lines.push(chunk);
		else this.#cutter.push(chunk);
	}

	/** Flushes a last line that has no newline, then tells the sink the source has ended. */
	end(): void {
		this.#lines?.end();
		this.#cutter.end();
		this.#sink.end?.();
	}
}
