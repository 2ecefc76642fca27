import {closeSync, openSync, writeSync} from 'node:fs';
import {JsonTraceSerializer} from '@opentelemetry/otlp-transformer';
import type {ReadableSpan} from '@opentelemetry/sdk-trace-base';
import {batchSize as linesSpans} from './http-sink.js';

/**
 * `--otlp-file`: each batch as one ExportTraceServiceRequest in OTLP JSON, one a line, which is what the
 * OpenTelemetry Collector's file exporter writes and its file receiver reads. Written at once, so the file is
 * whole whenever perscope stops.
 */
export class FileSink {
	readonly #fd: number;
	#spans = 0;

	constructor(path: string) {
		this.#fd = openSync(path, 'w');
	}

	get spans(): number {
		return this.#spans;
	}

	write(spans: ReadableSpan[]): void {
		// Lines of at most a batch each, as the live export sends them: a reader need not hold a whole log's spans at once.
		for (let start = 0; start < spans.length; start += linesSpans) {
			const batch = spans.slice(start, start + linesSpans);
			const bytes = JsonTraceSerializer.serializeRequest(batch);
			if (!bytes) throw new Error('the OTLP JSON serialiser returned nothing');
			writeSync(this.#fd, bytes);
			writeSync(this.#fd, '\n');
			this.#spans += batch.length;
		}
	}

	close(): void {
		closeSync(this.#fd);
	}
}
