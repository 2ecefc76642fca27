import type {Diagnostic, Dialect, EventRef, ParsedLine} from '../../model/events.js';

/*
 * A dialect read per stream rather than per line. Agent CLIs' streams (Claude Code, Codex, Gemini CLI, …) say
 * little on each line: which run a line belongs to, whether a usage was counted already, which call a result
 * answers, are known only from the lines before it. Their lines are parsed as JSON anywhere (a chunk worker
 * too) and handed on as records; each stream's records then go, in line order, to the reader of the stream's
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

/**
 * Where a reader puts what a line makes, in order: a diagnostic, or one or several events. The model counts a
 * line as one event (`Model.events`, what the fuzz test and the bench hold to the lines read): a line's second
 * and later events carry `continuesLine: true`, and a line with nothing to show makes a `marker`.
 */
export type ParsedOut = (parsed: ParsedLine) => void;

/**
 * The reader of a dialect's streams: one reads every stream of its dialect (stream-readers.ts), each stream's
 * lines in line order, streams possibly interleaved. What it keeps between lines it keys by what the lines name
 * (a session, a call, a response), or by the record's source where only the stream says it.
 */
export type StreamReader = {
	read(record: WireRecord, out: ParsedOut): void;
	/**
	 * The source has ended (a file read to its end, a pipe or a command closed, a followed file read no further when the
	 * reading stops; never while it is followed): what the reader held back for a line still to come is settled now, as
	 * the last state a person sees. Its events continue the source's last line.
	 */
	endOfSource?(source: string, out: ParsedOut): void;
};

/** The clock of a source whose lines arrive as they happen (stdin, a command, a followed file); none for others. */
export type ArrivalClock = (source: string) => (() => number) | undefined;

export type ReaderOptions = {
	/**
	 * Each live source's clock (epoch ms), for a dialect whose lines carry no time (Codex): its events are stamped
	 * with their arrival. None for a file, whose lines did not arrive as they happened.
	 */
	clockFor?: ArrivalClock | undefined;
	/**
	 * false (PERSCOPE_FAST=0): every line is validated by its dialect's zod schema rather than read by the dialect's
	 * fast reader, which gives the same (the reference the tests hold the fast readers to). True when not given.
	 */
	fast?: boolean | undefined;
};

export type StreamDialect = {
	readonly name: Dialect;
	/**
	 * Whether a line, of a stream whose dialect is not known yet, is surely of this dialect: the first line some
	 * dialect recognises decides the stream's. Asked in the registry's order (registry.ts).
	 */
	recognises(value: Record<string, unknown>): boolean;
	/** A new reader, for the streams of one load. */
	reader(options?: ReaderOptions): StreamReader;
};

/**
 * A line a reader made no event of its own for: a type it does not know (`unknown`), or a known one that had
 * nothing to show (`marker`, so that the line still counts as one event). It belongs to `run` when the reader
 * knows the stream's run, else to no run.
 */
export function lineOnlyEvent(
	kind: 'unknown' | 'marker',
	dialect: Dialect,
	wireType: string,
	ref: EventRef,
	run?: {jobId: string; runId: string},
	timestamp?: number,
): ParsedLine {
	return {
		kind: 'event',
		event: {
			kind,
			dialect,
			wireType,
			id: `${ref.source}:${ref.line}`,
			jobId: run?.jobId ?? '',
			runId: run?.runId ?? '',
			expertKey: undefined,
			step: undefined,
			timestamp,
			agent: undefined,
			ref,
		},
	};
}
