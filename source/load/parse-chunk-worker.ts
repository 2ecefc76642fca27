import {closeSync, openSync} from 'node:fs';
import {parentPort, workerData} from 'node:worker_threads';
import {batchTransferList, BatchWriter, type Batch} from './chunk-batch.js';
import {LineParser} from '../parse/line-parser.js';
import {ChunkReader, parseChunk, type Chunk} from './parse-chunk.js';

/*
 * A worker of the parallel loader (parallel-file.ts): claims chunks of the file ahead of the main thread,
 * parses them and posts the results. Chunks are claimed through shared memory, so the main thread takes
 * whatever nobody claimed yet instead of waiting, and no chunk is ever parsed twice.
 */

export type WorkerSetup = {
	path: string;
	source: string;
	maxLineBytes: number;
	chunks: Chunk[];
	/** This worker's mark in `claims` (2 and up; 1 is the main thread). */
	id: number;
	/**
	 * A worker claims chunks from `control[2]` past the last one the main thread consumed (the nearer are the
	 * main thread's) up to this many past it.
	 */
	lookahead: number;
	/** For tests of the main thread taking over: the worker fails after posting this many batches. */
	failAfter: number | undefined;
	batchSize: number;
	/** Per chunk: 0 unclaimed, else the claimer's id. */
	claims: SharedArrayBuffer;
	/** Per chunk: 1 once its newline count is in `counts`. */
	counted: SharedArrayBuffer;
	counts: SharedArrayBuffer;
	/**
	 * [chunks consumed by the main thread, 1 to stop, the gap]: the gap is 0 while the main thread leaves
	 * every chunk to the workers and grows once it parses too.
	 */
	control: SharedArrayBuffer;
};

export type WorkerMessage = {kind: 'batch'; batch: Batch} | {kind: 'finished'};

const waitMs = 250;

function isSetup(value: unknown): value is WorkerSetup {
	return typeof value === 'object' && value !== null && 'chunks' in value && 'claims' in value;
}

function run(setup: WorkerSetup, post: (message: WorkerMessage) => void): void {
	const claims = new Int32Array(setup.claims);
	const counted = new Int32Array(setup.counted);
	const counts = new Float64Array(setup.counts);
	const control = new Int32Array(setup.control);
	const stopped = () => Atomics.load(control, 1) !== 0;
	const fd = openSync(setup.path, 'r');
	const reader = new ChunkReader(fd);
	// Workers parse only for the fast path (plainFiles).
	const parser = new LineParser({fast: true});
	let posted = 0;
	const writer = new BatchWriter(setup.batchSize, batch => {
		if (setup.failAfter !== undefined && posted >= setup.failAfter) throw new Error('worker failure requested by PERSCOPE_WORKER_FAIL_AFTER');
		posted++;
		post({kind: 'batch', batch});
	});
	// Lines of the chunks before `known.chunk`. A chunk nobody has read yet is counted here (read just for its
	// newlines) rather than waited for: the main thread reads its chunks only when it gets to them.
	const known = {chunk: 0, lines: 0};
	const linesBefore = (chunk: number): number => {
		while (known.chunk < chunk) {
			const index = known.chunk;
			if (Atomics.load(counted, index) === 0) {
				// Whoever else counts it finds the same number, so neither write can spoil the other.
				counts[index] = reader.load(setup.chunks[index]!).newlines;
				Atomics.store(counted, index, 1);
				Atomics.notify(counted, index);
			}

			known.lines += counts[index]!;
			known.chunk++;
		}

		return known.lines;
	};

	try {
		let cursor = 0;
		while (cursor < setup.chunks.length && !stopped()) {
			const consumed = Atomics.load(control, 0);
			cursor = Math.max(cursor, consumed + Atomics.load(control, 2));
			if (cursor >= setup.chunks.length) break;
			if (cursor >= consumed + setup.lookahead) {
				Atomics.wait(control, 0, consumed, waitMs);
				continue;
			}

			if (Atomics.compareExchange(claims, cursor, 0, setup.id) !== 0) {
				cursor++;
				continue;
			}

			// The main thread may be waiting to learn who reads this chunk.
			Atomics.notify(claims, cursor);

			const index = cursor++;
			const chunk = setup.chunks[index]!;
			const lines = linesBefore(index);
			const {bytes, newlines} = reader.load(chunk);
			if (Atomics.load(counted, index) === 0) {
				counts[index] = newlines;
				Atomics.store(counted, index, 1);
				Atomics.notify(counted, index);
			}

			writer.start(index);
			const next = parseChunk({
				reader,
				parser,
				chunk,
				bytes,
				from: {offset: chunk.start, lines},
				source: setup.source,
				maxLineBytes: setup.maxLineBytes,
				sink: writer.parsing,
			});
			writer.end(next);
		}
	} finally {
		closeSync(fd);
	}

	post({kind: 'finished'});
}

const setup: unknown = workerData;
if (parentPort && isSetup(setup)) {
	const port = parentPort;
	run(setup, message => port.postMessage(message, message.kind === 'batch' ? batchTransferList(message.batch) : []));
}
