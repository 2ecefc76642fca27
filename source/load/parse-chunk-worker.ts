import {closeSync, openSync} from 'node:fs';
import {parentPort, workerData} from 'node:worker_threads';
import {batchTransferList, BatchWriter} from './chunk-batch.js';
import {LineParser} from '../parse/line-parser.js';
import {ChunkReader, parseChunk} from './parse-chunk.js';
import type {ChunkWorkerMessage, ChunkWorkerSetup} from './protocol.js';

/*
 * A worker of the parallel loader (parallel-file.ts): claims chunks of the file ahead of the main thread,
 * parses them and posts the results. Chunks are claimed through shared memory, so the main thread takes
 * whatever nobody claimed yet instead of waiting, and no chunk is ever parsed twice.
 */

const waitMs = 250;

function isSetup(value: unknown): value is ChunkWorkerSetup {
	return typeof value === 'object' && value !== null && 'chunks' in value && 'claims' in value;
}

function run(setup: ChunkWorkerSetup, post: (message: ChunkWorkerMessage) => void): void {
	const claims = new Int32Array(setup.claims);
	const counted = new Int32Array(setup.counted);
	const counts = new Float64Array(setup.counts);
	const control = new Int32Array(setup.control);
	const stopped = () => Atomics.load(control, 1) !== 0;
	const fd = openSync(setup.path, 'r');
	const reader = new ChunkReader(fd);
	// Workers parse only for the fast path (plainFiles).
	const parser = new LineParser({fast: true, dialect: setup.dialect});
	let posted = 0;
	const writer = new BatchWriter(setup.batchSize, batch => {
		if (setup.failAfter !== undefined && posted >= setup.failAfter) throw new Error(`failing after ${posted} batches, as the tuning asks (chunkWorkerFailAfter)`);
		posted++;
		post({kind: 'lines', batch});
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

}

const setup: unknown = workerData;
if (parentPort && isSetup(setup)) {
	const port = parentPort;
	run(setup, message => port.postMessage(message, batchTransferList(message.batch)));
}
