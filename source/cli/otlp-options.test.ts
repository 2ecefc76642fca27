import {describe, expect, it} from 'vitest';
import {otlpOptionsFrom, parseKeyValues} from './otlp-options.js';

const version = '1.2.3';

describe('otlpOptionsFrom', () => {
	it('asks for nothing without --otlp or --otlp-file, and refuses --otlp-content alone', () => {
		expect(otlpOptionsFrom({url: undefined, file: undefined, content: false, version}, {})).toEqual({ok: true, options: undefined});
		expect(otlpOptionsFrom({url: undefined, file: undefined, content: true, version}, {})).toMatchObject({ok: false});
	});

	it('adds /v1/traces to a URL with no path, and keeps one with a path', () => {
		const at = (url: string) => {
			const result = otlpOptionsFrom({url, file: undefined, content: false, version}, {});
			return result.ok ? result.options?.endpoint?.url : result.error;
		};

		expect(at('http://localhost:4318')).toBe('http://localhost:4318/v1/traces');
		expect(at('https://otlp.example/api/public/otel/v1/traces')).toBe('https://otlp.example/api/public/otel/v1/traces');
	});

	it('follows the OTEL_* variables when --otlp has no URL, the traces ones first', () => {
		const result = otlpOptionsFrom(
			{url: '', file: undefined, content: false, version},
			{
				OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
				OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
				OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=x%20y',
				OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=2',
				OTEL_EXPORTER_OTLP_TIMEOUT: '3000',
				OTEL_SERVICE_NAME: 'agents',
				OTEL_RESOURCE_ATTRIBUTES: 'service.name=ignored,team=a',
			},
		);
		expect(result).toEqual({
			ok: true,
			options: expect.objectContaining({
				endpoint: {url: 'http://collector:4318/v1/traces', protocol: 'http/json', headers: {a: '1', b: '2'}, timeoutMs: 3000},
				resource: {'service.name': 'agents', team: 'a'},
			}) as unknown,
		});
		const traces = otlpOptionsFrom({url: '', file: undefined, content: false, version}, {OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:2'});
		expect(traces.ok && traces.options?.endpoint?.url).toBe('http://t:1/custom');
		const fallback = otlpOptionsFrom({url: '', file: undefined, content: false, version}, {});
		expect(fallback.ok && fallback.options?.endpoint).toMatchObject({url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf'});
	});

	it('refuses gRPC and what is not an http URL', () => {
		expect(otlpOptionsFrom({url: '', file: undefined, content: false, version}, {OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc'})).toMatchObject({ok: false});
		expect(otlpOptionsFrom({url: 'ftp://x', file: undefined, content: false, version}, {})).toMatchObject({ok: false});
	});

	it('writes a file without sending anything when only --otlp-file is given', () => {
		const result = otlpOptionsFrom({url: undefined, file: 'out.jsonl', content: false, version}, {});
		expect(result.ok && result.options).toMatchObject({endpoint: undefined, file: 'out.jsonl', resource: {'service.name': 'perscope'}});
	});
});

describe('parseKeyValues', () => {
	it('reads key=value lists, percent-decoded, skipping what has no key', () => {
		expect(parseKeyValues(' a = 1 ,=x,b=%3D,c')).toEqual({a: '1', b: '='});
	});
});
