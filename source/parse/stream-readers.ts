import type {Dialect, ParsedLine} from '../model/events.js';
import {streamDialects} from './dialects/registry.js';
import type {ParsedOut, ReaderOptions, StreamDialect, StreamReader, WireRecord} from './dialects/stream-dialect.js';
import {unknownEvent, untypedLine} from './normalise.js';

export type {ArrivalClock} from './dialects/stream-dialect.js';

/*
 * The readers of the streams whose lines are records (dialects/stream-dialect.ts). Each source is a stream of one
 * dialect, told from the first of its lines that a dialect recognises (or forced with `--dialect`), and its lines
 * go to that dialect's reader. There is one reader per dialect, whatever the number of sources: what a reader
 * keeps is keyed by what the lines name (sessions, calls, responses), so a stream cut into several files reads as
 * it does whole, and streams read together (two sessions, two processes of one session) stay apart. Records must
 * come in line order per source; sources may interleave. Files are read one after another, so a file that begins
 * with lines no dialect is sure of (a Codex stream cut before its `error` lines) reads them in the dialect of the
 * file before it, as the same bytes in one file would be read.
 */
export class StreamReaders {
	/** The dialect `--dialect` names, when it is read per stream; else undefined, and `#dialects` are asked. */
	readonly #forced: StreamDialect | undefined;
	readonly #dialects: readonly StreamDialect[];
	/** Per source, its dialect once known. */
	readonly #dialectOf = new Map<string, StreamDialect>();
	/** The dialect a source was last told to be of: where a line of an undecided source that none is sure of goes. */
	#lastDecided: StreamDialect | undefined;
	/** Per dialect, its one reader. */
	readonly #readers = new Map<StreamDialect, StreamReader>();

	/** A live source's clock, for dialects that stamp events as they arrive, and whether the fast readers read. */
	readonly #options: ReaderOptions;

	/** `dialects`: the registry's, unless a test gives its own. */
	constructor(forced: Dialect | undefined, dialects: readonly StreamDialect[] = streamDialects, options: ReaderOptions = {}) {
		this.#dialects = dialects;
		this.#options = options;
		this.#forced = forced === undefined ? undefined : dialects.find(dialect => dialect.name === forced);
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {source} = record.ref;
		let dialect = this.#dialectOf.get(source);
		if (dialect === undefined) {
			dialect = this.#forced ?? this.#dialects.find(candidate => candidate.recognises(record.value));
			if (dialect === undefined) {
				// No dialect is sure of the line (a Codex `error`, which Gemini CLI writes too). A stream cut into
				// several files reads as it does whole: the line goes to the dialect of the source decided last, as it
				// would in one file. The source stays undecided, so that its first line a dialect is sure of decides it.
				if (this.#lastDecided === undefined) {
					// No dialect at all yet: kept as an unknown event, as any line of a type perscope does not know.
					out(unknownEvent(record));
					return;
				}

				this.#readerOf(this.#lastDecided).read(record, out);
				return;
			}

			this.#dialectOf.set(source, dialect);
			this.#lastDecided = dialect;
		}

		// A line with no type is read only by a dialect that knows it as its own (untyped.ts); in another's stream it
		// is the bad line it is. A dialect forced with --dialect reads every line.
		if (this.#forced === undefined && record.value['type'] === undefined && !dialect.recognises(record.value)) {
			out(untypedLine(record));
			return;
		}

		this.#readerOf(dialect).read(record, out);
	}

	/** The source has ended: its dialect's reader settles what it held back (StreamReader.endOfSource). */
	endOfSource(source: string, out: ParsedOut): void {
		const dialect = this.#dialectOf.get(source);
		if (dialect) this.#readers.get(dialect)?.endOfSource?.(source, out);
	}

	#readerOf(dialect: StreamDialect): StreamReader {
		let reader = this.#readers.get(dialect);
		if (reader === undefined) {
			reader = dialect.reader(this.#options);
			this.#readers.set(dialect, reader);
		}

		return reader;
	}
}

/**
 * What one record makes when read on its own, by a new reader of the dialect that recognises it (re-reading a
 * line for the inspector): what needs the lines before it is missing.
 */
export function readAlone(record: WireRecord, forced: Dialect | undefined): ParsedLine[] {
	const made: ParsedLine[] = [];
	new StreamReaders(forced).read(record, parsed => made.push(parsed));
	return made;
}
