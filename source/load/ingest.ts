import type {AgentEvent, Diagnostic, Dialect, EventRef, ParsedLine} from '../model/events.js';
import {addDiagnostic, isRepeatedEvent, reduce} from '../model/reduce.js';
import {createModel, type Model} from '../model/state.js';
import {LineParser, type ParsedSink} from '../parse/line-parser.js';
import type {ParseOptions} from '../parse/normalise.js';
import type {ParsedItem} from '../parse/dialects/stream-dialect.js';
import {StreamReaders, type ArrivalClock} from '../parse/stream-readers.js';
import {streamEvent, type StreamFields} from '../parse/stream-line.js';
import {LineSplitter, type Line, type OverlongLine} from '../parse/line-splitter.js';

/**
 * Lines in, model out: the one path every source feeds. It knows nothing of terminals or files.
 */
export class Ingest {
	readonly model: Model;
	readonly #maxLineBytes: number;
	readonly #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
	readonly #onLine: ((line: Line) => void) | undefined;
	readonly #afterEvent: (() => void) | undefined;
	readonly #parser: LineParser;
	readonly #parseOptions: ParseOptions;
	/** The readers of the streams whose lines are records (parse/stream-readers.ts), by source. */
	readonly #streams: StreamReaders;
	/** Jobs whose events are read from two sources (`expectRepeats`). */
	#repeatsExpected: Set<string> | undefined;
	readonly #fromStream = (parsed: ParsedLine) => this.#takeLine(parsed);
	readonly #parsed: ParsedSink = {
		item: parsed => this.#take(parsed),
		stream: (fields, ref) => this.#reduce(streamEvent(fields, ref)),
	};

	/**
	 * `fast` (the default): lines are read the fast ways (parse/line-parser.ts), which give the same events
	 * as the plain one; false (PERSCOPE_FAST=0) reads each the plain way, the reference the fast ones are
	 * tested against.
	 */
	constructor(options: {
		maxLineBytes: number;
		model?: Model;
		onDiagnostic?: (diagnostic: Diagnostic) => void;
		onLine?: (line: Line) => void;
		/**
		 * Called after each event is reduced. A transcript decides what to write here, event by event, so that
		 * what it writes depends on the events alone and never on where a read happened to end.
		 */
		afterEvent?: () => void;
		fast?: boolean;
		/** `--dialect`: every line is read as this dialect's; undefined tells each stream's from its lines. */
		dialect?: Dialect | undefined;
		/** Which sources are live, by the clock that stamps their timeless events (Codex's) as they arrive. */
		arrivalClock?: ArrivalClock | undefined;
	}) {
		this.model = options.model ?? createModel();
		this.#maxLineBytes = options.maxLineBytes;
		this.#onDiagnostic = options.onDiagnostic;
		this.#onLine = options.onLine;
		this.#afterEvent = options.afterEvent;
		this.#parseOptions = {fast: options.fast ?? true, dialect: options.dialect};
		this.#parser = new LineParser(this.#parseOptions);
		this.#streams = new StreamReaders(options.dialect, undefined, {clockFor: options.arrivalClock, fast: this.#parseOptions.fast});
	}

	/** How lines are parsed, for a loader that parses them elsewhere and hands them in with `parsed`. */
	get parseOptions(): ParseOptions {
		return this.#parseOptions;
	}

	get maxLineBytes(): number {
		return this.#maxLineBytes;
	}

	splitter(source: string): LineSplitter {
		return new LineSplitter(
			source,
			{
				lineBytes: (bytes, start, end, ref) => this.lineBytes(bytes, start, end, ref),
				overlong: line => this.overlong(line),
				end: () => this.endSource(source),
			},
			this.#maxLineBytes,
		);
	}

	/** A line as its bytes, `bytes[start, end)` (how the splitters hand lines on): they are parsed as they are. */
	lineBytes(bytes: Buffer, start: number, end: number, ref: EventRef): void {
		if (this.#onLine) this.#onLine({source: ref.source, line: ref.line, offset: ref.offset, text: bytes.toString('utf8', start, end)});
		this.#parser.parse(bytes, start, end, ref, this.#parsed);
	}

	/** A line as its text. */
	line(line: Line): void {
		this.#onLine?.(line);
		const bytes = Buffer.from(line.text, 'utf8');
		this.#parser.parse(bytes, 0, bytes.length, {source: line.source, line: line.line, offset: line.offset}, this.#parsed);
	}

	/**
	 * A line parsed elsewhere (the parallel loader of plain files, load/parallel-file.ts), given in
	 * line order. Its text is not at hand, so `onLine` does not see it: such files are read again by offset.
	 */
	parsed(parsed: ParsedItem): void {
		this.#take(parsed);
	}

	/** A streaming line parsed elsewhere as its fields (the parallel loader's own thread): as `parsed` takes its event. */
	streamLine(fields: StreamFields, ref: EventRef): void {
		this.#reduce(streamEvent(fields, ref));
	}

	/**
	 * The source has ended (a splitter's end, or the parallel loader's at a file's end): a stream's reader settles what
	 * it held back for a line still to come (a Gemini CLI chat's last response: chat-reader.ts).
	 */
	endSource(source: string): void {
		this.#streams.endOfSource(source, this.#fromStream);
	}

	#take(parsed: ParsedItem): void {
		// A record goes to its stream's reader, which hands back what it makes, in order.
		if (parsed.kind !== 'record') {
			this.#takeLine(parsed);
			return;
		}

		if (parsed.note) this.#diagnose(parsed.note);
		this.#streams.read(parsed, this.#fromStream);
	}

	#takeLine(parsed: ParsedLine): void {
		if (parsed.kind === 'event') {
			// A line whose event is read but not all of it (a step number that is not one) is reported as well.
			if (parsed.note) this.#diagnose(parsed.note);
			this.#reduce(parsed.event);
		} else this.#diagnose(parsed.diagnostic);
	}

	/**
	 * The events of this job come twice from here on, and their repeats are let go without a diagnostic: the cockpit
	 * carries on a followed job directory with a command whose output the load reads too.
	 */
	expectRepeats(jobId: string): void {
		(this.#repeatsExpected ??= new Set()).add(jobId);
	}

	#reduce(event: AgentEvent): void {
		if (isRepeatedEvent(this.model, event)) {
			if (this.#repeatsExpected?.has(event.jobId)) return;
			this.#diagnose({line: event.ref.line, source: event.ref.source, reason: `duplicate event: ${event.wireType} ${event.id} was seen before; ignored`});
			return;
		}

		reduce(this.model, event);
		this.#afterEvent?.();
	}

	overlong(line: OverlongLine): void {
		this.#diagnose({
			line: line.line,
			source: line.source,
			reason: `line of ${line.bytes} bytes is over the --max-line-bytes limit of ${this.#maxLineBytes}; skipped`,
		});
	}

	/** A problem with the input itself (a source that failed), as opposed to one line. */
	sourceProblem(source: string, reason: string): void {
		this.#diagnose({line: 0, source, reason});
	}

	#diagnose(diagnostic: Diagnostic): void {
		addDiagnostic(this.model, diagnostic);
		this.#onDiagnostic?.(diagnostic);
	}
}
