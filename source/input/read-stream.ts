import {addAbortSignal, pipeline, Readable} from 'node:stream';
import {createGunzip} from 'node:zlib';
import type {LineSplitter} from '../parse/line-splitter.js';

/**
 * Feeds a byte stream through a splitter. `afterChunk` runs after each chunk, so a consumer can flush
 * output or wait for a slow pipe before more is read (backpressure reaches the input). Aborting `signal`
 * ends the stream as if it had reached its end: what was read so far still counts.
 */
export async function pumpStream(stream: Readable, splitter: LineSplitter, afterChunk?: () => void | Promise<void>, signal?: AbortSignal): Promise<void> {
	try {
		for await (const value of signal ? addAbortSignal(signal, stream) : stream) {
			const chunk: unknown = value;
			splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
			await afterChunk?.();
		}
	} catch (error) {
		if (!signal?.aborted) throw error;
	}

	splitter.end();
	await afterChunk?.();
}

/**
 * The stream as it is, or uncompressed when its first two bytes are gzip's magic: `zcat` is not needed in
 * front of perscope, and a compressed log gives the same output on a pipe as from its file.
 */
export async function ungzipped(stream: Readable, signal?: AbortSignal): Promise<Readable> {
	// Waiting for the first bytes of a silent pipe must end on a signal like any other wait on input.
	const chunks = (signal ? addAbortSignal(signal, stream) : stream)[Symbol.asyncIterator]();
	const head: Buffer[] = [];
	let length = 0;
	let ended = false;
	try {
		while (length < 2) {
			const next: IteratorResult<unknown> = await chunks.next();
			if (next.done) {
				ended = true;
				break;
			}

			const chunk = asBuffer(next.value);
			head.push(chunk);
			length += chunk.length;
		}
	} catch (error) {
		if (!signal?.aborted) throw error;
		ended = true;
	}

	const first = Buffer.concat(head);
	async function* all(): AsyncGenerator<Buffer> {
		yield first;
		if (ended) return;
		for (;;) {
			const next: IteratorResult<unknown> = await chunks.next();
			if (next.done) return;
			yield asBuffer(next.value);
		}
	}

	const plain = Readable.from(all(), {objectMode: false});
	if (first[0] !== 0x1f || first[1] !== 0x8b) return plain;
	// The callback only swallows what pipeline reports: the same error reaches the gunzip stream's reader.
	return pipeline(plain, createGunzip(), () => undefined);
}

function asBuffer(chunk: unknown): Buffer {
	return Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
}
