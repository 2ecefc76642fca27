import {closeSync, openSync, readSync} from 'node:fs';
import {normalize, sep} from 'node:path';
import type {EventRef} from '../../model/events.js';
import {flattenLineBreaks} from '../job/event-file.js';
import {assertNever} from '../../model/assert-never.js';
import type {InputPlan} from '../inputs.js';
import type {Line} from '../../parse/line-splitter.js';
import {Spool} from './spool.js';
import {readRegularFileSync} from '../regular-file.js';

/**
 * Raw event JSON for the inspector, without keeping every line in memory: lines of plain files are read
 * again at their byte offset, events of a job directory from their own file; lines of stdin and of a
 * command are copied to a spool file (spool.ts) when one is asked for and read again from it; lines from
 * other streams (a .gz, a followed file that may be truncated or rotated) are kept in a bounded buffer of
 * the most recent ones.
 */
export class RawEvents {
	readonly #seekable = new Map<string, string>();
	/** Folders (with a trailing separator) whose files are sources read again by offset at their own path: a session's sub-agents'. */
	readonly #seekableFolders: string[] = [];
	/**
	 * Files followed (`-f`): not read again by offset line by line (a file truncated or rotated meanwhile has other
	 * bytes there), but a reader that checks what it finds (a transcript's conversation) may read them whole.
	 */
	readonly #followed = new Map<string, string>();
	readonly #followedFolders: string[] = [];
	/** Plain files that are one JSON document (a chat Gemini CLI kept before 0.40): read again whole, never by a line's offset. */
	readonly #documents = new Map<string, string>();
	/** Job directories (with a trailing separator): each event of theirs is a whole file, named by its source. */
	readonly #eventDirectories: string[] = [];
	readonly #spooled = new Set<string>();
	readonly #spoolWanted: boolean;
	/** Made when the plan has a stream to copy: most plans have none. */
	#spool: Spool | undefined;
	readonly #recent = new Map<string, string>();
	readonly #maxBytes: number;
	#bytes = 0;

	/** `spool`: copy stdin and commands to a temporary file (removed by `close`, or as the process exits). */
	constructor(options: {maxBytes?: number; spool?: boolean} = {}) {
		this.#maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
		this.#spoolWanted = options.spool ?? false;
	}

	/** Where the copies of spooled streams are, if anywhere. */
	get spoolDirectory(): string | undefined {
		return this.#spool?.directory;
	}

	/**
	 * Whether every line of the plan can be read again at any time (plain files not followed, job directories,
	 * spooled streams): only then may the model keep less than a whole event and rely on reading it again.
	 */
	readsEveryLineAgain(plan: InputPlan): boolean {
		return plan.inputs.every(input => {
			switch (input.kind) {
				case 'job':
					return true;
				case 'file':
					return !plan.follow && input.form.kind === 'plain';
				case 'session':
					return !plan.follow;
				case 'stdin':
				case 'command':
					// Known once the plan was added (addPlan): whether a spool could be made for it.
					return this.#spooled.has(input.label);
				default:
					return assertNever(input);
			}
		});
	}

	/** Removes the spool's copies: nothing of the streams can be read again after this. */
	close(): void {
		this.#spool?.remove();
	}

	/** Declares that every line whose source is a file under `directory` is that whole file. */
	addEventDirectory(directory: string): void {
		this.#eventDirectories.push(normalize(directory + sep));
	}

	/**
	 * Declares whatever the plan's inputs allow: plain files not followed are read again by offset (a FIFO or a
	 * device cannot be, a compressed file only from its start), job directories hold event files.
	 */
	addPlan(plan: InputPlan): void {
		for (const input of plan.inputs) {
			if (input.kind === 'job') this.addEventDirectory(input.path);
			else if (input.kind === 'file' && !plan.follow && input.form.kind === 'plain') this.#seekable.set(input.label, input.path);
			else if (input.kind === 'file' && !plan.follow && input.form.kind === 'json') this.#documents.set(input.label, input.path);
			else if (input.kind === 'session' && !plan.follow) {
				this.#seekable.set(input.label, input.path);
				if (input.subagents !== undefined) this.#seekableFolders.push(normalize(input.subagents + sep));
				for (const file of input.companions ?? []) this.#seekable.set(file, file);
			} else if (plan.follow && input.kind === 'file') this.#followed.set(input.label, input.path);
			else if (plan.follow && input.kind === 'session') {
				this.#followed.set(input.label, input.path);
				if (input.subagents !== undefined) this.#followedFolders.push(normalize(input.subagents + sep));
				for (const file of input.companions ?? []) this.#followed.set(file, file);
				// The rollouts of sub-agents found as it is read: a line's source there is one of them.
				for (const folder of input.companionFolders ?? []) this.#followedFolders.push(normalize(folder + sep));
			} else if ((input.kind === 'stdin' || input.kind === 'command') && this.#spoolWanted) this.#spoolStream(input.label);
		}
	}

	#spoolStream(label: string): void {
		try {
			this.#spool ??= new Spool();
		} catch {
			// No temporary directory to copy to: the stream's lines are kept in the bounded buffer instead.
			return;
		}

		this.#spooled.add(label);
	}

	remember(line: Line): void {
		if (this.#pathOf(line.source) !== undefined || this.#isEventFile(line.source)) return;
		// Should the copy fail (a full disk), the lines from then on go to the bounded buffer.
		if (this.#spool && this.#spooled.has(line.source) && this.#spool.write(line.source, line.offset, line.text)) return;

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
		const recent = this.#recent.get(`${ref.source}\u0000${ref.line}`);
		if (recent !== undefined) return recent;
		const path = this.#pathOf(ref.source) ?? (this.#spooled.has(ref.source) ? this.#spool?.pathOf(ref.source) : undefined);
		if (path === undefined) return undefined;
		try {
			return readLineAt(path, ref.offset);
		} catch {
			return undefined;
		}
	}

	/**
	 * The file a source's lines can be read again from by offset (the file itself, or the copy of a stream), if
	 * there is one: for a reader that needs many of its lines (a Claude Code transcript's conversation).
	 */
	fileOf(source: string): string | undefined {
		if (this.#isEventFile(source)) return undefined;
		const followed = this.#followed.get(source) ?? (this.#followedFolders.some(folder => normalize(source).startsWith(folder)) ? source : undefined);
		return this.#pathOf(source) ?? followed ?? (this.#spooled.has(source) ? this.#spool?.pathOf(source) : undefined);
	}

	/**
	 * The file a source that is one JSON document was read from, or the copy of a stream (which keeps the document as
	 * one line): for a reader that reads the document whole.
	 */
	documentOf(source: string): string | undefined {
		return this.#documents.get(source) ?? (this.#spooled.has(source) ? this.#spool?.pathOf(source) : undefined);
	}

	/** The file a source's lines are read again from by offset, if it is one. */
	#pathOf(source: string): string | undefined {
		return this.#seekable.get(source) ?? (this.#seekableFolders.some(folder => normalize(source).startsWith(folder)) ? source : undefined);
	}

	/** Whether lines of `source` are whole event files of a job directory. */
	isEventFile(source: string): boolean {
		return this.#isEventFile(source);
	}

	#isEventFile(source: string): boolean {
		return this.#eventDirectories.some(directory => source.startsWith(directory));
	}
}

const maxRawLineBytes = 64 * 1024 * 1024;

function readEventFile(path: string): string | undefined {
	try {
		// Read on the viewer's thread: a FIFO or a device in the file's place must not hold it (regular-file.ts).
		const bytes = readRegularFileSync(path, maxRawLineBytes);
		if (bytes === undefined) return undefined;
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
