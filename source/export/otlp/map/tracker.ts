import type {Model} from '../../../model/state.js';
import {attr, operation} from './attributes.js';
import type {MapOptions, OtlpSpan} from './span.js';
import {SpanIds} from './span-ids.js';
import {mapModel} from './spans.js';
import {isOtlpTime} from './times.js';

/** Spans others hang from: agent spans, and delegations (whose children are the delegates' agent spans). */
function mayHaveChildren(span: OtlpSpan): boolean {
	return span.attributes[attr.operationName] === operation.invokeAgent || span.attributes[attr.delegateExpert] !== undefined;
}

/**
 * Which spans to send, and when: a span is sent once, when it ends; when the input ends, whatever is still open
 * is sent as it stands, closed at the last time the input showed (or at its parent's end, when that came
 * first: a tool call never answered in a run that stopped) and marked `perscope.unfinished`, not dropped.
 */
export class SpanTracker {
	readonly #options: MapOptions;
	readonly #sent = new Set<string>();
	/** The ids of the activities and steps mapped so far, kept with them for the next time. */
	readonly #ids = new SpanIds();
	/** The ends of the spans sent that others may hang from: an open span closed at the end stays inside its parent. */
	readonly #parentEnds = new Map<string, number>();
	/** The latest time of any span handed out: where open spans end when the input's last time cannot be carried. */
	#latestMs: number | undefined;
	#replaced = 0;
	#unknown = 0;

	constructor(options: MapOptions) {
		this.#options = options;
	}

	/** How many spans handed out so far had a time outside OTLP's range replaced by a neighbour's (times.ts). */
	get replacedTimes(): number {
		return this.#replaced;
	}

	/** How many spans handed out so far had no time in the log, and sit where the export started (`MapOptions.untimedAtMs`). */
	get unknownTimes(): number {
		return this.#unknown;
	}

	/** The spans that ended since the last call. */
	ended(model: Model): OtlpSpan[] {
		const spans = mapModel(model, this.#options, id => this.#sent.has(id), this.#ids).filter(span => span.endMs !== undefined);
		for (const span of spans) this.#handOut(span);
		return spans;
	}

	/** Everything not sent yet, the open spans closed and marked unfinished. */
	rest(model: Model): OtlpSpan[] {
		const spans = mapModel(model, this.#options, id => this.#sent.has(id), this.#ids);
		for (const span of spans) this.#note(span.endMs ?? span.startMs);
		// The input's last time is the greatest of its events' times, so one event past 2554 takes it out of OTLP's range.
		const lastTimestamp = model.lastTimestamp;
		const lastMs = lastTimestamp === undefined || isOtlpTime(lastTimestamp) ? lastTimestamp : this.#latestMs;
		const open = new Map<string, OtlpSpan>();
		for (const span of spans) if (span.endMs === undefined) open.set(span.spanId, span);
		for (const span of spans) if (span.endMs !== undefined && mayHaveChildren(span)) this.#parentEnds.set(span.spanId, span.endMs);
		for (const span of open.values()) {
			this.#close(span, open, lastMs);
			if (lastTimestamp !== undefined && lastMs !== lastTimestamp) span.attributes[attr.timeReplaced] = true;
		}

		for (const span of spans) this.#handOut(span);
		return spans;
	}

	/**
	 * Closes an open span at `lastMs`, or at its parent's end when that is earlier: a parent still open is
	 * closed first, walking up with a list of its own (a delegation chain may be thousands of spans deep).
	 */
	#close(span: OtlpSpan, open: ReadonlyMap<string, OtlpSpan>, lastMs: number | undefined): void {
		const path: OtlpSpan[] = [];
		// Bounded by the open spans: parent links cannot go round, but a hostile log must not make this loop for ever.
		for (
			let at: OtlpSpan | undefined = span;
			at && at.endMs === undefined && path.length <= open.size;
			at = at.parentSpanId === undefined ? undefined : open.get(at.parentSpanId)
		)
			path.push(at);
		const top = path.at(-1)!;
		let bound = top.parentSpanId === undefined ? undefined : this.#parentEnds.get(top.parentSpanId);
		for (let index = path.length - 1; index >= 0; index--) {
			const at = path[index]!;
			let end = lastMs ?? at.startMs;
			if (bound !== undefined && bound < end) end = bound;
			at.endMs = Math.max(at.startMs, end);
			at.attributes[attr.unfinished] = true;
			if (mayHaveChildren(at)) this.#parentEnds.set(at.spanId, at.endMs);
			bound = at.endMs;
		}
	}

	#handOut(span: OtlpSpan): void {
		this.#sent.add(span.spanId);
		this.#note(span.endMs ?? span.startMs);
		if (span.endMs !== undefined && mayHaveChildren(span)) this.#parentEnds.set(span.spanId, span.endMs);
		if (span.attributes[attr.timeReplaced] === true) this.#replaced++;
		if (span.attributes[attr.timeUnknown] === true) this.#unknown++;
	}

	#note(ms: number): void {
		if (this.#latestMs === undefined || ms > this.#latestMs) this.#latestMs = ms;
	}
}
