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
		const traces = otlpOptionsFrom(
			{url: '', file: undefined, content: false, version},
			{OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:2'},
		);
		expect(traces.ok && traces.options?.endpoint?.url).toBe('http://t:1/custom');
		const fallback = otlpOptionsFrom({url: '', file: undefined, content: false, version}, {});
		expect(fallback.ok && fallback.options?.endpoint).toMatchObject({url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf'});
	});

	it('refuses gRPC and what is not an http URL', () => {
		expect(otlpOptionsFrom({url: '', file: undefined, content: false, version}, {OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc'})).toMatchObject({ok: false});
		expect(otlpOptionsFrom({url: 'ftp://x', file: undefined, content: false, version}, {})).toMatchObject({ok: false});
	});

	describe('refuses at start what HTTP or a timer cannot take (#34)', () => {
		const withEnv = (env: NodeJS.ProcessEnv) => otlpOptionsFrom({url: 'http://127.0.0.1:4318', file: undefined, content: false, version}, env);
		const errorOf = (env: NodeJS.ProcessEnv) => {
			const result = withEnv(env);
			return result.ok ? undefined : result.error;
		};

		it('a CR, LF or NUL in OTEL_EXPORTER_OTLP_HEADERS was found only when sending: refused, naming the variable and the header, never the value', () => {
			expect(errorOf({OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cret%0D%0AX-Injected:%201'})).toBe(
				'OTEL_EXPORTER_OTLP_HEADERS: the value of header authorization holds U+000D at character 14, which HTTP does not allow in a header',
			);
			expect(errorOf({OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=x\ny'})).toBe(
				'OTEL_EXPORTER_OTLP_TRACES_HEADERS: the value of header a holds U+000A at character 2, which HTTP does not allow in a header',
			);
			expect(errorOf({OTEL_EXPORTER_OTLP_HEADERS: 'a=%00'})).toContain('U+0000');
			expect(errorOf({OTEL_EXPORTER_OTLP_HEADERS: 'a=\u4e2d'})).toContain('U+4E2D');
			// A bad name is shown with its bytes made inert.
			expect(errorOf({OTEL_EXPORTER_OTLP_HEADERS: 'x\r\nSet-Cookie%3A%20a\u001b[2J=1'})).toBe(
				'OTEL_EXPORTER_OTLP_HEADERS: x\\x0d\\x0aSet-Cookie: a\\x1b[2J is not a header name HTTP allows',
			);
			// What HTTP allows goes through: tabs and Latin-1 in values, tokens as names.
			expect(withEnv({OTEL_EXPORTER_OTLP_HEADERS: "x-a_b.c!#$%25&'*+^`|~=a%09\u00e9"})).toMatchObject({
				ok: true,
				options: {endpoint: {headers: {"x-a_b.c!#$%&'*+^`|~": 'a\t\u00e9'}}},
			});
		});

		it("OTEL_EXPORTER_OTLP_TIMEOUT of abc, -1 or 0 was taken silently, and 1e12 printed Node's overflow warning: refused", () => {
			expect(errorOf({OTEL_EXPORTER_OTLP_TIMEOUT: 'abc'})).toBe('OTEL_EXPORTER_OTLP_TIMEOUT=abc is not a number of milliseconds');
			expect(errorOf({OTEL_EXPORTER_OTLP_TIMEOUT: '-1'})).toBe('OTEL_EXPORTER_OTLP_TIMEOUT=-1: a timeout must be more than 0 milliseconds');
			expect(errorOf({OTEL_EXPORTER_OTLP_TIMEOUT: '0'})).toBe('OTEL_EXPORTER_OTLP_TIMEOUT=0: a timeout must be more than 0 milliseconds');
			expect(errorOf({OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '1e12'})).toBe(
				'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT=1e12 is longer than a timer can wait (at most 2147483647 ms, 24.8 days)',
			);
			expect(errorOf({OTEL_EXPORTER_OTLP_TIMEOUT: '\u001b]0;x\u0007'})).toBe('OTEL_EXPORTER_OTLP_TIMEOUT=\\x1b]0;x\\x07 is not a number of milliseconds');
			// The traces variable wins, as for the protocol; an empty one is unset.
			expect(withEnv({OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2500', OTEL_EXPORTER_OTLP_TIMEOUT: 'abc'})).toMatchObject({
				ok: true,
				options: {endpoint: {timeoutMs: 2500}},
			});
			expect(withEnv({OTEL_EXPORTER_OTLP_TIMEOUT: ' '})).toMatchObject({ok: true, options: {endpoint: {timeoutMs: 10_000}}});
			expect(withEnv({OTEL_EXPORTER_OTLP_TIMEOUT: '2147483647'})).toMatchObject({ok: true, options: {endpoint: {timeoutMs: 2_147_483_647}}});
		});
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
