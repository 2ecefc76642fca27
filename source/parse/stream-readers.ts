import type {Dialect, ParsedLine} from '../model/events.js';
import {streamDialects} from './dialects/registry.js';
import type {ParsedOut, ReaderOptions, StreamDialect, StreamReader, WireRecord} from './dialects/stream-dialect.js';
import {unknownEvent} from './normalise.js';

/** The clock of a source whose lines arrive as they happen (stdin, a command, a followed file); none for others. */
export type ArrivalClock = (source: string) => (() => number) | undefined;

/*
 * The readers of the streams whose lines are records (dialects/stream-dialect.ts), one per source: a stream is of
 * one dialect, told from the first of its lines that a dialect recognises (or forced with `--dialect`). Records
 * must come in line order per source; sources may interleave.
 */
export class StreamReaders {
	/** The dialect `--dialect` names, when it is read per stream; else undefined, and `#dialects` are asked. */
	readonly #forced: StreamDialect | undefined;
	readonly #dialects: readonly StreamDialect[];
	/** Per source, its reader once its dialect is known. */
	readonly #readers = new Map<string, StreamReader>();

	/** A live source's clock, for dialects that stamp events as they arrive (ReaderOptions). */
	readonly #clockFor: ArrivalClock | undefined;

	/** `dialects`: the registry's, unless a test gives its own. */
	constructor(forced: Dialect | undefined, dialects: readonly StreamDialect[] = streamDialects, clockFor?: ArrivalClock) {
		this.#dialects = dialects;
		this.#clockFor = clockFor;
		this.#forced = forced === undefined ? undefined : dialects.find(dialect => dialect.name === forced);
	}

	/** Per dialect, how its readers are made in this load: sharing what spans streams when the dialect does. */
	readonly #factories = new Map<Dialect, (options: ReaderOptions) => StreamReader>();

	#factory(dialect: StreamDialect): (options: ReaderOptions) => StreamReader {
		let factory = this.#factories.get(dialect.name);
		if (factory === undefined) {
			factory = dialect.readers?.() ?? (options => dialect.reader(options));
			this.#factories.set(dialect.name, factory);
		}

		return factory;
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {source} = record.ref;
		let reader = this.#readers.get(source);
		if (reader === undefined) {
			const dialect = this.#forced ?? this.#dialects.find(candidate => candidate.recognises(record.value));
			// No dialect knows the line (yet): it is kept as an unknown event, as any line of a type perscope does not know.
			if (dialect === undefined) {
				out(unknownEvent(record));
				return;
			}

			reader = this.#factory(dialect)({now: this.#clockFor?.(source)});
			this.#readers.set(source, reader);
		}

		reader.read(record, out);
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
