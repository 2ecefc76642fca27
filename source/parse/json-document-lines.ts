/*
 * JSON documents of events, read as lines of events. Some runners write a run's events as JSON documents rather
 * than as lines:
 *
 * - an array: claude-code-action keeps the messages of Claude Code's stream as one pretty-printed array (its
 *   execution file, `claude-execution-output.json`). A stream whose first byte other than a blank or a byte order
 *   mark is `[`, followed (past blanks) by `{` or `]`, is read as such an array: each element becomes one line, and
 *   what lies between the elements (commas, blanks) goes;
 * - pretty-printed objects: Gemini CLI's `--output-format json` prints one object over many lines (`jq .` prints
 *   events so too). An object whose `{` ends its line and whose next line goes on with a key (`"`) or its end
 *   (`}`) is read to its closing brace, as one line; a `{` alone before a line of events (a log cut short) is a
 *   line of its own.
 *
 * In either, an element's line breaks, which in JSON can only be blanks between tokens, become spaces. After an
 * array's closing bracket or an object's closing brace the stream is looked at afresh, so documents one after the
 * other (`cat a.json b.json`) read one after the other. Any other stream passes through untouched: one whose first
 * line only starts with a bracket (`[dotenv@17.2.0] injecting env`, a log line a command prints before its events)
 * or whose first object goes on after its `{` on the same line (a line of events) is lines.
 *
 * Nothing is held but the blanks after an opening bracket or brace (64 KB at most: past that it is lines): an
 * element's bytes are handed on as they come, so a huge element is cut short by the line splitter's bound as a huge
 * line is. Nothing is judged here either: an element that is not an event, or a document cut short, is a line the
 * parser reports as it would any bad line.
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
const tab = 0x09;

/** Blanks, and the bytes of a byte order mark, which may come before the first byte that decides. */
function isLeading(byte: number): boolean {
	return isBlank(byte) || byte === 0xef || byte === 0xbb || byte === 0xbf;
}

/** Blanks after a `[` or a `{` looked past for what makes it a document. */
const maxHeldBytes = 64 * 1024;

function isBlank(byte: number): boolean {
	return byte === space || byte === tab || byte === newline || byte === carriageReturn;
}

type Mode =
	/** Nothing but blanks so far (or since a document ended). */
	| 'undecided'
	/** A `[`, and blanks since (`#held`): an array if `{` or `]` comes next. */
	| 'bracket'
	/** A `{`, and blanks since (`#held`): a pretty-printed object if a line break, then blanks, then `"` or `}` come. */
	| 'brace'
	/** Lines of events: everything passes through. */
	| 'lines'
	/** Inside an array, between its elements. */
	| 'between'
	/** Inside an element of an array, or a pretty-printed object. */
	| 'element';

export class JsonDocumentLines {
	readonly #push: (bytes: Buffer) => void;
	#mode: Mode = 'undecided';
	/** Whether the element is an array's (else a pretty-printed object standing alone). */
	#inArray = false;
	/** Brackets and braces open within the current element. */
	#depth = 0;
	#inString = false;
	#escaped = false;
	/** In 'bracket' and 'brace': that byte and the blanks after it, given on as they are should the stream be lines. */
	#held: number[] = [];
	/** In 'brace': whether a line break came after it. */
	#braceBroken = false;
	#began: 'lines' | 'document' | undefined;

	/** `push`: where the lines go (a line splitter's own push). */
	constructor(push: (bytes: Buffer) => void) {
		this.#push = push;
	}

	/** What the stream began as, once its first bytes decided it: lines, or a JSON document. */
	get began(): 'lines' | 'document' | undefined {
		return this.#began;
	}

	push(chunk: Buffer): void {
		if (this.#mode === 'lines') {
			this.#push(chunk);
			return;
		}

		// Leading blanks, elements' bytes (their line breaks as spaces) and a line break after each element: at most
		// the chunk, what was held before it (a brace and its blanks) and a line break per element ended in it, which
		// is at most one per byte.
		const out = Buffer.allocUnsafe(chunk.length * 2 + this.#held.length);
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

					if (byte === openBracket || byte === openBrace) {
						this.#mode = byte === openBracket ? 'bracket' : 'brace';
						this.#braceBroken = false;
						this.#held.push(byte);
						continue;
					}

					this.#lines(out, written, chunk, at);
					return;
				}

				case 'bracket':
				case 'brace': {
					const decided = this.#opened(byte);
					if (decided === 'wait') {
						this.#held.push(byte);
						continue;
					}

					if (decided === 'lines') {
						this.#lines(out, written, chunk, at);
						return;
					}

					this.#began ??= 'document';
					if (decided === 'array') {
						this.#held = [];
						this.#mode = 'between';
						at--;
						continue;
					}

					// A pretty-printed object: its brace and blanks so far are its first bytes.
					this.#inArray = false;
					this.#startElement();
					for (const held of this.#held) written = this.#element(held, out, written);
					this.#held = [];
					written = this.#element(byte, out, written);
					continue;
				}

				case 'between': {
					if (isBlank(byte) || byte === comma) continue;
					if (byte === closeBracket) {
						this.#mode = 'undecided';
						continue;
					}

					this.#inArray = true;
					this.#startElement();
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

	/** The stream ended: an element cut short ends its line there; a `[` or `{` with nothing after it is a line. */
	end(): void {
		if (this.#mode === 'element') this.#push(Buffer.from([newline]));
		if (this.#mode === 'bracket' || this.#mode === 'brace') this.#push(Buffer.from(this.#held));
		this.#held = [];
		this.#mode = 'undecided';
	}

	/** What the byte after a held `[` or `{` (and blanks) makes of it, or `wait` for another. */
	#opened(byte: number): 'wait' | 'lines' | 'array' | 'object' {
		if (this.#mode === 'bracket') {
			if (isBlank(byte)) return this.#held.length >= maxHeldBytes ? 'lines' : 'wait';
			return byte === openBrace || byte === closeBracket ? 'array' : 'lines';
		}

		if (isBlank(byte)) {
			if (byte === newline) this.#braceBroken = true;
			return this.#held.length >= maxHeldBytes ? 'lines' : 'wait';
		}

		return this.#braceBroken && (byte === quote || byte === closeBrace) ? 'object' : 'lines';
	}

	/** Lines after all, from `chunk[at]` on: what was written, what was held, and the rest go on as they are. */
	#lines(out: Buffer, written: number, chunk: Buffer, at: number): void {
		this.#mode = 'lines';
		this.#began ??= 'lines';
		if (written > 0) this.#push(out.subarray(0, written));
		if (this.#held.length > 0) this.#push(Buffer.from(this.#held));
		this.#held = [];
		this.#push(chunk.subarray(at));
	}

	#startElement(): void {
		this.#mode = 'element';
		this.#depth = 0;
		this.#inString = false;
		this.#escaped = false;
	}

	/** The element has ended: its line with it; then the array goes on, or the stream is looked at afresh. */
	#endElement(out: Buffer, written: number): number {
		out[written] = newline;
		this.#mode = this.#inArray ? 'between' : 'undecided';
		return written + 1;
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
					if (byte === closeBracket && this.#inArray) {
						out[written++] = newline;
						this.#mode = 'undecided';
						return written;
					}

					break;
				}

				this.#depth--;
				if (this.#depth === 0) {
					out[written++] = byte;
					return this.#endElement(out, written);
				}

				break;
			case comma:
				if (this.#depth === 0 && this.#inArray) return this.#endElement(out, written);
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
