import {readSync} from 'node:fs';
import type {ParsedItem} from '../../parse/dialects/stream-dialect.js';
import type {LineParser, ParsedSink} from '../../parse/line-parser.js';
import {LineCutter, type LinePosition, type OverlongLine} from '../../parse/line-splitter.js';

/*
 * One piece of a plain file, read and parsed on its own (on the main thread or in a worker), giving for
 * each of its lines exactly what Ingest's LineSplitter and LineParser give: the same line numbers, offsets,
 * skipped blank lines, overlong lines and byte order mark handling. Only the order of work differs.
 */

/** A byte range of a file that starts at the start of a line and ends after a newline (or at the end). */
export type Chunk = {start: number; end: number};

export type ChunkItem = ParsedItem | {kind: 'overlong'; overlong: OverlongLine};

/** A chunk no larger than this is read into memory whole; a larger one (very long lines) is read twice in blocks. */
export const maxChunkInMemory = 32 * 1024 * 1024;
const blockBytes = 1024 * 1024;
const newline = 0x0a;

export class ChunkReader {
	readonly #fd: number;
	#buffer: Buffer = Buffer.alloc(0);

	constructor(fd: number) {
		this.#fd = fd;
	}

	/**
	 * The chunk's bytes, when it is small enough to hold, and how many newlines it has (the number of lines
	 * it ends, which the pieces after it need for their line numbers).
	 */
	load(chunk: Chunk): {bytes: Buffer | undefined; newlines: number} {
		const length = chunk.end - chunk.start;
		if (length > maxChunkInMemory) return {bytes: undefined, newlines: this.#countInBlocks(chunk)};
		if (this.#buffer.length < length) this.#buffer = Buffer.allocUnsafe(Math.max(length, blockBytes));
		const bytes = this.#buffer.subarray(0, this.#readFully(this.#buffer, chunk.start, length));
		return {bytes, newlines: countNewlines(bytes)};
	}

	/** Feeds the chunk to a cutter in blocks (for chunks too large to hold). */
	feedInBlocks(chunk: Chunk, cutter: LineCutter): void {
		const block = Buffer.allocUnsafe(blockBytes);
		let position = chunk.start;
		while (position < chunk.end) {
			const read = readSync(this.#fd, block, 0, Math.min(block.length, chunk.end - position), position);
			if (read === 0) break;
			cutter.push(block.subarray(0, read));
			position += read;
		}
	}

	#countInBlocks(chunk: Chunk): number {
		const block = Buffer.allocUnsafe(blockBytes);
		let position = chunk.start;
		let count = 0;
		while (position < chunk.end) {
			const read = readSync(this.#fd, block, 0, Math.min(block.length, chunk.end - position), position);
			if (read === 0) break;
			count += countNewlines(block.subarray(0, read));
			position += read;
		}

		return count;
	}

	#readFully(buffer: Buffer, position: number, length: number): number {
		let done = 0;
		while (done < length) {
			const read = readSync(this.#fd, buffer, done, length - done, position + done);
			if (read === 0) break;
			done += read;
		}

		return done;
	}
}

export function countNewlines(bytes: Buffer): number {
	let count = 0;
	let at = bytes.indexOf(newline);
	while (at !== -1) {
		count++;
		at = bytes.indexOf(newline, at + 1);
	}

	return count;
}

/** Where parsed lines go: a streaming line in the runtime's own form as its fields, anything else as an item. */
export type ChunkSink = ParsedSink & {
	item(item: ChunkItem): void;
	/**
	 * After each line; `position.next` is where the following one starts. Given as the cutter rather than the
	 * position itself, which would be an object made per line for a sink that seldom reads it.
	 */
	afterLine(position: {readonly next: LinePosition}): void;
};

/** Reads and parses one chunk whose first line is line `from.lines + 1`. Returns the position after its last line. */
export function parseChunk(options: {
	reader: ChunkReader;
	parser: LineParser;
	chunk: Chunk;
	bytes: Buffer | undefined;
	from: LinePosition;
	source: string;
	maxLineBytes: number;
	sink: ChunkSink;
}): LinePosition {
	const {parser, sink} = options;
	const cutter: LineCutter = new LineCutter({
		source: options.source,
		from: options.from,
		maxLineBytes: options.maxLineBytes,
		line: (bytes, start, end, line, offset) => {
			parser.parse(bytes, start, end, {source: options.source, line, offset}, sink);
			sink.afterLine(cutter);
		},
		overlong: overlong => {
			sink.item({kind: 'overlong', overlong});
			sink.afterLine(cutter);
		},
	});
	if (options.bytes) cutter.push(options.bytes);
	else options.reader.feedInBlocks(options.chunk, cutter);
	cutter.end();
	return cutter.next;
}
