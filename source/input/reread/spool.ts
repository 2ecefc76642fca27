import {closeSync, mkdtempSync, openSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

/*
 * A copy of the lines of streams that cannot be read again (stdin, a command's output), in a temporary
 * directory, so that an event of theirs is read again by offset just as one of a plain file (as lnav does).
 * Each line is written at its own byte offset in its stream, so the copy of a stream has its lines where the
 * stream had them. The directory is removed when the viewer closes the spool, and in any case as the process
 * exits (the viewer ends on SIGINT, SIGTERM and SIGHUP by exiting, which runs the exit handlers too).
 */

/** Lines are gathered to about this many bytes before they are written: one write per line costs a system call. */
const batchBytes = 1024 * 1024;

/** A stream's copy, and where what is written of it ends. */
type SpoolFile = {fd: number; path: string; end: number};

export class Spool {
	readonly directory: string;
	readonly #files = new Map<string, SpoolFile>();
	readonly #onExit = () => this.remove();
	#pending: {file: SpoolFile; start: number; pieces: string[]; bytes: number} | undefined;
	#removed = false;
	#failed = false;

	constructor(parent: string = tmpdir()) {
		this.directory = mkdtempSync(join(parent, 'perscope-spool-'));
		process.once('exit', this.#onExit);
	}

	/**
	 * Keeps the line of `source` at byte `offset` of it; false when the copy cannot be written (a full disk, a
	 * file that could not be made): from then on nothing more is copied, and the caller keeps the line itself.
	 */
	write(source: string, offset: number, text: string): boolean {
		if (this.#removed || this.#failed) return false;
		const file = this.#fileOf(source);
		if (!file) return false;
		// Bytes of the stream no line was written over (a line's \r, a byte-order mark, a blank line, a line too long to
		// keep) would be zeros in the copy, stuck to the next line: spaces and a line break instead, so that whoever
		// reads the copy whole (a Claude Code transcript piped in) reads its lines as the stream had them.
		const gap = offset - file.end;
		const line = gap > 0 && offset > 0 ? `${' '.repeat(gap - 1)}\n${text}\n` : `${text}\n`;
		const from = gap > 0 && offset > 0 ? file.end : offset;
		const pending = this.#pending;
		if (pending && (pending.file !== file || pending.start + pending.bytes !== from || pending.bytes >= batchBytes)) this.flush();
		const bytes = Buffer.byteLength(line);
		file.end = Math.max(file.end, from + bytes);
		if (this.#pending) {
			this.#pending.pieces.push(line);
			this.#pending.bytes += bytes;
		} else {
			this.#pending = {file, start: from, pieces: [line], bytes};
		}

		return !this.#failed;
	}

	/** Whether copying failed: lines written before stay readable, later ones were not copied. */
	get failed(): boolean {
		return this.#failed;
	}

	/** The file that holds the lines of `source`, with everything written so far in it; undefined for a source never written. */
	pathOf(source: string): string | undefined {
		const file = this.#files.get(source);
		if (!file) return undefined;
		this.flush();
		return file.path;
	}

	flush(): void {
		const pending = this.#pending;
		this.#pending = undefined;
		if (!pending || this.#removed || this.#failed) return;
		try {
			writeSync(pending.file.fd, pending.pieces.join(''), pending.start, 'utf8');
		} catch {
			this.#failed = true;
		}
	}

	/** Removes the copies; nothing is kept after this. */
	remove(): void {
		if (this.#removed) return;
		this.#removed = true;
		this.#pending = undefined;
		process.removeListener('exit', this.#onExit);
		for (const file of this.#files.values()) {
			try {
				closeSync(file.fd);
			} catch {
				// Already closed: the copy goes with the directory anyway.
			}
		}

		this.#files.clear();
		rmSync(this.directory, {recursive: true, force: true});
	}

	#fileOf(source: string): SpoolFile | undefined {
		let file = this.#files.get(source);
		if (!file) {
			const path = join(this.directory, `${this.#files.size}.ndjson`);
			try {
				file = {fd: openSync(path, 'w+', 0o600), path, end: 0};
			} catch {
				this.#failed = true;
				return undefined;
			}

			this.#files.set(source, file);
		}

		return file;
	}
}
