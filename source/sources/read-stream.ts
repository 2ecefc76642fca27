import {addAbortSignal, type Readable} from 'node:stream';
import type {LineSplitter} from './line-splitter.js';

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
