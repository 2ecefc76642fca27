import {streamEvent, streamTypes, type StreamFields} from '../../parse/stream-line.js';
import type {ChunkItem, ChunkSink} from './parse-chunk.js';
import type {LinePosition} from '../../parse/line-splitter.js';
import type {Batch} from '../protocol.js';
import {Interned} from '../../model/interned.js';

/*
 * How a chunk worker's parsed lines are written into a Batch (protocol.ts), and read back on the thread that
 * reduces them.
 */

/** In `kinds`: an index into streamTypes for a streaming event, or this for the next of `items`. */
const itemKind = 255;
/** Per streaming event, in `refs`: id, expertKey, jobId, runId, text. */
const refsPerStream = 5;
/** Per streaming event, in `numbers`: timestamp, stepNumber, line, offset. */
const numbersPerStream = 4;

const streamTypeIndex: ReadonlyMap<string, number> = new Map(streamTypes.map((type, index) => [type, index]));

/** The buffers a batch owns, to move them to the main thread rather than copy them. */
export function batchTransferList(batch: Batch): ArrayBuffer[] {
	const buffers = [batch.kinds.buffer, batch.refs.buffer, batch.numbers.buffer];
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
	#strings = new Interned<string>();

	/** The sink that takes every line parsed. */
	readonly parsing: ChunkSink = {
		item: item => this.#item(item),
		stream: (fields, ref) => this.#stream(fields, ref.line, ref.offset),
		afterLine: position => this.#afterLine(position),
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
		const strings = this.#strings;
		this.#refs.push(strings.of(fields.id), strings.of(fields.expertKey), strings.of(fields.jobId), strings.of(fields.runId), strings.of(fields.text));
		// A wire step number is never NaN: it stands for none (the released CLI's streaming events).
		this.#numbers.push(fields.timestamp, fields.stepNumber ?? Number.NaN, line, offset);
	}

	#afterLine(position: {readonly next: LinePosition}): void {
		if (this.#kinds.length >= this.#size) this.#flush(position.next, false);
	}

	#flush(next: LinePosition, done: boolean): void {
		this.#post({
			chunk: this.#chunk,
			next,
			done,
			kinds: Uint8Array.from(this.#kinds),
			items: this.#items,
			refs: Int32Array.from(this.#refs),
			strings: this.#strings.values,
			numbers: Float64Array.from(this.#numbers),
		});
		this.#kinds = [];
		this.#items = [];
		this.#refs = [];
		this.#numbers = [];
		this.#strings = new Interned<string>();
	}
}

/**
 * Feeds a batch's lines, in order, to `sink`: items as they are, streaming events built from their fields as
 * the parser would.
 */
export function readBatch(batch: Batch, source: string, sink: ChunkSink): void {
	const {kinds, items, refs, strings, numbers} = batch;
	let nextItem = 0;
	let stream = 0;
	for (const kind of kinds) {
		if (kind === itemKind) {
			sink.item(items[nextItem++]!);
			continue;
		}

		const r = stream * refsPerStream;
		const n = stream * numbersPerStream;
		stream++;
		const fields: StreamFields = {
			type: streamTypes[kind] ?? 'streamReasoning',
			id: strings[refs[r]!]!,
			expertKey: refs[r + 1]! < 0 ? undefined : strings[refs[r + 1]!]!,
			jobId: strings[refs[r + 2]!]!,
			runId: strings[refs[r + 3]!]!,
			text: strings[refs[r + 4]!]!,
			timestamp: numbers[n]!,
			stepNumber: stepOf(numbers[n + 1]!),
		};
		sink.item({kind: 'event', event: streamEvent(fields, {source, line: numbers[n + 2]!, offset: numbers[n + 3]!})});
	}
}

function stepOf(number: number): number | undefined {
	return Number.isNaN(number) ? undefined : number;
}
