import {ExportResultCode, type ExportResult} from '@opentelemetry/core';
import type {ReadableSpan, SpanExporter} from '@opentelemetry/sdk-trace-base';

/** Spans waiting to be sent beyond this are dropped (and counted): a backend that is down must not eat memory. */
export const maxQueuedSpans = 20_000;
/** Spans in one request (and in one line of `--otlp-file`). */
export const batchSize = 512;

/**
 * A bounded queue in front of the SDK's OTLP exporter, which sends one batch at a time and retries a batch the
 * backend refused for now (429, 502, 503, 504, with backoff, honouring Retry-After). Every span ends up
 * counted as exported or dropped: nothing is dropped silently.
 */
export class HttpSink {
	readonly #exporter: SpanExporter;
	readonly #queue: ReadableSpan[] = [];
	#inFlight: {count: number; done: Promise<void>} | undefined;
	#closed = false;
	exported = 0;
	dropped = 0;
	lastError: string | undefined;

	constructor(exporter: SpanExporter) {
		this.#exporter = exporter;
	}

	add(spans: readonly ReadableSpan[]): void {
		if (this.#closed) {
			this.dropped += spans.length;
			return;
		}

		const room = Math.max(0, maxQueuedSpans - this.#queue.length);
		if (spans.length > room) {
			this.dropped += spans.length - room;
			this.lastError = `more than ${maxQueuedSpans} spans waiting to be sent`;
		}

		this.#queue.push(...spans.slice(0, room));
		this.#pump();
	}

	#pump(): void {
		if (this.#inFlight || this.#closed || this.#queue.length === 0) return;
		const batch = this.#queue.splice(0, batchSize);
		const done = new Promise<void>(resolve => {
			this.#exporter.export(batch, (result: ExportResult) => {
				// A batch still out when the flush gave up was counted as dropped then.
				if (!this.#closed) {
					if (result.code === ExportResultCode.SUCCESS) this.exported += batch.length;
					else {
						this.dropped += batch.length;
						this.lastError = result.error?.message ?? 'export failed';
					}
				}

				resolve();
			});
		}).then(() => {
			this.#inFlight = undefined;
			this.#pump();
		});
		this.#inFlight = {count: batch.length, done};
	}

	/**
	 * Sends what is queued for at most `ms`; what is still unsent then is counted as dropped. Resolves with
	 * whether a request was still out (the caller need not wait for it to give up).
	 */
	async flush(ms: number): Promise<{abandoned: boolean}> {
		const deadline = Date.now() + ms;
		while (this.#inFlight || this.#queue.length > 0) {
			const left = deadline - Date.now();
			if (left <= 0) break;
			this.#pump();
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([this.#inFlight?.done, new Promise<void>(resolve => (timer = setTimeout(resolve, left)))]);
			clearTimeout(timer);
		}

		const abandoned = this.#inFlight !== undefined;
		if (abandoned || this.#queue.length > 0) this.lastError ??= `the backend took no more spans within ${ms / 1000} s`;
		this.dropped += this.#queue.length + (this.#inFlight?.count ?? 0);
		this.#queue.length = 0;
		this.#closed = true;
		return {abandoned};
	}
}
