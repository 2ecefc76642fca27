import {closeSync, fstatSync, ftruncateSync, openSync, writeSync} from 'node:fs';
import {JsonTraceSerializer} from '@opentelemetry/otlp-transformer';
import type {ReadableSpan} from '@opentelemetry/sdk-trace-base';
import {batchSize as linesSpans} from './http-sink.js';

/**
 * `--otlp-file`: each batch as one ExportTraceServiceRequest in OTLP JSON, one a line, which is what the
 * OpenTelemetry Collector's file exporter writes and its file receiver reads. Written at once, so the file is
 * whole whenever perscope stops.
 *
 * A write that fails (a full disk) stops the file there: a regular file is cut back to its last whole line, so
 * that what is left is still valid OTLP JSON lines, and `failure` says what happened and where the file ends.
 * Nothing is written after that, and the export goes on without it.
 */
export class FileSink {
	readonly #fd: number;
	/** Only a regular file can be cut back; a device (/dev/full) or a pipe cannot, and needs not be. */
	readonly #regular: boolean;
	#spans = 0;
	/** Bytes of the whole lines written: where the file is cut back to when a write fails. */
	#bytes = 0;
	#failure: string | undefined;
	#closed = false;

	constructor(path: string) {
		this.#fd = openSync(path, 'w');
		this.#regular = fstatSync(this.#fd).isFile();
	}

	/** Spans in the file's whole lines. */
	get spans(): number {
		return this.#spans;
	}

	/** Why writing stopped, and what the file holds; undefined while every write succeeded. */
	get failure(): string | undefined {
		return this.#failure;
	}

	write(spans: ReadableSpan[]): void {
		if (this.#failure !== undefined || this.#closed) return;
		// Lines of at most a batch each, as the live export sends them: a reader need not hold a whole log's spans at once.
		for (let start = 0; start < spans.length; start += linesSpans) {
			const batch = spans.slice(start, start + linesSpans);
			const bytes = JsonTraceSerializer.serializeRequest(batch);
			if (!bytes) {
				this.#fail('the OTLP JSON serialiser returned nothing');
				return;
			}

			const line = Buffer.concat([bytes, Buffer.from('\n')]);
			try {
				writeAll(this.#fd, line);
			} catch (error) {
				this.#fail(error instanceof Error ? error.message : String(error));
				return;
			}

			this.#bytes += line.length;
			this.#spans += batch.length;
		}
	}

	close(): void {
		if (this.#closed) return;
		this.#closed = true;
		try {
			closeSync(this.#fd);
		} catch (error) {
			// A network file system may report a full disk only here.
			this.#failure ??= `${error instanceof Error ? error.message : String(error)}; the file may not hold all of its lines`;
		}
	}

	#fail(reason: string): void {
		let where = `it ends after its ${this.#spans} whole ${this.#spans === 1 ? 'span' : 'spans'}`;
		if (this.#regular) {
			try {
				ftruncateSync(this.#fd, this.#bytes);
			} catch {
				where = 'its last line is cut short';
			}
		} else {
			where = 'its last line may be cut short';
		}

		this.#failure = `${reason}: ${where}`;
	}
}

/** `writeSync` may write less than it was given (a disk nearly full): write the rest, or throw why not. */
function writeAll(fd: number, bytes: Buffer): void {
	let done = 0;
	while (done < bytes.length) {
		const wrote = writeSync(fd, bytes, done, bytes.length - done);
		// No progress and no error: stop rather than loop for ever.
		if (wrote <= 0) throw new Error('the file took no more bytes');
		done += wrote;
	}
}
