import type {LineSplitter} from '../parse/line-splitter.js';

/* A regular file being read (follow-file.ts, follow-rewritten.ts): what its reader is given, and what it reports. */

export type FileProgress = {
	bytesRead: number;
	bytesTotal: number | undefined;
	following: boolean;
	waiting: boolean;
};

export type FileReading = {
	path: string;
	/** What lines are attributed to; after a truncation or rotation it gets a `(#2)`, `(#3)`… suffix. */
	label: string;
	follow: boolean;
	/** A file its writer writes again whole (the plan's `rewritten`): followed, it is read by follow-rewritten.ts. */
	rewritten?: boolean;
	signal: AbortSignal;
	progress: FileProgress;
	splitterFor: (source: string) => LineSplitter;
	afterChunk: () => Promise<void>;
	changed: () => void;
	/** Called once, when what the file held at the start has been read (or it was found missing while following). */
	caughtUp: () => void;
};

/** `caughtUp` as a reader calls it: at most once, whichever of its ways of reading (or of its readers) gets there. */
export function onceCaughtUp(reading: Pick<FileReading, 'caughtUp'>): () => void {
	let told = false;
	return () => {
		if (told) return;
		told = true;
		reading.caughtUp();
	};
}

/** How often a followed file is checked when no file-system event says it changed. */
export const followPollMs = 250;

/** Sets one of the reading's flags, telling its watcher when it changed. */
export function setFlag(reading: Pick<FileReading, 'progress' | 'changed'>, flag: 'following' | 'waiting', value: boolean): void {
	if (reading.progress[flag] === value) return;
	reading.progress[flag] = value;
	reading.changed();
}
