import type {Diagnostic, ParsedLine} from './model/events.js';
import {parseLine} from './model/normalise.js';
import {addDiagnostic, reduce} from './model/reduce.js';
import {createModel, type Model} from './model/state.js';
import {LineSplitter, type Line, type OverlongLine} from './sources/line-splitter.js';

/**
 * Lines in, model out: the one path every source feeds. It knows nothing of terminals or files.
 */
export class Ingest {
	readonly model: Model;
	readonly #maxLineBytes: number;
	readonly #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
	readonly #onLine: ((line: Line) => void) | undefined;

	constructor(options: {maxLineBytes: number; model?: Model; onDiagnostic?: (diagnostic: Diagnostic) => void; onLine?: (line: Line) => void}) {
		this.model = options.model ?? createModel();
		this.#maxLineBytes = options.maxLineBytes;
		this.#onDiagnostic = options.onDiagnostic;
		this.#onLine = options.onLine;
	}

	get maxLineBytes(): number {
		return this.#maxLineBytes;
	}

	splitter(source: string): LineSplitter {
		return new LineSplitter(source, {line: line => this.line(line), overlong: line => this.overlong(line)}, this.#maxLineBytes);
	}

	line(line: Line): void {
		this.#onLine?.(line);
		const parsed = parseLine(line);
		if (parsed.kind === 'event') reduce(this.model, parsed.event);
		else this.#diagnose(parsed.diagnostic);
	}

	/**
	 * A line parsed elsewhere (the parallel loader of plain files, source/sources/parallel-file.ts), given in
	 * line order. Its text is not at hand, so `onLine` does not see it: such files are read again by offset.
	 */
	parsed(parsed: ParsedLine): void {
		if (parsed.kind === 'event') reduce(this.model, parsed.event);
		else this.#diagnose(parsed.diagnostic);
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
