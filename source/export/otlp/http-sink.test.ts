import {ExportResultCode, type ExportResult} from '@opentelemetry/core';
import type {ReadableSpan, SpanExporter} from '@opentelemetry/sdk-trace-base';
import {describe, expect, it} from 'vitest';
import {batchSize, exportProblem, HttpSink, maxQueuedSpans} from './http-sink.js';
import {makeResource, toReadableSpan} from './readable.js';

const resource = makeResource({'service.name': 'test'});

function spans(count: number): ReadableSpan[] {
	return Array.from({length: count}, (_, index) =>
		toReadableSpan(
			{
				traceId: '1'.repeat(32),
				spanId: index.toString(16).padStart(16, '0'),
				parentSpanId: undefined,
				name: 'span',
				kind: 'internal',
				startMs: 0,
				endMs: 1,
				attributes: {},
				status: {code: 'unset'},
				links: [],
				events: [],
			},
			resource,
			'0',
		),
	);
}

/** An exporter that answers each batch as `answer` says, or never. */
function exporter(answer: (batch: ReadableSpan[]) => ExportResult | 'never'): SpanExporter & {batches: number[]} {
	const batches: number[] = [];
	return {
		batches,
		export(batch, done) {
			batches.push(batch.length);
			const result = answer(batch);
			if (result !== 'never') setImmediate(() => done(result));
		},
		shutdown: async () => undefined,
	};
}

describe('HttpSink', () => {
	it('sends in batches, one at a time, and counts what was taken', async () => {
		const fake = exporter(() => ({code: ExportResultCode.SUCCESS}));
		const sink = new HttpSink(fake);
		sink.add(spans(batchSize * 2 + 3));
		expect(fake.batches).toEqual([batchSize]);
		expect(await sink.flush(1000)).toEqual({abandoned: false});
		expect(fake.batches).toEqual([batchSize, batchSize, 3]);
		expect([sink.exported, sink.dropped]).toEqual([batchSize * 2 + 3, 0]);
	});

	it('counts a batch the exporter gave up on as dropped, with its error', async () => {
		const sink = new HttpSink(exporter(() => ({code: ExportResultCode.FAILED, error: new Error('Unauthorized')})));
		sink.add(spans(10));
		await sink.flush(1000);
		expect([sink.exported, sink.dropped, sink.lastError]).toEqual([0, 10, 'Unauthorized']);
	});

	it('drops and counts what is over the bound of the queue, and what is unsent when the flush gives up', async () => {
		const sink = new HttpSink(exporter(() => 'never'));
		sink.add(spans(maxQueuedSpans + batchSize + 7));
		// The queue takes up to its bound (one batch of which goes out at once); the rest is dropped there and then.
		expect(sink.dropped).toBe(batchSize + 7);
		expect(await sink.flush(20)).toEqual({abandoned: true});
		expect([sink.exported, sink.dropped]).toEqual([0, maxQueuedSpans + batchSize + 7]);
		sink.add(spans(1));
		expect(sink.dropped).toBe(maxQueuedSpans + batchSize + 8);
	});
});

describe('what an export problem is called', () => {
	const answered = (status: number, message: string) => Object.assign(new Error(message), {code: status});

	it('a 415 says which protocol the backend wants, the other one', () => {
		expect(exportProblem(answered(415, 'Unsupported Media Type'), 'http/protobuf')).toBe(
			'the backend answered 415 Unsupported Media Type: it does not take http/protobuf; set OTEL_EXPORTER_OTLP_PROTOCOL=http/json',
		);
		expect(exportProblem(answered(415, 'Unsupported Media Type'), 'http/json')).toBe(
			'the backend answered 415 Unsupported Media Type: it does not take http/json; set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
		);
		expect(exportProblem(answered(401, 'Unauthorized'), 'http/protobuf')).toBe('the backend answered 401 Unauthorized');
	});

	it('a refused connection or a host not found says so, not how the SDK put it', () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4318'), {code: 'ECONNREFUSED', address: '127.0.0.1', port: 4318});
		expect(exportProblem(refused, 'http/protobuf')).toBe('connection refused by 127.0.0.1:4318: nothing takes OTLP there');
		const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND collector'), {code: 'ENOTFOUND', hostname: 'collector'});
		expect(exportProblem(notFound, 'http/protobuf')).toBe('host not found: collector');
		expect(exportProblem(new Error('socket hang up'), 'http/protobuf')).toBe('socket hang up');
	});
});
