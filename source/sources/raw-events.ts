import {closeSync, openSync, readSync} from 'node:fs';
import type {EventRef} from '../model/events.js';
import type {Line} from './line-splitter.js';

/**
 * Raw event JSON for the inspector, without keeping every line in memory: lines of plain files are read
 * again at their byte offset; lines from streams (stdin, a child, a .gz) are kept in a bounded buffer of
 * the most recent ones.
 */
export class RawEvents {
	readonly #seekable = new Map<string, string>();
	readonly #recent = new Map<string, string>();
	readonly #maxBytes: number;
	#bytes = 0;

	constructor(options: {maxBytes?: number} = {}) {
		this.#maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
	}

	/** Declares that lines of `label` can be read again from the plain file at `path`. */
	addSeekable(label: string, path: string): void {
		if (!isGzip(path)) this.#seekable.set(label, path);
	}

	remember(line: Line): void {
		if (this.#seekable.has(line.source)) return;
		const key = `${line.source}\u0000${line.line}`;
		this.#recent.set(key, line.text);
		this.#bytes += line.text.length;
		while (this.#bytes > this.#maxBytes && this.#recent.size > 1) {
			const oldest = this.#recent.keys().next();
			if (oldest.done) break;
			this.#bytes -= this.#recent.get(oldest.value)?.length ?? 0;
			this.#recent.delete(oldest.value);
		}
	}

	read(ref: EventRef): string | undefined {
		const path = this.#seekable.get(ref.source);
		if (path === undefined) return this.#recent.get(`${ref.source}\u0000${ref.line}`);
		try {
			return readLineAt(path, ref.offset);
		} catch {
			return undefined;
		}
	}
}

const maxRawLineBytes = 64 * 1024 * 1024;

function readLineAt(path: string, offset: number): string {
	const fd = openSync(path, 'r');
	try {
		const pieces: Buffer[] = [];
		let position = offset;
		let total = 0;
		const buffer = Buffer.alloc(64 * 1024);
		while (total < maxRawLineBytes) {
			const read = readSync(fd, buffer, 0, buffer.length, position);
			if (read === 0) break;
			const newline = buffer.subarray(0, read).indexOf(10);
			const end = newline === -1 ? read : newline;
			pieces.push(Buffer.from(buffer.subarray(0, end)));
			total += end;
			position += read;
			if (newline !== -1) break;
		}

		return Buffer.concat(pieces).toString('utf8').replace(/\r$/, '');
	} finally {
		closeSync(fd);
	}
}

function isGzip(path: string): boolean {
	try {
		const fd = openSync(path, 'r');
		try {
			const head = Buffer.alloc(2);
			readSync(fd, head, 0, 2, 0);
			return head[0] === 0x1f && head[1] === 0x8b;
		} finally {
			closeSync(fd);
		}
	} catch {
		return false;
	}
}
