import {closeSync, openSync, readFileSync, readSync} from 'node:fs';
import {normalize, sep} from 'node:path';
import type {EventRef} from '../model/events.js';
import {flattenLineBreaks} from './event-file.js';
import {isGzipFile} from './gzip-magic.js';
import type {InputPlan} from './inputs.js';
import type {Line} from '../parse/line-splitter.js';

/**
 * Raw event JSON for the inspector, without keeping every line in memory: lines of plain files are read
 * again at their byte offset, events of a job directory from their own file; lines from streams (stdin,
 * a child, a .gz, a followed file that may be truncated or rotated) are kept in a bounded buffer of the
 * most recent ones.
 */
export class RawEvents {
	readonly #seekable = new Map<string, string>();
	/** Job directories (with a trailing separator): each event of theirs is a whole file, named by its source. */
	readonly #eventDirectories: string[] = [];
	readonly #recent = new Map<string, string>();
	readonly #maxBytes: number;
	#bytes = 0;

	constructor(options: {maxBytes?: number} = {}) {
		this.#maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
	}

	/** Declares that lines of `label` can be read again from the plain file at `path`. */
	addSeekable(label: string, path: string): void {
		if (!isGzipFile(path)) this.#seekable.set(label, path);
	}

	/** Declares that every line whose source is a file under `directory` is that whole file. */
	addEventDirectory(directory: string): void {
		this.#eventDirectories.push(normalize(directory + sep));
	}

	/** Declares whatever the plan's inputs allow: plain files not followed are seekable, job directories hold event files. */
	addPlan(plan: InputPlan): void {
		for (const input of plan.inputs) {
			if (input.kind === 'job') this.addEventDirectory(input.path);
			else if (input.kind === 'file' && !plan.follow) this.addSeekable(input.label, input.path);
		}
	}

	/**
	 * Whether every line of the plan can be read again at any time (plain files not followed, job directories):
	 * only then may the model keep less than a whole event and rely on reading the rest again.
	 */
	static readsEveryLineAgain(plan: InputPlan): boolean {
		if (plan.follow) return false;
		return plan.inputs.every(input => input.kind === 'job' || (input.kind === 'file' && !isGzipFile(input.path)));
	}

	remember(line: Line): void {
		if (this.#seekable.has(line.source) || this.#isEventFile(line.source)) return;
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
		if (this.#isEventFile(ref.source)) return readEventFile(ref.source);
		const path = this.#seekable.get(ref.source);
		if (path === undefined) return this.#recent.get(`${ref.source}\u0000${ref.line}`);
		try {
			return readLineAt(path, ref.offset);
		} catch {
			return undefined;
		}
	}

	#isEventFile(source: string): boolean {
		return this.#eventDirectories.some(directory => source.startsWith(directory));
	}
}

const maxRawLineBytes = 64 * 1024 * 1024;

function readEventFile(path: string): string | undefined {
	try {
		const bytes = readFileSync(path);
		if (bytes.length > maxRawLineBytes) return undefined;
		flattenLineBreaks(bytes);
		return bytes.toString('utf8').trim();
	} catch {
		return undefined;
	}
}

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
