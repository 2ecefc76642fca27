import type {Model} from '../../model/state.js';
import {FileSink} from './file-sink.js';
import {HttpSink} from './http-sink.js';
import {SpanTracker} from './map/tracker.js';
import type {OtlpSpan} from './map/span.js';
import type {OtlpEndpoint, OtlpOptions} from './options.js';
import {makeResource, toReadableSpan} from './readable.js';
import {watchedAgent} from './watched-agent.js';
import type {PriceTable} from '../../query/prices.js';

/** How often the model is looked at for spans that ended. */
const watchIntervalMs = 1000;
/**
 * A flush on exit still going after this long is said to be going on (`finish`'s `onSending`): a backend that
 * answers at once should not flash a message, one that does not should not leave a frozen screen unexplained.
 */
const sendingNoteAfterMs = 200;

export type OtlpReport = {
	/** One line for stderr: what was sent where, and what was dropped. */
	text: string;
	/** A request was still out when the flush gave up: the process should exit rather than wait for it. */
	abandoned: boolean;
	/** `--otlp-file` could not be written whole (a full disk): the process should not exit 0. */
	fileFailed: boolean;
};

async function exporterFor(endpoint: OtlpEndpoint, onNetworkError: (error: Error) => void) {
	const config = {url: endpoint.url, headers: endpoint.headers, timeoutMillis: endpoint.timeoutMs, httpAgentOptions: watchedAgent(onNetworkError)};
	if (endpoint.protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(config);
	return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(config);
}

async function httpSinkFor(endpoint: OtlpEndpoint): Promise<HttpSink> {
	// The agent exists before the sink it reports to: its errors come only once requests are made.
	let sink: HttpSink | undefined;
	const exporter = await exporterFor(endpoint, error => sink?.noteNetworkError(error));
	sink = new HttpSink(exporter, endpoint.protocol);
	return sink;
}

/**
 * Live export of a model as OpenTelemetry spans: `watch` sends each span once it ends, in batches, and never
 * blocks the caller on the network; `finish` sends the rest (open spans marked unfinished) and flushes for at
 * most `flushMs`.
 */
export class OtlpExport {
	readonly #options: OtlpOptions;
	readonly #tracker: SpanTracker;
	readonly #resource;
	readonly #version: string;
	readonly #http: HttpSink | undefined;
	readonly #file: FileSink | undefined;
	#timer: NodeJS.Timeout | undefined;
	#seenRev = -1;
	#seenModel: Model | undefined;

	private constructor(options: OtlpOptions, version: string, http: HttpSink | undefined, prices: PriceTable) {
		this.#options = options;
		this.#version = version;
		// A job whose log gave no time at all is put where the export started (Date.now(): this layer may read the clock).
		this.#tracker = new SpanTracker({content: options.content, contentLimit: options.contentLimit, prices, untimedAtMs: Date.now()});
		this.#resource = makeResource(options.resource);
		this.#http = http;
		this.#file = options.file === undefined ? undefined : new FileSink(options.file);
	}

	static async start(options: OtlpOptions, prices: PriceTable): Promise<OtlpExport> {
		const http = options.endpoint ? await httpSinkFor(options.endpoint) : undefined;
		return new OtlpExport(options, options.version, http, prices);
	}

	/** Looks at the model now and then (it may be replaced: a worker's load posts new ones). */
	watch(model: () => Model): void {
		this.#timer = setInterval(() => this.update(model()), watchIntervalMs);
		this.#timer.unref();
	}

	/** Sends the spans that ended since the last look. */
	update(model: Model): void {
		if (model === this.#seenModel && model.rev === this.#seenRev) return;
		this.#seenModel = model;
		this.#seenRev = model.rev;
		this.#send(this.#tracker.ended(model));
	}

	#send(spans: OtlpSpan[]): void {
		if (spans.length === 0) return;
		const readable = spans.map(span => toReadableSpan(span, this.#resource, this.#version));
		// A file that fails (a full disk) stops being written, and is reported at the end, without stopping the rest.
		this.#file?.write(readable);
		this.#http?.add(readable);
	}

	/**
	 * Sends what is left and reports. `onSending` is told, once, when the flush has gone on for a moment with
	 * spans still to send (`sending 13 spans to URL…`), for a caller whose screen would otherwise sit still.
	 */
	async finish(model: Model, onSending?: (text: string) => void): Promise<OtlpReport> {
		clearInterval(this.#timer);
		this.update(model);
		this.#send(this.#tracker.rest(model));
		const parts: string[] = [];
		let abandoned = false;
		if (this.#file) {
			this.#file.close();
			const {failure} = this.#file;
			parts.push(
				`${this.#file.spans} ${spansWord(this.#file.spans)} written to ${this.#options.file ?? ''}${failure === undefined ? '' : `, then writing failed (${failure})`}`,
			);
		}

		if (this.#http && this.#options.endpoint) {
			const http = this.#http;
			const {url} = this.#options.endpoint;
			const note = onSending
				? setTimeout(() => {
						if (http.pending > 0) onSending(`sending ${http.pending} ${spansWord(http.pending)} to ${url}…`);
					}, sendingNoteAfterMs)
				: undefined;
			({abandoned} = await http.flush(this.#options.flushMs));
			clearTimeout(note);
			const {exported, dropped, lastError} = this.#http;
			parts.push(
				`${exported} ${spansWord(exported)} exported to ${this.#options.endpoint.url}, ${dropped} dropped${dropped > 0 && lastError ? ` (${lastError})` : ''}`,
			);
		}

		// Said, not only marked on the spans: a reader of this line need not look inside the trace to know.
		const replaced = this.#tracker.replacedTimes;
		if (replaced > 0)
			parts.push(
				`${replaced} ${spansWord(replaced)} had a time before 1970 or after 2554, which OTLP cannot carry: a neighbouring event's time stands in for it (perscope.time.replaced)`,
			);
		const unknown = this.#tracker.unknownTimes;
		if (unknown > 0)
			parts.push(
				`${unknown} ${spansWord(unknown)} had no time in the log (its lines carry none): ${unknown === 1 ? 'it sits' : 'they sit'} where the export started (perscope.time.unknown)`,
			);
		return {text: `perscope: OTLP: ${parts.join('; ')}\n`, abandoned, fileFailed: this.#file?.failure !== undefined};
	}
}

function spansWord(count: number): string {
	return count === 1 ? 'span' : 'spans';
}
