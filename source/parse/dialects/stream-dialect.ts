import type {Diagnostic, Dialect, EventRef, ParsedLine} from '../../model/events.js';

/*
 * A dialect read per stream rather than per line. Agent CLIs' streams (Claude Code, Codex, Gemini CLI, …) say
 * little on each line: which run a line belongs to, whether a usage was counted already, which call a result
 * answers, are known only from the lines before it. Their lines are parsed as JSON anywhere (a chunk worker
 * too) and handed on as records; each stream's records then go, in line order, to one reader of the stream's
 * dialect, which keeps what it needs from line to line and makes the events of the one internal shape.
 */

/** A line of a dialect read per stream: its JSON object, as `readLine` (normalise.ts) hands it on. */
export type WireRecord = {
	kind: 'record';
	value: Record<string, unknown>;
	ref: EventRef;
	/** Something wrong with the line that did not cost its record (text before the JSON), reported like a bad line. */
	note?: Diagnostic;
};

/** What a line is once parsed: an event or a diagnostic (read line by line), or a record for its stream's reader. */
export type ParsedItem = ParsedLine | WireRecord;

/** Where a reader puts what a line makes: none, one or several events and diagnostics, in order. */
export type ParsedOut = (parsed: ParsedLine) => void;

/** The reader of one stream: what it keeps between lines is that stream's alone. */
export type StreamReader = {
	/** One line of the stream, in line order. */
	read(record: WireRecord, out: ParsedOut): void;
};

export type ReaderOptions = {
	/**
	 * The clock of a live stream (epoch ms), for a dialect whose lines carry no time (Codex): its events are stamped
	 * with their arrival. None for a file, whose lines did not arrive as they happened.
	 */
	now?: (() => number) | undefined;
};

export type StreamDialect = {
	readonly name: Dialect;
	/**
	 * Whether a line, of a stream whose dialect is not known yet, is surely of this dialect: the first line some
	 * dialect recognises decides the stream's. Asked in the registry's order (registry.ts).
	 */
	recognises(value: Record<string, unknown>): boolean;
	/** A new reader, for one stream. */
	reader(options?: ReaderOptions): StreamReader;
	/**
	 * The readers of one load's streams, when they share what spans streams (a log split over several files is one
	 * stream read in pieces: a run one file leaves open goes on in the next). Called once per load; without it
	 * each stream's reader is `reader`'s alone.
	 */
	readers?(): (options: ReaderOptions) => StreamReader;
};
