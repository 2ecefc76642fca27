import {streamEvent, streamTypes, type StreamFields} from '../model/stream-line.js';
import type {ChunkItem, ChunkSink, LineParser, PassingSink} from './parse-chunk.js';
import type {LinePosition} from './line-splitter.js';

/*
 * How a worker hands lines to the main thread, in one of two ways per chunk, chosen by which thread has time:
 * - parsed: every line is parsed by the worker. Copying an event object between threads costs the receiver
 *   several microseconds (more than parsing a small line), so the streaming events that make up most of a
 *   log travel as their fields (strings, once per batch, and numbers in typed arrays), and the main thread
 *   builds each event with the same function the parser uses. For while the main thread is busy elsewhere
 *   (the viewer loading Ink): it then only has to reduce.
 * - passed: the worker parses only the long lines (checkpoints repeating the message history: cut, then
 *   JSON.parse of what is left) and sends short lines, nearly all streaming deltas, as their bytes in a
 *   buffer that is moved, not copied, to the main thread, which parses them with the same LineParser. For
 *   when the main thread has time: the worker, which the load waits for, does less.
 * Everything else travels as is.
 */

/** In `kinds`: an index into streamTypes for a streaming event's fields, or one of these. */
const itemKind = 255;
const shortKind = 254;
/** Per streaming event, in `refs`: id, expertKey, jobId, runId, text. */
const refsPerStream = 5;
/** Per streaming event, in `numbers`: timestamp, stepNumber, line, offset. */
const numbersPerStream = 4;
/** Per short line, in `spans`: start and end in `bytes`, line number, offset in the file. */
const numbersPerShort = 4;

export type Batch = {
	chunk: number;
	/** Where the line after the batch starts. */
	next: LinePosition;
	/** Whether the batch ends its chunk. */
	done: boolean;
	kinds: Uint8Array;
	items: ChunkItem[];
	refs: Int32Array;
	strings: string[];
	numbers: Float64Array;
	bytes: Uint8Array;
	spans: Float64Array;
};

const streamTypeIndex: ReadonlyMap<string, number> = new Map(streamTypes.map((type, index) => [type, index]));

/** The buffers a batch owns, to move them to the main thread rather than copy them. */
export function batchTransferList(batch: Batch): ArrayBuffer[] {
	const buffers = [batch.kinds.buffer, batch.refs.buffer, batch.numbers.buffer, batch.bytes.buffer, batch.spans.buffer];
	return buffers.filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
}

/** Collects lines into batches of about `size` lines and hands each full one on. */
export class BatchWriter {
	readonly #size: number;
	readonly #post: (batch: Batch) => void;
	#chunk = 0;
	#kinds: number[] = [];
	#items: ChunkItem[] = [];
	#refs: number[] = [];
	#numbers: number[] = [];
	#strings: string[] = [];
	#stringIndex = new Map<string, number>();
	#bytes: Uint8Array = new Uint8Array(64 * 1024);
	#used = 0;
	#spans: number[] = [];

	/** The sink that takes every line parsed. */
	readonly parsing: ChunkSink = {
		item: item => this.#item(item),
		stream: (fields, line, offset) => this.#stream(fields, line, offset),
		afterLine: next => this.#afterLine(next),
	};

	/** The sink that takes short lines as their bytes. */
	readonly passing: PassingSink = {
		item: item => this.#item(item),
		short: (bytes, start, end, line, offset) => this.#short(bytes, start, end, line, offset),
		afterLine: next => this.#afterLine(next),
	};

	constructor(size: number, post: (batch: Batch) => void) {
		this.#size = size;
		this.#post = post;
	}

	/** Starts the lines of another chunk (the previous one was ended with `end`). */
	start(chunk: number): void {
		this.#chunk = chunk;
	}

	/** Hands on what is left of the chunk, marked as its end (possibly no lines). */
	end(next: LinePosition): void {
		this.#flush(next, true);
	}

	#item(item: ChunkItem): void {
		this.#kinds.push(itemKind);
		this.#items.push(item);
	}

	#stream(fields: StreamFields, line: number, offset: number): void {
		this.#kinds.push(streamTypeIndex.get(fields.type) ?? 0);
		this.#refs.push(this.#string(fields.id), this.#string(fields.expertKey), this.#string(fields.jobId), this.#string(fields.runId), this.#string(fields.text));
		this.#numbers.push(fields.timestamp, fields.stepNumber, line, offset);
	}

	#short(bytes: Uint8Array, start: number, end: number, line: number, offset: number): void {
		const length = end - start;
		if (this.#used + length > this.#bytes.length) {
			const grown = new Uint8Array(Math.max(2 * this.#bytes.length, this.#used + length));
			grown.set(this.#bytes.subarray(0, this.#used));
			this.#bytes = grown;
		}

		this.#bytes.set(bytes.subarray(start, end), this.#used);
		this.#kinds.push(shortKind);
		this.#spans.push(this.#used, this.#used + length, line, offset);
		this.#used += length;
	}

	#afterLine(next: LinePosition): void {
		if (this.#kinds.length >= this.#size) this.#flush(next, false);
	}

	#string(value: string): number {
		let index = this.#stringIndex.get(value);
		if (index === undefined) {
			index = this.#strings.length;
			this.#strings.push(value);
			this.#stringIndex.set(value, index);
		}

		return index;
	}

	#flush(next: LinePosition, done: boolean): void {
		this.#post({
			chunk: this.#chunk,
			next,
			done,
			kinds: Uint8Array.from(this.#kinds),
			items: this.#items,
			refs: Int32Array.from(this.#refs),
			strings: this.#strings,
			numbers: Float64Array.from(this.#numbers),
			// A copy of just the bytes used, in a buffer of its own that the worker can give away.
			bytes: this.#bytes.slice(0, this.#used),
			spans: Float64Array.from(this.#spans),
		});
		this.#kinds = [];
		this.#items = [];
		this.#refs = [];
		this.#numbers = [];
		this.#strings = [];
		this.#stringIndex = new Map();
		this.#used = 0;
		this.#spans = [];
	}
}

/**
 * Feeds a batch's lines, in order, to `sink`: items as they are, streaming events built from their fields as
 * the parser would, short lines parsed by `parser`.
 */
export function readBatch(batch: Batch, source: string, parser: LineParser, sink: ChunkSink): void {
	const {kinds, items, refs, strings, numbers, spans} = batch;
	const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
	let nextItem = 0;
	let stream = 0;
	let short = 0;
	for (const kind of kinds) {
		if (kind === itemKind) {
			sink.item(items[nextItem++]!);
			continue;
		}

		if (kind === shortKind) {
			const at = short++ * numbersPerShort;
			parser.parse(bytes, spans[at]!, spans[at + 1]!, spans[at + 2]!, spans[at + 3]!, sink);
			continue;
		}

		const r = stream * refsPerStream;
		const n = stream * numbersPerStream;
		stream++;
		const fields: StreamFields = {
			type: streamTypes[kind] ?? 'streamReasoning',
			id: strings[refs[r]!]!,
			expertKey: strings[refs[r + 1]!]!,
			jobId: strings[refs[r + 2]!]!,
			runId: strings[refs[r + 3]!]!,
			text: strings[refs[r + 4]!]!,
			timestamp: numbers[n]!,
			stepNumber: numbers[n + 1]!,
		};
		sink.item({kind: 'event', event: streamEvent(fields, {source, line: numbers[n + 2]!, offset: numbers[n + 3]!})});
	}
}
