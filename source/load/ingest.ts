import type {AgentEvent, Diagnostic, ParsedLine} from '../model/events.js';
import {parseLine} from '../parse/normalise.js';
import {addDiagnostic, isRepeatedEvent, reduce} from '../model/reduce.js';
import {createModel, type Model} from '../model/state.js';
import {streamEvent, StreamLines} from '../parse/stream-line.js';
import {LineSplitter, type Line, type OverlongLine} from '../parse/line-splitter.js';

const maxStreamLineLength = 2048;

/**
 * Lines in, model out: the one path every source feeds. It knows nothing of terminals or files.
 */
export class Ingest {
	readonly model: Model;
	readonly #maxLineBytes: number;
	readonly #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
	readonly #onLine: ((line: Line) => void) | undefined;
	readonly #afterEvent: (() => void) | undefined;
	/** The streaming lines' reader and the buffer a line's text is written back into for it. */
	readonly #streamLane: {lines: StreamLines; bytes: Buffer} | undefined;

	/**
	 * `streamLines`: read streaming lines (most of a live run) from their bytes, the way the fast path
	 * reads files (model/stream-line.ts), instead of JSON.parse and the schema. It gives the same events;
	 * the plain path stays as the reference the fast ones are tested against. PERSCOPE_FAST=0 turns it off.
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
		streamLines?: boolean;
	}) {
		this.model = options.model ?? createModel();
		this.#maxLineBytes = options.maxLineBytes;
		this.#onDiagnostic = options.onDiagnostic;
		this.#onLine = options.onLine;
		this.#afterEvent = options.afterEvent;
		// A UTF-16 unit of the text is at most three bytes of UTF-8.
		this.#streamLane = options.streamLines && process.env['PERSCOPE_FAST'] !== '0' ? {lines: new StreamLines(), bytes: Buffer.allocUnsafe(3 * maxStreamLineLength)} : undefined;
	}

	get maxLineBytes(): number {
		return this.#maxLineBytes;
	}

	splitter(source: string): LineSplitter {
		return new LineSplitter(source, {line: line => this.line(line), overlong: line => this.overlong(line)}, this.#maxLineBytes);
	}

	line(line: Line): void {
		this.#onLine?.(line);
		if (this.#streamLane && this.#streamLine(this.#streamLane, line)) return;
		this.#take(parseLine(line));
	}

	/**
	 * A line parsed elsewhere (the parallel loader of plain files, source/sources/parallel-file.ts), given in
	 * line order. Its text is not at hand, so `onLine` does not see it: such files are read again by offset.
	 */
	parsed(parsed: ParsedLine): void {
		this.#take(parsed);
	}

	#take(parsed: ParsedLine): void {
		if (parsed.kind === 'event') this.#reduce(parsed.event);
		else this.#diagnose(parsed.diagnostic);
	}

	#reduce(event: AgentEvent): void {
		if (isRepeatedEvent(this.model, event)) {
			this.#diagnose({line: event.ref.line, source: event.ref.source, reason: `duplicate event: ${event.wireType} ${event.id} was seen before; ignored`});
			return;
		}

		reduce(this.model, event);
		this.#afterEvent?.();
	}

	/** Whether the line was a streaming line in the runtime's own form, and so is reduced already. */
	#streamLine(lane: {lines: StreamLines; bytes: Buffer}, line: Line): boolean {
		const {text} = line;
		// Streaming lines are a few hundred bytes; longer ones are never in that form.
		if (text.length > maxStreamLineLength) return false;
		const length = lane.bytes.write(text, 0, 'utf8');
		const ref = {source: line.source, line: line.line, offset: line.offset};
		const fields = lane.lines.match(lane.bytes, 0, length, ref);
		if (!fields) return false;
		this.#reduce(streamEvent(fields, ref));
		return true;
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
