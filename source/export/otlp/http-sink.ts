import {ExportResultCode, type ExportResult} from '@opentelemetry/core';
import type {ReadableSpan, SpanExporter} from '@opentelemetry/sdk-trace-base';
import type {OtlpProtocol} from './options.js';

/** Spans waiting to be sent beyond this are dropped (and counted): a backend that is down must not eat memory. */
export const maxQueuedSpans = 20_000;
/** Spans in one request (and in one line of `--otlp-file`). */
export const batchSize = 512;

/**
 * What a connection's error says about the backend, in words; undefined for one a retry may get past (a
 * reset, a timeout). Node's errors carry the address (`connect ECONNREFUSED 127.0.0.1:4318`) or the host
 * (`getaddrinfo ENOTFOUND collector`).
 */
export function networkProblem(error: Error): string | undefined {
	const field = (key: string): string => {
		const value: unknown = Reflect.get(error, key);
		return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
	};

	const address = field('port') === '' ? field('address') : `${field('address')}:${field('port')}`;
	const code: unknown = Reflect.get(error, 'code');
	switch (code) {
		case 'ECONNREFUSED':
			return `connection refused${address === '' ? '' : ` by ${address}`}: nothing takes OTLP there`;
		case 'ENOTFOUND':
			return `host not found${field('hostname') === '' ? '' : `: ${field('hostname')}`}`;
		case 'EAI_AGAIN':
			return `host not found${field('hostname') === '' ? '' : `: ${field('hostname')}`} (the name server did not answer)`;
		case 'EHOSTUNREACH':
			return `no route to host${address === '' ? '' : ` ${address}`}`;
		case 'ENETUNREACH':
			return `network unreachable${address === '' ? '' : ` for ${address}`}`;
		default:
			return undefined;
	}
}

/** Why the exporter gave up on a batch, in words: the network's problem, or the backend's answer. */
export function exportProblem(error: Error | undefined, protocol: OtlpProtocol): string {
	if (!error) return 'export failed';
	const network = networkProblem(error);
	if (network !== undefined) return network;
	// The SDK's OTLPExporterError: the HTTP status as `code`, its reason as the message.
	const status: unknown = Reflect.get(error, 'code');
	if (typeof status !== 'number') return error.message;
	const answered = `the backend answered ${status}${error.message === '' ? '' : ` ${error.message}`}`;
	if (status === 415)
		return `${answered}: it does not take ${protocol}; set OTEL_EXPORTER_OTLP_PROTOCOL=${protocol === 'http/protobuf' ? 'http/json' : 'http/protobuf'}`;
	return answered;
}

/**
 * A bounded queue in front of the SDK's OTLP exporter, which sends one batch at a time and retries a batch the
 * backend refused for now (429, 502, 503, 504, with backoff, honouring Retry-After). Every span ends up
 * counted as exported or dropped: nothing is dropped silently.
 */
export class HttpSink {
	readonly #exporter: SpanExporter;
	readonly #protocol: OtlpProtocol;
	readonly #queue: ReadableSpan[] = [];
	#inFlight: {count: number; done: Promise<void>} | undefined;
	#closed = false;
	/** Why the last connection failed (refused, host not found), until a batch gets through. */
	#unreachable: string | undefined;
	/** Wakes a flush waiting for the batch in flight: a connection just failed. */
	#wake: (() => void) | undefined;
	exported = 0;
	dropped = 0;
	lastError: string | undefined;

	constructor(exporter: SpanExporter, protocol: OtlpProtocol = 'http/protobuf') {
		this.#exporter = exporter;
		this.#protocol = protocol;
	}

	/** Spans queued or in a request still out. */
	get pending(): number {
		return this.#queue.length + (this.#inFlight?.count ?? 0);
	}

	/** A connection's error (watched-agent.ts), as it happens, not when the SDK's retries run out. */
	noteNetworkError(error: Error): void {
		const problem = networkProblem(error);
		if (problem === undefined) return;
		this.#unreachable = problem;
		this.lastError = problem;
		this.#wake?.();
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
					if (result.code === ExportResultCode.SUCCESS) {
						this.exported += batch.length;
						this.#unreachable = undefined;
					} else {
						this.dropped += batch.length;
						this.lastError = exportProblem(result.error, this.#protocol);
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
	 * whether a request was still out (the caller need not wait for it to give up). A backend that cannot be
	 * reached (its connection refused, its host not found) is given up on at once, saying so, rather than
	 * waited for until the bound.
	 */
	async flush(ms: number): Promise<{abandoned: boolean}> {
		const deadline = Date.now() + ms;
		while ((this.#inFlight || this.#queue.length > 0) && this.#unreachable === undefined) {
			const left = deadline - Date.now();
			if (left <= 0) break;
			this.#pump();
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([
				this.#inFlight?.done,
				new Promise<void>(resolve => (timer = setTimeout(resolve, left))),
				new Promise<void>(resolve => (this.#wake = resolve)),
			]);
			this.#wake = undefined;
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
