import {closeSync, fstatSync, readSync} from 'node:fs';
import {join} from 'node:path';
import {isSubagentFile, transcriptLineTime} from '../parse/dialects/claude-code/session-files.js';
import type {LineSplitter} from '../parse/line-splitter.js';
import {followPollMs, onceCaughtUp, setFlag, type FileProgress} from './file-reading.js';
import {describeFsError, isMissing} from './fs-errors.js';
import {namesIn, openRegularFileSync} from './regular-file.js';
import {Wakeup, watchPath} from './wakeup.js';

export type SessionReading = SessionFilesOf & {
	follow: boolean;
	signal: AbortSignal;
	progress: FileProgress;
	afterChunk: () => Promise<void>;
	changed: () => void;
	caughtUp: () => void;
};

const chunkBytes = 64 * 1024;
/** Bytes of lines fed between two `afterChunk` calls. */
const bytesPerTurn = 1024 * 1024;
/** A line longer than this is fed as it is read, not held for its place in time (its order is then the file's). */
const maxHeldLineBytes = 4 * 1024 * 1024;

/** One file of the session: what is read of it and not yet fed, a line at a time. */
class Member {
	readonly lines: Buffer[] = [];
	/** Bytes after the last newline read: the start of a line still being written. */
	tail: Buffer = Buffer.alloc(0);
	offset = 0;
	size = 0;
	/** The time of the line fed last, which a line without one is taken to share. */
	lastTime = Number.NEGATIVE_INFINITY;
	headTime: number | undefined;
	/** Read to its end in this pass: not looked at again until the next. */
	drained = false;

	constructor(
		readonly fd: number,
		readonly splitter: LineSplitter,
	) {}

	/** Reads on until it holds a whole line, or has read all there is now. */
	fill(buffer: Buffer): void {
		while (this.lines.length === 0 && !this.drained) {
			if (this.offset >= this.size) this.size = fstatSync(this.fd).size;
			const read = this.offset < this.size ? readSync(this.fd, buffer, 0, Math.min(buffer.length, this.size - this.offset), this.offset) : 0;
			if (read === 0) {
				this.drained = true;
				return;
			}

			this.offset += read;
			this.#take(buffer.subarray(0, read));
		}
	}

	#take(bytes: Buffer): void {
		let from = 0;
		for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, from)) {
			const piece = bytes.subarray(from, newline + 1);
			this.lines.push(this.tail.length === 0 ? Buffer.from(piece) : Buffer.concat([this.tail, piece]));
			this.tail = Buffer.alloc(0);
			from = newline + 1;
		}

		if (from === bytes.length) return;
		this.tail = Buffer.concat([this.tail, bytes.subarray(from)]);
		if (this.tail.length > maxHeldLineBytes && this.lines.length === 0) {
			this.splitter.push(this.tail);
			this.tail = Buffer.alloc(0);
		}
	}

	time(): number {
		this.headTime ??= transcriptLineTime(this.lines[0]!.toString('utf8')) ?? this.lastTime;
		return this.headTime;
	}

	feed(): number {
		this.lastTime = this.time();
		this.headTime = undefined;
		const line = this.lines.shift()!;
		this.splitter.push(line);
		return line.length;
	}

	end(): void {
		if (this.tail.length > 0) this.splitter.push(this.tail);
		this.tail = Buffer.alloc(0);
		this.splitter.end();
		closeSync(this.fd);
	}
}

/** What a session's files are read with: where they are, and where their lines and problems go. */
export type SessionFilesOf = {
	/** The session's transcript, and what its lines are attributed to. */
	path: string;
	label: string;
	/** The folder its sub-agents' transcripts are written to (there or not yet); undefined for none. */
	subagents: string | undefined;
	/** Files of its sub-agents named one by one (a Codex session's sub-agents' rollouts). */
	companions?: readonly string[] | undefined;
	/** Files of its sub-agents found since, looked for at each look at the folder (a followed Codex session's). */
	companionsSince?: (() => readonly string[]) | undefined;
	splitterFor: (source: string) => LineSplitter;
	/** A sub-agent's file that could not be read (the session's own is thrown). */
	problem: (source: string, reason: string) => void;
};

/**
 * A Claude Code session's transcript with its sub-agents' (parse/dialects/claude-code/session-files.ts), fed as one
 * stream in the order its lines were written: each file is a source of its own, and the next line fed is the earliest
 * of the lines the files hold next (the session's first when two say the same time), so that a sub-agent's steps
 * come between its call and its answer, as they happened. This part waits for nothing: readSession reads with it,
 * and follows; the job listing reads a session with it a slice at a time (load/job-listing.ts).
 */
export class SessionFiles {
	readonly #files: SessionFilesOf;
	readonly #members: Member[] = [];
	readonly #known = new Set<string>();
	readonly #buffer = Buffer.allocUnsafe(chunkBytes);

	constructor(files: SessionFilesOf) {
		this.#files = files;
	}

	get opened(): boolean {
		return this.#members.length > 0;
	}

	/** Bytes read from the files so far. */
	get bytesRead(): number {
		return this.#members.reduce((sum, member) => sum + member.offset, 0);
	}

	/** Opens the session's transcript (once); returns its size. Throws as openRegularFileSync does. */
	openSession(): number {
		const {path, label} = this.#files;
		const file = openRegularFileSync(path);
		this.#members.push(new Member(file.fd, this.#files.splitterFor(label)));
		return file.size;
	}

	/** Opens the sub-agents' files not opened before; returns their sizes together. */
	openSubagents(): number {
		const {subagents, companions = [], companionsSince} = this.#files;
		// Not there (yet): a session that started no sub-agent has no folder.
		const names = subagents === undefined ? [] : namesIn(subagents).filter(isSubagentFile);

		let bytes = 0;
		for (const source of [...names.map(name => join(subagents ?? '', name)), ...companions, ...(companionsSince?.() ?? [])]) {
			if (this.#known.has(source)) continue;
			this.#known.add(source);
			try {
				const file = openRegularFileSync(source);
				this.#members.push(new Member(file.fd, this.#files.splitterFor(source)));
				bytes += file.size;
			} catch (error) {
				this.#files.problem(source, describeFsError(error));
			}
		}

		return bytes;
	}

	/** Starts a pass over what the files hold now: each is read to its end again, from where it was. */
	startPass(): void {
		for (const member of this.#members) member.drained = false;
	}

	/** Feeds lines in their order until `budget` bytes were fed or the pass has no line left; returns the bytes fed. */
	feed(budget: number): number {
		let fed = 0;
		while (fed < budget) {
			let next: Member | undefined;
			for (const member of this.#members) {
				member.fill(this.#buffer);
				if (member.lines.length > 0 && (next === undefined || member.time() < next.time())) next = member;
			}

			if (next === undefined) break;
			fed += next.feed();
		}

		return fed;
	}

	/** Feeds what is left of each file's last line, ends its source and closes it. */
	end(): void {
		for (const member of this.#members) member.end();
	}
}

/**
 * Reads a Claude Code session as SessionFiles feeds it. When following, the files are read on as they grow and the
 * folder is looked at again for sub-agents started since, every `followPollMs` (sooner when the session's file
 * changes); lines written meanwhile are put in order among themselves.
 */
export async function readSession(reading: SessionReading): Promise<void> {
	const {follow, signal, progress} = reading;
	const session = new SessionFiles(reading);
	const wakeup = new Wakeup();
	const unwatch = follow ? watchPath(reading.path, wakeup) : () => undefined;
	const catchUp = onceCaughtUp(reading);

	const openSession = (): boolean => {
		if (session.opened) return true;
		try {
			progress.bytesTotal = session.openSession();
			return true;
		} catch (error) {
			if (follow && isMissing(error)) return false;
			throw error;
		}
	};

	const noteProgress = () => {
		progress.bytesRead = session.bytesRead;
		if (progress.bytesTotal === undefined || progress.bytesTotal < progress.bytesRead) progress.bytesTotal = progress.bytesRead;
	};

	const feedInOrder = async () => {
		session.startPass();
		while (!signal.aborted && session.feed(bytesPerTurn) >= bytesPerTurn) {
			noteProgress();
			await reading.afterChunk();
		}

		noteProgress();
		await reading.afterChunk();
	};

	try {
		while (!signal.aborted) {
			if (!openSession()) {
				setFlag(reading, 'waiting', true);
				catchUp();
				await wakeup.wait(followPollMs, signal);
				continue;
			}

			setFlag(reading, 'waiting', false);
			progress.bytesTotal = (progress.bytesTotal ?? 0) + session.openSubagents();
			await feedInOrder();
			catchUp();
			if (!follow) break;
			setFlag(reading, 'following', true);
			await wakeup.wait(followPollMs, signal);
		}
	} finally {
		unwatch();
		progress.following = false;
		progress.waiting = false;
		// A last line without a newline is an event too once nothing more will be appended to it.
		session.end();
	}

	await reading.afterChunk();
}
