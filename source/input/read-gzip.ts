import {createReadStream} from 'node:fs';
import {pipeline} from 'node:stream';
import {createGunzip} from 'node:zlib';
import type {LineSplitter} from '../parse/line-splitter.js';
import {pumpStream} from './read-stream.js';

export type GzipReading = {
	path: string;
	splitter: LineSplitter;
	signal: AbortSignal;
	/** Compressed bytes read so far: the file's size is compressed too, so the two make a progress bar. */
	progress: (compressedBytesRead: number) => void;
	afterChunk: () => Promise<void>;
};

/** Reads a gzip file (one member or several concatenated) to its end. A compressed file is never followed. */
export async function readGzipFile(reading: GzipReading): Promise<void> {
	const raw = createReadStream(reading.path, {highWaterMark: 1024 * 1024});
	// The callback only swallows the error pipeline reports: the same error also reaches the gunzip stream, where pumpStream sees it.
	const unzipped = pipeline(raw, createGunzip(), () => undefined);
	await pumpStream(
		unzipped,
		reading.splitter,
		async () => {
			reading.progress(raw.bytesRead);
			await reading.afterChunk();
		},
		reading.signal,
	);
	raw.destroy();
}
