/*
 * A JSON array of events, read as lines of events. Some runners keep a run's events as one JSON document rather
 * than as lines: claude-code-action writes the messages of Claude Code's stream as a pretty-printed array (its
 * execution file, `claude-execution-output.json`). A stream whose first byte other than a blank or a byte order
 * mark is `[`, followed (past blanks) by `{` or `]`, is read as such an array: each element becomes one line (its
 * line breaks, which in JSON can only be blanks between tokens, become spaces), and what lies between the elements
 * (commas, blanks) goes. After the array's closing bracket the stream is looked at afresh, so two arrays one
 * after the other (`cat a.json b.json`) read as their elements one after the other. Any other stream passes
 * through untouched: one whose first line only starts with a bracket (`[dotenv@17.2.0] injecting env`, a log
 * line a command prints before its events) is lines.
 *
 * Nothing is held but the blanks after an opening bracket (64 KB at most: past that it is lines): an element's
 * bytes are handed on as they come, so a huge element is cut short by the line splitter's bound as a huge line is. Nothing is judged here either: an element that is not an event, or an array
 * cut short, is a line the parser reports as it would any bad line.
 */

import {assertNever} from '../model/assert-never.js';

const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const comma = 0x2c;
const quote = 0x22;
const backslash = 0x5c;
const newline = 0x0a;
const carriageReturn = 0x0d;
const space = 0x20;

/** Blanks, and the bytes of a byte order mark, which may come before the first byte that decides. */
function isLeading(byte: number): boolean {
	return byte === space || byte === 0x09 || byte === newline || byte === carriageReturn || byte === 0xef || byte === 0xbb || byte === 0xbf;
}

/** Blanks after a `[` looked past for the `{` that makes it an array of events. */
const maxHeldBytes = 64 * 1024;

function isBlank(byte: number): boolean {
	return byte === space || byte === 0x09 || byte === newline || byte === carriageReturn;
}

type Mode =
	/** Nothing but blanks so far (or since an array closed). */
	| 'undecided'
	/** A `[`, and blanks since (`#held`): an array if `{` or `]` comes next. */
	| 'opened'
	/** Lines of events: everything passes through. */
	| 'lines'
	/** Inside an array, between its elements. */
	| 'between'
	/** Inside an array's element. */
	| 'element';

export class JsonArrayLines {
	readonly #push: (bytes: Buffer) => void;
	#mode: Mode = 'undecided';
	/** Brackets and braces open within the current element. */
	#depth = 0;
	#inString = false;
	#escaped = false;
	/** In 'opened': the `[` and the blanks after it, given on as they are should the stream be lines after all. */
	#held: number[] = [];

	/** `push`: where the lines go (a line splitter's own push). */
	constructor(push: (bytes: Buffer) => void) {
		this.#push = push;
	}

	push(chunk: Buffer): void {
		if (this.#mode === 'lines') {
			this.#push(chunk);
			return;
		}

		// Leading blanks, elements' bytes (their line breaks as spaces) and a line break after each element: at
		// most the chunk and a line break per element ended in it, which is at most one per byte.
		const out = Buffer.allocUnsafe(chunk.length * 2);
		let written = 0;
		for (let at = 0; at < chunk.length; at++) {
			const byte = chunk[at]!;
			switch (this.#mode) {
				case 'undecided': {
					// Blanks go on as they are: in a stream of lines, its lines keep their numbers and offsets.
					if (isLeading(byte)) {
						out[written++] = byte;
						continue;
					}

					if (byte !== openBracket) {
						this.#lines(out, written, chunk, at);
						return;
					}

					this.#mode = 'opened';
					this.#held.push(byte);
					continue;
				}

				case 'opened': {
					if (isBlank(byte)) {
						// A bracket followed by nothing but blanks for this long is no array of events.
						if (this.#held.length >= maxHeldBytes) {
							this.#lines(out, written, chunk, at);
							return;
						}

						this.#held.push(byte);
						continue;
					}

					if (byte !== openBrace && byte !== closeBracket) {
						this.#lines(out, written, chunk, at);
						return;
					}

					this.#held = [];
					this.#mode = 'between';
					at--;
					continue;
				}

				case 'between': {
					if (isBlank(byte) || byte === comma) continue;
					if (byte === closeBracket) {
						this.#mode = 'undecided';
						continue;
					}

					this.#mode = 'element';
					this.#depth = 0;
					this.#inString = false;
					this.#escaped = false;
					written = this.#element(byte, out, written);
					continue;
				}

				case 'element':
					written = this.#element(byte, out, written);
					continue;
				default:
					// 'lines' is decided once, and the rest of the chunk goes on whole there.
					assertNever(this.#mode);
			}
		}

		if (written > 0) this.#push(out.subarray(0, written));
	}

	/** The stream ended: an element cut short ends its line there; a `[` with nothing after it is a line. */
	end(): void {
		if (this.#mode === 'element') this.#push(Buffer.from([newline]));
		if (this.#mode === 'opened') this.#push(Buffer.from(this.#held));
		this.#held = [];
		this.#mode = 'undecided';
	}

	/** Lines after all, from `chunk[at]` on: what was written, what was held, and the rest go on as they are. */
	#lines(out: Buffer, written: number, chunk: Buffer, at: number): void {
		this.#mode = 'lines';
		if (written > 0) this.#push(out.subarray(0, written));
		if (this.#held.length > 0) this.#push(Buffer.from(this.#held));
		this.#held = [];
		this.#push(chunk.subarray(at));
	}

	/** One byte of an element: written to `out` at `written`, with the line's end when it ends the element; how much is written. */
	#element(byte: number, out: Buffer, written: number): number {
		if (this.#inString) {
			if (this.#escaped) this.#escaped = false;
			else if (byte === backslash) this.#escaped = true;
			else if (byte === quote) this.#inString = false;
			out[written++] = byte === newline || byte === carriageReturn ? space : byte;
			return written;
		}

		switch (byte) {
			case quote:
				this.#inString = true;
				break;
			case openBrace:
			case openBracket:
				this.#depth++;
				break;
			case closeBrace:
			case closeBracket:
				if (this.#depth === 0) {
					// The array's own bracket, right after an element that is not an object or an array.
					if (byte === closeBracket) {
						out[written++] = newline;
						this.#mode = 'undecided';
						return written;
					}

					break;
				}

				this.#depth--;
				if (this.#depth === 0) {
					out[written++] = byte;
					out[written++] = newline;
					this.#mode = 'between';
					return written;
				}

				break;
			case comma:
				if (this.#depth === 0) {
					out[written++] = newline;
					this.#mode = 'between';
					return written;
				}

				break;
			case newline:
			case carriageReturn:
				out[written++] = space;
				return written;
			default:
				break;
		}

		out[written++] = byte;
		return written;
	}
}
