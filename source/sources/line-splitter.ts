import {StringDecoder} from 'node:string_decoder';

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
};

export const defaultMaxLineBytes = 64 * 1024 * 1024;

/**
 * Splits a byte stream into lines.
 *
 * We do not use split2 here although it is in the stack: its `maxLength` counts UTF-16 units of the
 * unterminated remainder rather than bytes, on overflow it either errors the stream or drops the line
 * without telling anyone, and a multi-megabyte line is re-split and re-concatenated on every chunk.
 * Working on Buffers lets us count bytes exactly, skip an overlong line without buffering it, report its
 * line number, and decode UTF-8 once per whole line (so a character cut across chunks is never mangled).
 */
export class LineSplitter {
	readonly #source: string;
	readonly #maxLineBytes: number;
	readonly #sink: LineSink;
	/** Pieces of the line that is not yet terminated; never more than maxLineBytes in total. */
	#pending: Buffer[] = [];
	#pendingBytes = 0;
	/** True while skipping the rest of a line that already went over the limit. */
	#discarding = false;
	#discardedBytes = 0;
	#lineNumber = 0;
	#lineStart = 0;
	#position = 0;
	#atStart = true;
	readonly #decoder = new StringDecoder('utf8');

	constructor(source: string, sink: LineSink, maxLineBytes = defaultMaxLineBytes) {
		this.#source = source;
		this.#sink = sink;
		this.#maxLineBytes = maxLineBytes;
	}

	/** Bytes consumed so far. */
	get position(): number {
		return this.#position;
	}

	push(chunk: Buffer): void {
		let start = 0;
		if (this.#atStart && chunk.length > 0) {
			this.#atStart = false;
			// A UTF-8 byte order mark is not part of the first event.
			if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
				start = 3;
				this.#lineStart = 3;
			}
		}

		const base = this.#position;
		this.#position += chunk.length;
		while (start < chunk.length) {
			const newline = chunk.indexOf(10, start);
			if (newline === -1) {
				// The caller may reuse its buffer, so a piece that outlives this call is copied.
				this.#hold(chunk, start, chunk.length, true);
				return;
			}

			this.#hold(chunk, start, newline, false);
			this.#finishLine(base + newline + 1);
			start = newline + 1;
		}
	}

	/** Flushes a last line that has no newline. */
	end(): void {
		if (this.#pendingBytes > 0 || this.#discarding) this.#finishLine(this.#position);
	}

	#hold(chunk: Buffer, from: number, to: number, copy: boolean): void {
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

		const piece = chunk.subarray(from, to);
		this.#pending.push(copy ? Buffer.from(piece) : piece);
		this.#pendingBytes += length;
	}

	#finishLine(nextLineStart: number): void {
		this.#lineNumber++;
		const offset = this.#lineStart;
		this.#lineStart = nextLineStart;
		if (this.#discarding) {
			this.#discarding = false;
			this.#sink.overlong({source: this.#source, line: this.#lineNumber, offset, bytes: this.#discardedBytes});
			this.#discardedBytes = 0;
			return;
		}

		const pieces = this.#pending;
		const bytes = this.#pendingBytes;
		this.#pending = [];
		this.#pendingBytes = 0;
		if (bytes === 0) return;
		const buffer = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, bytes);
		let end = buffer.length;
		if (buffer[end - 1] === 13) end--;
		if (isBlank(buffer, end)) return;
		// The decoder turns invalid UTF-8 into U+FFFD rather than throwing; the line is then judged as JSON.
		const text = this.#decoder.end(buffer.subarray(0, end));
		this.#sink.line({source: this.#source, line: this.#lineNumber, offset, text});
	}
}

function isBlank(buffer: Buffer, end: number): boolean {
	for (let i = 0; i < end; i++) {
		const byte = buffer[i];
		if (byte !== 32 && byte !== 9 && byte !== 13) return false;
	}

	return true;
}
