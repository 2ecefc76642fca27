import type {Readable} from 'node:stream';
import type {LineSplitter} from './line-splitter.js';

/**
 * Feeds a byte stream through a splitter. `afterChunk` runs after each chunk, so a consumer can flush
 * output or wait for a slow pipe before more is read (backpressure reaches the input).
 */
export async function pumpStream(stream: Readable, splitter: LineSplitter, afterChunk?: () => void | Promise<void>): Promise<void> {
	for await (const value of stream) {
		const chunk: unknown = value;
		splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
		await afterChunk?.();
	}

	splitter.end();
	await afterChunk?.();
}
