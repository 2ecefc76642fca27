import {JsonArrayEnd} from './json-array-end.js';
import {sameBytesAt} from './same-bytes.js';

/*
 * Cuts message histories out of a raw Perstack event line before it is parsed.
 *
 * Every checkpoint, `startGeneration` and step record repeats the run's whole message history, so in a
 * long job nearly all bytes of the log are histories that no schema reads. Parsing them is most of the cost
 * of loading such a log. This replaces each history array with `[]`, on the raw bytes, so JSON.parse never
 * sees it. The result must be exactly what parsing the whole line would give:
 *
 * - Only event types whose schemas never read these keys and never keep an `unknown` value in what they
 *   return are touched (so `callTools`, whose tool-call `args` are kept, never is), and of `startRun` only
 *   `messages`, since its `inputMessages` hold the query. The caller checks that the parsed event really is of
 *   the type the line starts with (a later duplicate `"type"` key would win in JSON.parse).
 * - A key is recognised as `"messages":[` whose opening quote is not escaped. In valid JSON such a quote opens
 *   a string, and a string followed by `:` is a key; in invalid JSON the line fails the same way before the
 *   array, so nothing can be hidden by cutting after it.
 * - A cut array must itself be valid JSON, or the line is not pruned: replacing a valid value by another
 *   valid value changes neither whether the line parses nor what else it holds, and an array is
 *   self-delimiting. Validating is done without parsing each history again: histories grow by appending, so
 *   an array that starts with the bytes of one validated before (up to its closing bracket) needs only its new
 *   elements checked, and an identical one (`checkpoint` and `nextCheckpoint`, the next `startGeneration`)
 *   needs nothing. What is checked is checked on the bytes, by JSON's grammar (json-array-end.ts), which
 *   finds the array's end in the same pass: nothing is decoded or built for it.
 *
 * Cuts are made right after `[` and right before `]`, both ASCII, so the kept bytes put together decode to the
 * text the whole line decodes to, less the histories, whatever the bytes in between.
 */

const quote = 0x22;
const backslash = 0x5c;
const closeBracket = 0x5d;
const comma = 0x2c;

/** Lines shorter than this are parsed whole: there is little to cut, and looking costs more than it saves. */
export const minPrunedLineBytes = 2048;

/** Arrays shorter than this are left in: validating them costs as much as parsing them. */
const minCutBytes = 512;

/** Remembered validated arrays: enough for the runs of a few jobs streaming side by side. */
const maxRemembered = 24;
const maxRememberedBytes = 16 * 1024 * 1024;

type KeySet = {messages: boolean; inputMessages: boolean; newMessages: boolean};

const everyHistory: KeySet = {messages: true, inputMessages: true, newMessages: true};

/** What may be cut, by the event type the line starts with. Types not listed are never touched. */
const prunable: ReadonlyMap<string, KeySet> = new Map([
	['startGeneration', everyHistory],
	['continueToNextStep', everyHistory],
	['stopRunByInteractiveTool', everyHistory],
	['stopRunByDelegate', everyHistory],
	['stopRunByExceededMaxSteps', everyHistory],
	['stopRunByError', everyHistory],
	['completeRun', everyHistory],
	['finishToolCall', everyHistory],
	['finishAllToolCalls', everyHistory],
	['resumeToolCalls', everyHistory],
	['retry', everyHistory],
	['startRun', {messages: true, inputMessages: false, newMessages: false}],
]);

/** The event types whose lines may be cut (a test checks that their schemas declare none of the keys cut). */
export const prunedTypes: ReadonlySet<string> = new Set(prunable.keys());

const linePrefix = Buffer.from('{"type":"');
const openBracketByte = Buffer.from('[');
/** Common to the three keys: found in one pass, then told apart by what precedes it. */
const keyTail = Buffer.from('essages":[');
const messagesHead = Buffer.from('"m');
const newMessagesHead = Buffer.from('"newM');
const inputMessagesHead = Buffer.from('"inputM');

export type PrunedLine = {
	/** The line with histories replaced by `[]`, decoded. */
	text: string;
	/** The type the line starts with: the parsed event must be of this type, or the line must be parsed whole. */
	type: string;
};

export class HistoryPruner {
	/** Arrays known to be valid JSON, without their closing bracket; most recently used first. */
	#validated: Known[] = [];
	/** The bytes held for them (with room to grow). */
	#validatedBytes = 0;
	/** Where the line being pruned is kept (pairs of offsets), and the buffer its kept bytes are put together in. */
	readonly #kept: number[] = [];
	#scratch: Buffer = Buffer.alloc(0);
	readonly #arrayEnd = new JsonArrayEnd();

	/**
	 * The line `bytes[start, end)` with its histories cut, or undefined when it has none to cut or anything
	 * about it is not as expected (then it is to be parsed whole, as if this did not exist).
	 */
	prune(bytes: Buffer, start: number, end: number): PrunedLine | undefined {
		if (end - start < minPrunedLineBytes) return undefined;
		const type = lineType(bytes, start, end);
		if (type === undefined) return undefined;
		const keys = prunable.get(type);
		if (!keys) return undefined;

		// The kept pieces, as [from, to) pairs of `bytes`, copied together once the line is done.
		const kept = this.#kept;
		kept.length = 0;
		let from = start;
		// Searched up to the line's end only: past its last key, a search of the whole buffer would run on
		// through the lines after it.
		const line = bytes.subarray(0, end);
		let at = line.indexOf(keyTail, start + linePrefix.length);
		while (at !== -1) {
			const open = at + keyTail.length - 1;
			const keyStart = keyStartBefore(bytes, at, start, keys);
			if (keyStart === undefined || isEscaped(bytes, keyStart, start)) {
				at = line.indexOf(keyTail, open + 1);
				continue;
			}

			const close = this.#validArrayEnd(bytes, open, end);
			if (close === -1) return undefined;
			if (close - open >= minCutBytes) {
				kept.push(from, open + 1);
				from = close - 1;
			}

			at = line.indexOf(keyTail, close);
		}

		if (kept.length === 0) return undefined;
		kept.push(from, end);
		return {text: this.#joined(bytes, kept), type};
	}

	/**
	 * The pieces' bytes decoded as one string. Decoding each piece and joining them made a string per piece, a
	 * rope of them, and (in JSON.parse) a flat copy of that; the pieces are copied into a buffer kept for the
	 * purpose instead and decoded once.
	 */
	#joined(bytes: Buffer, kept: readonly number[]): string {
		let length = 0;
		for (let i = 0; i < kept.length; i += 2) length += kept[i + 1]! - kept[i]!;
		// At least `firstScratchBytes` from the first line on: a buffer grown later, once the function is optimised,
		// took a path the optimised code had no feedback for (V8 gathers none for a function's first calls), which
		// threw that code away to compile it again.
		if (this.#scratch.length < length) {
			this.#scratch = Buffer.allocUnsafe(length <= maxScratchBytes ? Math.max(length, 2 * this.#scratch.length, firstScratchBytes) : length);
		}
		const scratch = this.#scratch;
		let at = 0;
		for (let i = 0; i < kept.length; i += 2) at += bytes.copy(scratch, at, kept[i]!, kept[i + 1]!);
		const text = scratch.toString('utf8', 0, length);
		if (scratch.length > maxScratchBytes) this.#scratch = emptyBytes;
		return text;
	}

	/** Index just past the closing bracket of the valid array opening at `open`, or -1. */
	#validArrayEnd(bytes: Buffer, open: number, end: number): number {
		const remembered = this.#validated;
		for (let i = 0; i < remembered.length; i++) {
			const known = remembered[i]!;
			const length = known.length;
			if (open + length >= end || !sameTail(bytes, open, known)) continue;
			if (bytes.compare(known.bytes, 0, length, open, open + length) !== 0) continue;
			const next = bytes[open + length];
			if (next === closeBracket) {
				this.#touch(i);
				return open + length + 1;
			}

			if (next !== comma) continue;
			// The known elements, a comma, then new elements: `[known,new]` is valid iff `[new]` is and is not empty.
			const close = this.#arrayEnd.after(bytes, open + length + 1, end, false);
			if (close === -1) return -1;
			this.#extend(i, bytes, open + length, close - 1);
			// The new elements often come again on their own, as the step's `newMessages`.
			if (close - (open + length + 1) >= minCutBytes) this.#remember(openBracketByte, bytes, open + length + 1, close - 1);
			return close;
		}

		const close = this.#arrayEnd.after(bytes, open + 1, end, true);
		if (close === -1) return -1;
		if (close - open >= minCutBytes && hasElement(bytes, open + 1, close)) this.#remember(emptyBytes, bytes, open, close - 1);
		return close;
	}

	#touch(index: number): void {
		if (index === 0) return;
		const [known] = this.#validated.splice(index, 1);
		if (known) this.#validated.unshift(known);
	}

	/**
	 * Appends `bytes[from, to)` (a comma and new elements) to a remembered array and makes it the most recent.
	 * Histories grow by a few messages a step: copying only those, into room left at the end, keeps the cost
	 * of remembering a history in proportion to its length rather than to its length squared.
	 */
	#extend(index: number, bytes: Buffer, from: number, to: number): void {
		const [known] = this.#validated.splice(index, 1);
		if (!known) return;
		const length = known.length + to - from;
		if (length > known.bytes.length) {
			const larger = Buffer.allocUnsafe(Math.max(length, 2 * known.bytes.length));
			known.bytes.copy(larger, 0, 0, known.length);
			this.#validatedBytes += larger.length - known.bytes.length;
			known.bytes = larger;
		}

		bytes.copy(known.bytes, known.length, from, to);
		known.length = length;
		this.#validated.unshift(known);
		this.#forget();
	}

	/** Remembers `head` followed by a copy of `bytes[from, to)` (the bytes are the caller's and will be reused). */
	#remember(head: Buffer, bytes: Buffer, from: number, to: number): void {
		const copy = Buffer.allocUnsafe(head.length + to - from);
		head.copy(copy, 0);
		bytes.copy(copy, head.length, from, to);
		this.#validated.unshift({bytes: copy, length: copy.length});
		this.#validatedBytes += copy.length;
		this.#forget();
	}

	/** Drops the least recently used arrays beyond the limits. */
	#forget(): void {
		while (this.#validated.length > maxRemembered || (this.#validatedBytes > maxRememberedBytes && this.#validated.length > 1)) {
			const dropped = this.#validated.pop();
			this.#validatedBytes -= dropped?.bytes.length ?? 0;
		}
	}
}

/** An array known to be valid JSON: its first `length` bytes of `bytes`, without the closing bracket. */
type Known = {bytes: Buffer; length: number};

const emptyBytes = Buffer.alloc(0);

/** A pruned line's bytes are put together in a buffer kept up to this size; a longer one is let go after it. */
const maxScratchBytes = 1024 * 1024;
/** The buffer's size to begin with: more than the kept bytes of nearly any line. */
const firstScratchBytes = 64 * 1024;

/**
 * A quick look at the last bytes of a remembered array against the same place in the line. Histories of
 * different runs share their first messages, so a full comparison would often run long before failing; the
 * ends (message ids) differ at once.
 */
function sameTail(bytes: Buffer, open: number, known: Known): boolean {
	const {bytes: knownBytes, length} = known;
	for (let back = 2; back <= 32 && back <= length; back += 3) {
		if (bytes[open + length - back] !== knownBytes[length - back]) return false;
	}

	return true;
}

/** The event type when the line starts `{"type":"<letters>"`, else undefined. */
function lineType(bytes: Buffer, start: number, end: number): string | undefined {
	const from = start + linePrefix.length;
	if (from > end || !sameBytesAt(bytes, start, linePrefix)) return undefined;
	const limit = Math.min(end, from + 64);
	for (let i = from; i < limit; i++) {
		const byte = bytes[i]!;
		if (byte === quote) return i === from ? undefined : bytes.toString('latin1', from, i);
		const letter = (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
		if (!letter) return undefined;
	}

	return undefined;
}

/** Where the key ending in `essages":[` at `at` starts (its opening quote), if it is one that may be cut. */
function keyStartBefore(bytes: Buffer, at: number, lineStart: number, keys: KeySet): number | undefined {
	if (keys.messages && endsWith(bytes, at, lineStart, messagesHead)) return at - messagesHead.length;
	if (keys.newMessages && endsWith(bytes, at, lineStart, newMessagesHead)) return at - newMessagesHead.length;
	if (keys.inputMessages && endsWith(bytes, at, lineStart, inputMessagesHead)) return at - inputMessagesHead.length;
	return undefined;
}

function endsWith(bytes: Buffer, at: number, lineStart: number, head: Buffer): boolean {
	const from = at - head.length;
	return from >= lineStart && sameBytesAt(bytes, from, head);
}

/** Whether the quote at `index` is escaped: preceded by an odd number of backslashes. */
function isEscaped(bytes: Buffer, index: number, lineStart: number): boolean {
	let i = index - 1;
	while (i >= lineStart && bytes[i] === backslash) i--;
	return (index - 1 - i) % 2 === 1;
}

/** Whether the array whose content is `bytes[from, close - 1)` has an element (is not `[]` with whitespace). */
function hasElement(bytes: Buffer, from: number, close: number): boolean {
	for (let i = from; i < close - 1; i++) {
		const byte = bytes[i];
		if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return true;
	}

	return false;
}
