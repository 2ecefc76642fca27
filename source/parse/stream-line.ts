import type {AgentEvent, EventRef} from '../model/events.js';
import {parseLine} from './normalise.js';
import {sameBytesAt} from './same-bytes.js';

/*
 * A fast lane for the streaming events that make up most lines of a Perstack log: a `streamReasoning` or
 * `streamRunResult` line per few characters of model output. For a line in exactly the form the runtime
 * writes,
 *
 *   {"type":T,"id":S,"expertKey":S,"timestamp":N,"jobId":S,"runId":S,"stepNumber":N[,"delta"|"text":S]}
 *
 * or the released CLI's (0.0.54), which has no expertKey and no stepNumber,
 *
 *   {"type":T,"id":S,"timestamp":N,"jobId":S,"runId":S[,"delta"|"text":S]}
 *
 * (keys in this order, no whitespace, S a JSON string, N a whole number of at most 15 digits), what JSON.parse
 * and the schema would give is plain: the same strings and numbers (such numbers are exact, and well inside
 * any timestamp or step range). So the fields are read straight from the line's bytes and the event is built
 * from them as fromPerstack builds it, with no JSON.parse, no schema, and no decoding of the whole line.
 * Anything else, including any line that would be invalid, is left to parseLine.
 *
 * If the schemas change so that this no longer holds, the first lines of each type, which are always also
 * read by parseLine (JSON.parse, then the event reader the build holds to the schemas) and compared, turn
 * the lane off; test/perf compares whole logs both ways.
 */

export const streamTypes = [
	'startStreamingReasoning',
	'streamReasoning',
	'completeStreamingReasoning',
	'startStreamingRunResult',
	'streamRunResult',
	'completeStreamingRunResult',
	// The released CLI's names (0.0.54); its deltas are streamReasoning and streamRunResult as above.
	'startReasoning',
	'completeReasoning',
	'startRunResult',
] as const;

export type StreamType = (typeof streamTypes)[number];

const payloadKeys: Record<StreamType, string | undefined> = {
	startStreamingReasoning: undefined,
	streamReasoning: 'delta',
	completeStreamingReasoning: 'text',
	startStreamingRunResult: undefined,
	streamRunResult: 'delta',
	completeStreamingRunResult: 'text',
	startReasoning: undefined,
	completeReasoning: 'text',
	startRunResult: undefined,
};

/** What a streaming line holds (`text` is its `delta` or `text`, or '' for a start). */
export type StreamFields = {
	type: StreamType;
	id: string;
	/** Undefined in the released CLI's form, as is `stepNumber`. */
	expertKey: string | undefined;
	timestamp: number;
	jobId: string;
	runId: string;
	stepNumber: number | undefined;
	text: string;
};

const quote = 0x22;
const backslash = 0x5c;
const prefix = Buffer.from('{"type":"');
const idKey = Buffer.from('","id":"');
// A string's closing quote is read with it; the type's is not.
const expertKeyKey = Buffer.from(',"expertKey":"');
const timestampKey = Buffer.from(',"timestamp":');
const jobIdKey = Buffer.from(',"jobId":"');
const runIdKey = Buffer.from(',"runId":"');
const stepNumberKey = Buffer.from(',"stepNumber":');

type Layout = {type: StreamType; index: number; name: Buffer; payloadKey: Buffer | undefined};

/** Each type, its place in streamTypes, its name's bytes, and what follows the step number. */
const layouts: readonly Layout[] = streamTypes.map((type, index) => {
	const key = payloadKeys[type];
	return {type, index, name: Buffer.from(type), payloadKey: key === undefined ? undefined : Buffer.from(`,"${key}":"`)};
});

/**
 * The layout of the type whose name starts at `at`, closed by its quote, before `end`. The names are tried in turn
 * on the bytes (they differ within their first letters), which costs less than finding the quote first.
 */
function layoutAt(bytes: Buffer, at: number, end: number): Layout | undefined {
	for (const layout of layouts) {
		const close = at + layout.name.length;
		if (close < end && bytes[close] === quote && sameBytesAt(bytes, at, layout.name)) return layout;
	}

	return undefined;
}

/** How many lines of each type are parsed both ways before the lane is trusted. */
const checkedLines = 16;

/** A cursor over one line; every read either advances it or gives up on the line. */
class LineReader {
	bytes: Buffer = Buffer.alloc(0);
	at = 0;
	end = 0;

	literal(expected: Buffer): boolean {
		const length = expected.length;
		if (this.at + length > this.end || !sameBytesAt(this.bytes, this.at, expected)) return false;
		this.at += length;
		return true;
	}

	/**
	 * The contents of a JSON string whose opening quote was already read, up to and past its closing quote;
	 * undefined for anything JSON.parse would reject (a raw control character, an unknown escape).
	 */
	string(recent?: RecentString): string | undefined {
		const {bytes, end} = this;
		const start = this.at;
		// The same bytes as the last time, closed by a quote: the same string, whose bytes were checked then.
		const close = recent ? recent.matchesAt(bytes, start, end) : -1;
		if (recent && close !== -1) {
			this.at = close + 1;
			return recent.text;
		}

		let escaped = false;
		let i = start;
		for (;;) {
			if (i >= end) return undefined;
			const byte = bytes[i]!;
			if (byte === quote) break;
			if (byte < 0x20) return undefined;
			if (byte === backslash) {
				escaped = true;
				const next = bytes[i + 1];
				if (next === 0x75) {
					for (let digit = i + 2; digit < i + 6; digit++) if (!isHexDigit(bytes[digit])) return undefined;
					i += 6;
					continue;
				}

				// " \ / b f n r t
				if (next !== quote && next !== backslash && next !== 0x2f && next !== 0x62 && next !== 0x66 && next !== 0x6e && next !== 0x72 && next !== 0x74)
					return undefined;
				i += 2;
				continue;
			}

			i++;
		}

		this.at = i + 1;
		// Both ends are quotes (ASCII), so decoding just these bytes gives what decoding the line would.
		const raw = bytes.toString('utf8', start, i);
		const text = escaped ? String(JSON.parse(`"${raw}"`)) : raw;
		if (!escaped) recent?.remember(bytes, start, i, text);
		return text;
	}

	/** A whole number of 1 to 15 digits, optionally negative, as JSON.parse reads it; undefined otherwise. */
	wholeNumber(): number | undefined {
		const {bytes, end} = this;
		let i = this.at;
		const negative = bytes[i] === 0x2d;
		if (negative) i++;
		const first = i;
		let value = 0;
		while (i < end) {
			const byte = bytes[i]!;
			if (byte < 0x30 || byte > 0x39) break;
			value = value * 10 + (byte - 0x30);
			i++;
		}

		const digits = i - first;
		if (digits === 0 || digits > 15 || (digits > 1 && bytes[first] === 0x30)) return undefined;
		this.at = i;
		return negative ? -value : value;
	}
}

/**
 * The last value of a field that repeats from line to line (a run's id, its job, its expert), with its bytes:
 * comparing a few bytes costs less than decoding them into a new string each time.
 */
class RecentString {
	#bytes = Buffer.alloc(64);
	#length = -1;
	text = '';

	/**
	 * Where the closing quote is when the string starting at `start` has the last value's bytes (which held no
	 * quote, backslash or control character when they were read), else -1.
	 */
	matchesAt(bytes: Buffer, start: number, end: number): number {
		const length = this.#length;
		const close = start + length;
		if (length < 0 || close >= end || bytes[close] !== quote) return -1;
		const known = this.#bytes;
		for (let i = 0; i < length; i++) if (bytes[start + i] !== known[i]) return -1;
		return close;
	}

	remember(bytes: Buffer, start: number, end: number, text: string): void {
		const length = end - start;
		if (length > this.#bytes.length) return;
		bytes.copy(this.#bytes, 0, start, end);
		this.#length = length;
		this.text = text;
	}
}

function isHexDigit(byte: number | undefined): boolean {
	return byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

/** The channel and phase of each type's events, as fromPerstack gives them. */
const streamKinds: Record<StreamType, {channel: 'reasoning' | 'result'; phase: 'start' | 'delta' | 'complete'}> = {
	startStreamingReasoning: {channel: 'reasoning', phase: 'start'},
	streamReasoning: {channel: 'reasoning', phase: 'delta'},
	completeStreamingReasoning: {channel: 'reasoning', phase: 'complete'},
	startStreamingRunResult: {channel: 'result', phase: 'start'},
	streamRunResult: {channel: 'result', phase: 'delta'},
	completeStreamingRunResult: {channel: 'result', phase: 'complete'},
	startReasoning: {channel: 'reasoning', phase: 'start'},
	completeReasoning: {channel: 'reasoning', phase: 'complete'},
	startRunResult: {channel: 'result', phase: 'start'},
};

/**
 * The event of a streaming line: what parseLine gives (fromPerstack's head, then its body, keys in the same
 * order), built in one go. These are most events of a log, and building the wire event, a head and a body and
 * merging them cost more than reading the line. The first lines of each type are compared with parseLine.
 */
export function streamEvent(fields: StreamFields, ref: EventRef): AgentEvent {
	const {channel, phase} = streamKinds[fields.type];
	return {
		dialect: 'perstack',
		wireType: fields.type,
		id: fields.id,
		jobId: fields.jobId,
		runId: fields.runId,
		expertKey: fields.expertKey,
		step: fields.stepNumber,
		timestamp: fields.timestamp,
		agent: undefined,
		ref,
		kind: 'stream',
		channel,
		phase,
		text: fields.text,
	};
}

export class StreamLines {
	readonly #reader = new LineReader();
	readonly #expertKey = new RecentString();
	readonly #jobId = new RecentString();
	readonly #runId = new RecentString();
	/** How many lines of each type (by its place in streamTypes) were also read the slow way. */
	readonly #checked = new Uint8Array(streamTypes.length);
	#trusted = true;

	/** The fields of the streaming line `bytes[start, end)` if it is in the runtime's own form, else undefined. */
	match(bytes: Buffer, start: number, end: number, ref: EventRef): StreamFields | undefined {
		if (!this.#trusted) return undefined;
		const reader = this.#reader;
		reader.bytes = bytes;
		reader.at = start;
		reader.end = end;
		if (!reader.literal(prefix)) return undefined;
		const layout = layoutAt(bytes, reader.at, end);
		if (!layout) return undefined;
		reader.at += layout.name.length;
		if (!reader.literal(idKey)) return undefined;
		const id = reader.string();
		if (id === undefined) return undefined;
		// The released CLI writes no expertKey (and no stepNumber): the timestamp follows the id.
		let expertKey: string | undefined;
		if (reader.literal(expertKeyKey)) {
			expertKey = reader.string(this.#expertKey);
			if (expertKey === undefined) return undefined;
		}

		if (!reader.literal(timestampKey)) return undefined;
		const timestamp = reader.wholeNumber();
		if (timestamp === undefined || !reader.literal(jobIdKey)) return undefined;
		const jobId = reader.string(this.#jobId);
		if (jobId === undefined || !reader.literal(runIdKey)) return undefined;
		const runId = reader.string(this.#runId);
		if (runId === undefined) return undefined;
		let stepNumber: number | undefined;
		if (expertKey !== undefined) {
			if (!reader.literal(stepNumberKey)) return undefined;
			stepNumber = reader.wholeNumber();
			// A negative one is no step number (dialects/common.ts): the whole line's reading reports it.
			if (stepNumber === undefined || stepNumber < 0) return undefined;
		}
		let text = '';
		if (layout.payloadKey) {
			if (!reader.literal(layout.payloadKey)) return undefined;
			const payload = reader.string();
			if (payload === undefined) return undefined;
			text = payload;
		}

		if (reader.at !== end - 1 || bytes[reader.at] !== 0x7d) return undefined;
		const fields: StreamFields = {type: layout.type, id, expertKey, timestamp, jobId, runId, stepNumber, text};
		const checked = this.#checked[layout.index]!;
		if (checked >= checkedLines) return fields;
		this.#checked[layout.index] = checked + 1;
		const slow = parseLine({...ref, text: bytes.toString('utf8', start, end)});
		if (slow.kind === 'event' && sameData(slow.event, streamEvent(fields, ref))) return fields;
		this.#trusted = false;
		return undefined;
	}
}

/** Whether two values hold the same plain data: same keys in the same order, same primitives. */
function sameData(a: unknown, b: unknown): boolean {
	if (Object.is(a, b)) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keysA = Object.keys(a);
	const keysB = Object.keys(b);
	if (keysA.length !== keysB.length) return false;
	for (const [index, key] of keysA.entries()) {
		if (keysB[index] !== key || !sameData(Reflect.get(a, key), Reflect.get(b, key))) return false;
	}

	return true;
}
