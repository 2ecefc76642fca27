import type {Diagnostic, Dialect} from '../model/events.js';
import {addDiagnostic} from '../model/reduce.js';
import {endInput, type InputEnd, type Model as ModelState} from '../model/state.js';
import {Ingest} from '../load/ingest.js';
import {forcibleDialects} from '../parse/dialects/registry.js';
import {defaultMaxLineBytes, LineCutter} from '../parse/line-splitter.js';
import {JsonDocumentLines} from '../parse/json-document-lines.js';
import {jsonForTerminal} from '../output/activity-json.js';
import {buildSummary, type Summary} from '../output/summary.js';
import {builtinPrices, type PriceTable} from '../query/prices.js';
import type {Model} from './model-view.js';

/** Options of {@link createReducer}. */
export type ReducerOptions = {
	/**
	 * A line longer than this many bytes (its newline aside) is skipped without being held, and reported as a
	 * diagnostic, as `perscope --max-line-bytes` does. Default: 64 MiB.
	 */
	maxLineBytes?: number;
	/** The name diagnostics and event references give the input (`Diagnostic.source`). Default: `"input"`. */
	source?: string;
	/** The prices the summary's costs are worked out with (`perscope --prices`). Default: the built-in table. */
	prices?: PriceTable;
	/** Called with each diagnostic as it is found (it is in `model.diagnostics` too, up to the first 10,000). */
	onDiagnostic?: (diagnostic: Diagnostic) => void;
	/**
	 * Read every line as this dialect's (`perscope --dialect`): `perstack`, `claude-code`, `codex`, `gemini`, `amp`,
	 * `drover` or `daemon`. Default: each stream's dialect is told from its lines, which suffices for a whole
	 * stream; force one for a stream whose first lines say too little (a Codex stream that starts with an `error`).
	 */
	dialect?: Dialect;
};

/** How the input ended, for {@link Reducer.end}: with `perscope -- command`, how the command exited. */
export type EndOptions = {
	/** The exit code of the command that wrote the events, when known. */
	exitCode?: number;
	/** The last line the command wrote to stderr. */
	lastStderr?: string;
};

/**
 * Turns NDJSON event lines (Perstack, drover, a strategy daemon, mixed freely; or an agent CLI's stream: Claude
 * Code, Codex, Gemini CLI, Amp) into a model of jobs, runs and
 * activities, as the perscope viewer does. Made by {@link createReducer}.
 *
 * The reducer reads one byte stream. `push(line)` appends a line to it, `pushChunk(bytes)` appends bytes
 * cut anywhere; the two can be mixed. Nothing a reducer is given makes it throw: a line that is not JSON, not
 * an object, a known event of the wrong shape, too long, or an event seen before becomes a
 * {@link Diagnostic} and every line around it is still read.
 */
export type Reducer = {
	/** The model so far: current after every push, read-only, and not a copy. */
	readonly model: Model;
	/**
	 * Reads one NDJSON line, a string or UTF-8 bytes (a Buffer is a Uint8Array), with or without its
	 * newline (`\n` or `\r\n`). Line numbers in diagnostics count the lines pushed, as in a file made of
	 * them: each push is one line, a blank one included. A push that holds newlines inside is read as the
	 * lines they separate (JSON text has no raw newline, so it can only be several lines run together), and
	 * each of them counts. Invalid UTF-8 becomes U+FFFD.
	 */
	push(line: string | Uint8Array): void;
	/**
	 * Reads a piece of the byte stream, cut anywhere (inside a line, inside a character: a string may end
	 * between the two halves of a surrogate pair, whose first half waits for the next chunk): a line is read
	 * once its newline arrives, or at {@link Reducer.end}. For a pipe or socket, pass its chunks as they come.
	 */
	pushChunk(chunk: string | Uint8Array): void;
	/**
	 * The input has ended: reads a last line that has no newline, and marks the model ended
	 * (`model.inputEnd`), so a run still waiting for its delegates is known to wait for ever
	 * (`endedWhileWaiting` in the summary). Lines pushed later are still read.
	 */
	end(how?: EndOptions): void;
	/**
	 * The document `perscope --summary --json` writes for the lines read so far, as an object (a copy: yours
	 * to change): the input counts as ended here, as it has when the CLI writes it, without marking the model.
	 */
	summary(): Summary;
	/** The same document as the exact text `perscope --summary --json` writes, without its final newline. */
	summaryJson(): string;
};

const notEnded: InputEnd = {exitCode: undefined, lastStderr: undefined};
const newline = Buffer.from('\n');

/**
 * Makes a {@link Reducer}: feed it NDJSON lines, read the model and the summary.
 *
 * @throws RangeError when `maxLineBytes` is not a positive whole number.
 */
export function createReducer(options: ReducerOptions = {}): Reducer {
	const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
	if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
		throw new RangeError(`maxLineBytes must be a positive whole number, not ${String(maxLineBytes)}`);
	const source = options.source ?? 'input';
	const {onDiagnostic, dialect} = options;
	if (dialect !== undefined && !forcibleDialects.includes(dialect))
		throw new RangeError(`dialect must be one of ${forcibleDialects.join(', ')}, not ${String(dialect)}`);
	const ingest = new Ingest({maxLineBytes, dialect, ...(onDiagnostic ? {onDiagnostic} : {})});
	const model: ModelState = ingest.model;
	const cutter = new LineCutter({
		source,
		from: {offset: 0, lines: 0},
		maxLineBytes,
		line: (bytes, start, end, line, offset) => ingest.line({source, line, offset, text: bytes.toString('utf8', start, end)}),
		overlong: line => ingest.overlong(line),
	});

	/** A diagnostic of the reducer's own, for the line just ended (or, with `inLine`, the one being read). */
	const report = (reason: string, inLine = false) => {
		const diagnostic = {source, line: cutter.next.lines + (inLine ? 1 : 0), reason};
		addDiagnostic(model, diagnostic);
		onDiagnostic?.(diagnostic);
	};

	/*
	 * The reducer is tested never to throw on any input (test/fuzz, test/bad-input); should a bug make it
	 * throw anyway, a dashboard or a bot feeding it must keep running, so the error is reported like a bad
	 * line rather than thrown at the caller. The rest of that chunk is lost.
	 */
	const guarded = (read: () => void) => {
		try {
			read();
		} catch (error) {
			report(`internal error while reading this line (please report it): ${error instanceof Error ? error.message : String(error)}`);
		}
	};

	// A JSON document of events (claude-code-action's execution file, Gemini CLI's json output) reads as its events,
	// as in the CLI.
	const documents = new JsonDocumentLines(bytes => cutter.push(bytes));
	const feed = (bytes: Buffer) => guarded(() => documents.push(bytes));

	/*
	 * A string chunk cut between the two halves of a surrogate pair (`pushChunk(text.slice(0, n))`, as a
	 * decoder of UTF-16 or a test may cut it) ends with the high half: encoded alone it would be U+FFFD, and the
	 * low half at the start of the next chunk another. So it is held and goes out in front of the next string.
	 * A chunk of bytes, or the end, after it finds it alone after all: it is then encoded as it is (U+FFFD).
	 */
	let heldHigh = '';
	const releaseHeld = () => {
		if (heldHigh === '') return;
		const held = heldHigh;
		heldHigh = '';
		feed(Buffer.from(held, 'utf8'));
	};

	const push = (line: string | Uint8Array, wholeLine: boolean) => {
		if (typeof line === 'string') {
			let text = heldHigh + line;
			heldHigh = '';
			const last = text.charCodeAt(text.length - 1);
			if (!wholeLine && last >= 0xd800 && last <= 0xdbff) {
				heldHigh = text.slice(-1);
				text = text.slice(0, -1);
			}

			feed(Buffer.from(wholeLine && !text.endsWith('\n') ? `${text}\n` : text, 'utf8'));
			return;
		}

		releaseHeld();

		if (line instanceof Uint8Array) {
			const bytes = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
			feed(wholeLine && bytes.at(-1) !== newline[0] ? Buffer.concat([bytes, newline]) : bytes);
			return;
		}

		// Only JavaScript callers get here. What is neither text nor bytes is one bad line when pushed as a
		// line; as a chunk, it is reported on the line being read and adds nothing to it.
		if (wholeLine) feed(newline);
		report(`not a line: a ${line === null ? 'null' : typeof line} was pushed, where a string or bytes were expected`, !wholeLine);
	};

	const summaryNow = (): Summary => buildSummary(model.inputEnd ? model : {...model, inputEnd: notEnded}, options.prices ?? builtinPrices);

	return {
		get model(): Model {
			return model;
		},
		push: line => push(line, true),
		pushChunk: chunk => push(chunk, false),
		end(how = {}) {
			releaseHeld();
			guarded(() => {
				documents.end();
				cutter.end();
				ingest.endSource(source);
			});
			endInput(model, {exitCode: how.exitCode, lastStderr: how.lastStderr});
		},
		summary: () => structuredClone(summaryNow()),
		summaryJson: () => jsonForTerminal(summaryNow()),
	};
}
