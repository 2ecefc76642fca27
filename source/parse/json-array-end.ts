import {sameBytesAt} from './same-bytes.js';

/*
 * Where a JSON array in a line's bytes ends, and whether it is valid JSON, in one pass over its bytes and with
 * nothing made: the history cutter (prune-line.ts) checks each history array it cuts out, and a history's new
 * messages are most of the bytes it checks. Decoding them and handing them to JSON.parse, which builds every
 * message's objects and strings only for the collector, cost more than the rest of cutting a line.
 *
 * The answer is JSON.parse's on the decoded bytes. Its grammar (RFC 8259) is checked on the bytes as they are:
 * every byte it names is ASCII, and decoding (with U+FFFD for invalid UTF-8) gives each ASCII byte as itself
 * and turns any other byte into characters that JSON allows inside a string and nowhere else, so a byte of
 * 0x80 or more is accepted in a string only.
 */

const tab = 0x09;
const lineFeed = 0x0a;
const carriageReturn = 0x0d;
const space = 0x20;
const quote = 0x22;
const plus = 0x2b;
const comma = 0x2c;
const minus = 0x2d;
const dot = 0x2e;
const zero = 0x30;
const nine = 0x39;
const colon = 0x3a;
const openBracket = 0x5b;
const backslash = 0x5c;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;

const trueBytes = Buffer.from('true');
const falseBytes = Buffer.from('false');
const nullBytes = Buffer.from('null');

/** Whether each byte may follow a backslash in a string, `u` aside (its four hex digits are checked apart). */
const simpleEscapes = new Uint8Array(256);
for (const byte of Buffer.from('"\\/bfnrt')) simpleEscapes[byte] = 1;

/** In `JsonArrayEnd`'s stack of open containers: an array or an object. */
const inArray = 0;
const inObject = 1;

/** Finds array ends; keeps the stack of open containers from one array to the next. */
export class JsonArrayEnd {
	#open = new Uint8Array(64);

	/**
	 * Index just past the `]` that closes an array whose `[` is just before `from`, when `bytes[from - 1, that)`
	 * is valid JSON and, unless `allowEmpty`, has an element; -1 otherwise, and when `end` comes first.
	 */
	after(bytes: Buffer, from: number, end: number, allowEmpty: boolean): number {
		let open = this.#open;
		let depth = 1;
		open[0] = inArray;
		let i = skipWhitespace(bytes, from, end);
		if (i >= end) return -1;
		if (bytes[i] === closeBracket) return allowEmpty ? i + 1 : -1;
		// Where a value, or a key and its value, must come; `afterOpen`: one may instead close the container.
		let afterOpen = false;
		for (;;) {
			i = skipWhitespace(bytes, i, end);
			if (i >= end) return -1;
			let byte = bytes[i]!;
			const container = open[depth - 1];
			if (afterOpen && byte === (container === inObject ? closeBrace : closeBracket)) {
				i++;
				depth--;
			} else {
				if (container === inObject) {
					if (byte !== quote) return -1;
					i = stringEnd(bytes, i + 1, end);
					if (i === -1) return -1;
					i = skipWhitespace(bytes, i, end);
					if (i >= end || bytes[i] !== colon) return -1;
					i = skipWhitespace(bytes, i + 1, end);
					if (i >= end) return -1;
					byte = bytes[i]!;
				}

				if (byte === openBracket || byte === openBrace) {
					if (depth === open.length) {
						const larger = new Uint8Array(2 * open.length);
						larger.set(open);
						this.#open = open = larger;
					}

					open[depth++] = byte === openBrace ? inObject : inArray;
					i++;
					afterOpen = true;
					continue;
				}

				i = scalarEnd(bytes, i, end, byte);
				if (i === -1) return -1;
			}

			// After a value: a comma and the next, or the close of its container (and maybe of those around it).
			for (;;) {
				if (depth === 0) return i;
				i = skipWhitespace(bytes, i, end);
				if (i >= end) return -1;
				byte = bytes[i]!;
				if (byte === comma) {
					i++;
					afterOpen = false;
					break;
				}

				if (byte !== (open[depth - 1] === inObject ? closeBrace : closeBracket)) return -1;
				i++;
				depth--;
			}
		}
	}
}

function skipWhitespace(bytes: Buffer, from: number, end: number): number {
	let i = from;
	while (i < end) {
		const byte = bytes[i];
		if (byte !== space && byte !== lineFeed && byte !== carriageReturn && byte !== tab) break;
		i++;
	}

	return i;
}

/** Index just past the string, number or literal starting with `byte` at `at`; -1 if it is none. */
function scalarEnd(bytes: Buffer, at: number, end: number, byte: number): number {
	if (byte === quote) return stringEnd(bytes, at + 1, end);
	if (byte === minus || (byte >= zero && byte <= nine)) return numberEnd(bytes, at, end);
	if (byte === trueBytes[0]) return literalEnd(bytes, at, end, trueBytes);
	if (byte === falseBytes[0]) return literalEnd(bytes, at, end, falseBytes);
	if (byte === nullBytes[0]) return literalEnd(bytes, at, end, nullBytes);
	return -1;
}

/** Index just past the closing quote of a string whose content starts at `from`; -1 if it is not valid. */
function stringEnd(bytes: Buffer, from: number, end: number): number {
	let i = from;
	while (i < end) {
		const byte = bytes[i]!;
		if (byte === quote) return i + 1;
		if (byte < space) return -1;
		if (byte !== backslash) {
			i++;
			continue;
		}

		if (i + 1 >= end) return -1;
		const escaped = bytes[i + 1]!;
		if (escaped === 0x75) {
			if (i + 6 > end) return -1;
			for (let digit = i + 2; digit < i + 6; digit++) if (!isHexDigit(bytes[digit]!)) return -1;
			i += 6;
		} else if (simpleEscapes[escaped] === 1) i += 2;
		else return -1;
	}

	return -1;
}

/** Index just past a number (`-`? int frac? exp?) starting at `at`; -1 if it is not one. */
function numberEnd(bytes: Buffer, at: number, end: number): number {
	let i = at;
	if (bytes[i] === minus) i++;
	if (i >= end) return -1;
	if (bytes[i] === zero) i++;
	else {
		const first = i;
		i = digitsEnd(bytes, i, end);
		if (i === first) return -1;
	}

	if (i < end && bytes[i] === dot) {
		const first = i + 1;
		i = digitsEnd(bytes, first, end);
		if (i === first) return -1;
	}

	if (i < end && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
		i++;
		if (i < end && (bytes[i] === plus || bytes[i] === minus)) i++;
		const first = i;
		i = digitsEnd(bytes, first, end);
		if (i === first) return -1;
	}

	return i;
}

function digitsEnd(bytes: Buffer, from: number, end: number): number {
	let i = from;
	while (i < end) {
		const byte = bytes[i]!;
		if (byte < zero || byte > nine) break;
		i++;
	}

	return i;
}

function literalEnd(bytes: Buffer, at: number, end: number, literal: Buffer): number {
	return at + literal.length <= end && sameBytesAt(bytes, at, literal) ? at + literal.length : -1;
}

function isHexDigit(byte: number): boolean {
	return (byte >= zero && byte <= nine) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}
