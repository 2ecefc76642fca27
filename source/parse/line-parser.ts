import type {EventRef} from '../model/events.js';
import type {ParsedItem} from './dialects/stream-dialect.js';
import {readLine, type ParseOptions} from './normalise.js';
import {HistoryPruner, minPrunedLineBytes} from './prune-line.js';
import {StreamLines, type StreamFields} from './stream-line.js';

/*
 * The one way a line becomes what the reducer takes, for every mode and thread: the loader of lines as they
 * come (load/ingest.ts: stdin, commands, followed, compressed and job files) and the parallel loader of plain
 * files (load/parse-chunk.ts, in workers too). A streaming line in the runtime's own form is read from its
 * bytes (stream-line.ts), a long line has its message histories cut before JSON.parse sees it (prune-line.ts),
 * and anything else, or anything either of those is unsure of, is parsed whole (normalise.ts). All three give
 * the same event for the same line; only the cost differs.
 */

/** Where a parsed line goes. */
export type ParsedSink = {
	/** An event, a diagnostic, or a record for its stream's reader (stream-readers.ts). */
	item(parsed: ParsedItem): void;
	/**
	 * A streaming line, as its fields: its event is `streamEvent(fields, ref)`. The parallel loader sends these
	 * between threads as fields, which costs far less than an event object.
	 */
	stream(fields: StreamFields, ref: EventRef): void;
};

/**
 * Parses lines, keeping what it learns from one line to the next (histories already validated, how streaming
 * lines are laid out). What it keeps is about the bytes alone, so one parser serves any number of sources.
 */
export class LineParser {
	readonly #options: ParseOptions;
	readonly #pruner = new HistoryPruner();
	readonly #streams = new StreamLines();
	/**
	 * The source whose last line was another dialect's, read per stream (an agent CLI's): its lines skip the
	 * Perstack streaming lane and the history cutter, which would only look and hand the line on. The same event
	 * comes either way; an event line of that source (a Perstack one) is read whole, and the source is looked at again.
	 */
	#otherDialectSource: string | undefined;

	constructor(options: ParseOptions) {
		this.#options = options;
	}

	/** The line `bytes[start, end)` (newline and carriage return already removed, not blank), from `ref`. */
	parse(bytes: Buffer, start: number, end: number, ref: EventRef, sink: ParsedSink): void {
		// The plain way (PERSCOPE_FAST=0) is the reference the other ways are compared with. The fast ways read
		// Perstack's lines: with another dialect forced (`--dialect`), every line is taken whole.
		const forced = this.#options.dialect;
		if (!this.#options.fast || (forced !== undefined && forced !== 'perstack')) {
			sink.item(this.#whole(bytes, start, end, ref));
			return;
		}

		if (ref.source === this.#otherDialectSource) {
			const item = this.#whole(bytes, start, end, ref);
			if (item.kind === 'event') this.#otherDialectSource = undefined;
			sink.item(item);
			return;
		}

		if (end - start < minPrunedLineBytes) {
			const fields = this.#streams.match(bytes, start, end, ref);
			if (fields) sink.stream(fields, ref);
			else sink.item(this.#wholeNoting(bytes, start, end, ref));
			return;
		}

		const pruned = this.#pruner.prune(bytes, start, end);
		if (pruned) {
			const parsed = readLine({source: ref.source, line: ref.line, offset: ref.offset, text: pruned.text}, this.#options);
			// Anything but the expected event (a diagnostic, another type) is judged on the whole line instead.
			if (parsed.kind === 'event' && parsed.event.dialect === 'perstack' && parsed.event.wireType === pruned.type) {
				sink.item(parsed);
				return;
			}
		}

		sink.item(this.#wholeNoting(bytes, start, end, ref));
	}

	/** The line read whole, noting whether its source is another dialect's (`#otherDialectSource`). */
	#wholeNoting(bytes: Buffer, start: number, end: number, ref: EventRef): ParsedItem {
		const item = this.#whole(bytes, start, end, ref);
		if (item.kind === 'record') this.#otherDialectSource = ref.source;
		return item;
	}

	#whole(bytes: Buffer, start: number, end: number, ref: EventRef): ParsedItem {
		// Invalid UTF-8 becomes U+FFFD rather than throwing; the line is then judged as JSON.
		return readLine({source: ref.source, line: ref.line, offset: ref.offset, text: bytes.toString('utf8', start, end)}, this.#options);
	}
}
