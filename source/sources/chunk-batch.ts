import {streamEvent, streamTypes, type StreamFields} from '../model/stream-line.js';
import type {ChunkItem, ChunkSink} from './parse-chunk.js';
import type {LinePosition} from './line-splitter.js';

/*
 * How a worker hands parsed lines to the main thread. Copying an event object between threads costs the
 * receiver several microseconds (more than parsing a small line), so the streaming events that make up most
 * of a log travel as their fields (strings, once per batch, and numbers in typed arrays), and the main
 * thread builds each event with the same function the parser uses. Everything else travels as is.
 */

/** In `kinds`: an index into streamTypes for a streaming event, or this for the next of `items`. */
const itemKind = 255;
/** Per streaming event, in `refs`: id, expertKey, jobId, runId, text. */
const refsPerStream = 5;
/** Per streaming event, in `numbers`: timestamp, stepNumber, line, offset. */
const numbersPerStream = 4;

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
};

const streamTypeIndex: ReadonlyMap<string, number> = new Map(streamTypes.map((type, index) => [type, index]));

/** Collects lines into batches of about `size` lines and hands each full one on. */
export class BatchWriter implements ChunkSink {
	readonly #size: number;
	readonly #post: (batch: Batch) => void;
	#chunk = 0;
	#kinds: number[] = [];
	#items: ChunkItem[] = [];
	#refs: number[] = [];
	#numbers: number[] = [];
	#strings: string[] = [];
	#stringIndex = new Map<string, number>();

	constructor(size: number, post: (batch: Batch) => void) {
		this.#size = size;
		this.#post = post;
	}

	/** Starts the lines of another chunk (the previous one was ended with `end`). */
	start(chunk: number): void {
		this.#chunk = chunk;
	}

	item(item: ChunkItem): void {
		this.#kinds.push(itemKind);
		this.#items.push(item);
	}

	stream(fields: StreamFields, line: number, offset: number): void {
		this.#kinds.push(streamTypeIndex.get(fields.type) ?? 0);
		this.#refs.push(this.#string(fields.id), this.#string(fields.expertKey), this.#string(fields.jobId), this.#string(fields.runId), this.#string(fields.text));
		this.#numbers.push(fields.timestamp, fields.stepNumber, line, offset);
	}

	afterLine(next: LinePosition): void {
		if (this.#kinds.length >= this.#size) this.#flush(next, false);
	}

	/** Hands on what is left of the chunk, marked as its end (possibly no lines). */
	end(next: LinePosition): void {
		this.#flush(next, true);
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
		});
		this.#kinds = [];
		this.#items = [];
		this.#refs = [];
		this.#numbers = [];
		this.#strings = [];
		this.#stringIndex = new Map();
	}
}

/** Feeds a batch's lines, in order, to `item` (building the streaming events as the parser would). */
export function readBatch(batch: Batch, source: string, item: (item: ChunkItem) => void): void {
	const {kinds, items, refs, strings, numbers} = batch;
	let nextItem = 0;
	let stream = 0;
	for (const kind of kinds) {
		if (kind === itemKind) {
			item(items[nextItem++]!);
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
		item({kind: 'event', event: streamEvent(fields, {source, line: numbers[n + 2]!, offset: numbers[n + 3]!})});
	}
}
