import {closeSync, openSync, writeSync} from 'node:fs';
import {JsonTraceSerializer} from '@opentelemetry/otlp-transformer';
import type {ReadableSpan} from '@opentelemetry/sdk-trace';

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
		if (spans.length === 0) return;
		const bytes = JsonTraceSerializer.serializeRequest(spans);
		if (!bytes) throw new Error('the OTLP JSON serialiser returned nothing');
		writeSync(this.#fd, bytes);
		writeSync(this.#fd, '\n');
		this.#spans += spans.length;
	}

	close(): void {
		closeSync(this.#fd);
	}
}
