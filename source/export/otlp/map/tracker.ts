import type {Model} from '../../../model/state.js';
import {attr} from './attributes.js';
import type {MapOptions, OtlpSpan} from './span.js';
import {mapModel} from './spans.js';

/**
 * Which spans to send, and when: a span is sent once, when it ends; when the input ends, whatever is still open
 * is sent as it stands, closed at the last time the input showed and marked `perscope.unfinished`, not dropped.
 */
export class SpanTracker {
	readonly #options: MapOptions;
	readonly #sent = new Set<string>();

	constructor(options: MapOptions) {
		this.#options = options;
	}

	/** The spans that ended since the last call. */
	ended(model: Model): OtlpSpan[] {
		const spans = mapModel(model, this.#options, id => this.#sent.has(id)).filter(span => span.endMs !== undefined);
		for (const span of spans) this.#sent.add(span.spanId);
		return spans;
	}

	/** Everything not sent yet, the open spans closed and marked unfinished. */
	rest(model: Model): OtlpSpan[] {
		const spans = mapModel(model, this.#options, id => this.#sent.has(id));
		for (const span of spans) {
			this.#sent.add(span.spanId);
			if (span.endMs !== undefined) continue;
			span.endMs = Math.max(span.startMs, model.lastTimestamp ?? span.startMs);
			span.attributes[attr.unfinished] = true;
		}

		return spans;
	}
}
