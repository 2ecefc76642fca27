import {defaultContentLimit} from '../export/otlp/map/span.js';
import type {OtlpOptions, OtlpProtocol} from '../export/otlp/options.js';

/*
 * `--otlp [URL]`, `--otlp-file FILE`, `--otlp-content` and OpenTelemetry's standard environment variables, read
 * here and nowhere else (README, "OpenTelemetry export"):
 *
 *   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT   the traces URL, used as it is
 *   OTEL_EXPORTER_OTLP_ENDPOINT          a base URL: /v1/traces is added
 *   OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL http/protobuf (the default) or http/json
 *   OTEL_EXPORTER_OTLP_[TRACES_]HEADERS  key=value,key=value (values percent-decoded)
 *   OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT  milliseconds a request may take, retries included
 *   OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
 */

export type OtlpFlags = {
	/** `--otlp` alone is '' (the environment's endpoint); undefined without `--otlp`. */
	url: string | undefined;
	file: string | undefined;
	content: boolean;
};

const defaultEndpoint = 'http://localhost:4318/';
const defaultTimeoutMs = 10_000;
/** On exit, sending what is left stops after this long. */
const flushMs = 5000;

function tracesUrl(base: string): string {
	return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** `--otlp URL`: a URL with no path is a base (the collector's port), one with a path is the traces URL itself. */
function urlFromFlag(url: string): string {
	const parsed = new URL(url);
	return parsed.pathname === '/' || parsed.pathname === '' ? tracesUrl(url) : url;
}

/**
 * `key=value,key=value`, as the OTEL_*_HEADERS and OTEL_RESOURCE_ATTRIBUTES variables say lists. Without a
 * prototype: the keys are whatever the variable says, and an object literal would take `__proto__` as its
 * prototype rather than a key.
 */
export function parseKeyValues(text: string | undefined): Record<string, string> {
	const result: Record<string, string> = Object.create(null) as Record<string, string>;
	for (const pair of (text ?? '').split(',')) {
		const at = pair.indexOf('=');
		if (at <= 0) continue;
		const key = decode(pair.slice(0, at).trim());
		if (key !== '') result[key] = decode(pair.slice(at + 1).trim());
	}

	return result;
}

function decode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** The longest a Node timer can wait; a longer one fires at once, with a TimeoutOverflowWarning on stderr. */
const maxTimeoutMs = 2_147_483_647;

/** A request timeout from the environment: milliseconds, more than 0, at most `maxTimeoutMs`; or why not. */
function timeoutFrom(name: string, text: string): number | {error: string} {
	const number = Number(text);
	if (!Number.isFinite(number)) return {error: `${name}=${visible(text)} is not a number of milliseconds`};
	if (number <= 0) return {error: `${name}=${visible(text)}: a timeout must be more than 0 milliseconds`};
	if (number > maxTimeoutMs) return {error: `${name}=${visible(text)} is longer than a timer can wait (at most ${maxTimeoutMs} ms, 24.8 days)`};
	return number;
}

/*
 * What HTTP lets a header carry, as Node checks it when a request is made (which is too late: every span was
 * dropped by then, with an error that named no variable). A name is a token; a value is tabs and visible
 * Latin-1, never CR, LF or NUL, which would end the header or the request.
 */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const badHeaderValue = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Text from the environment as one inert line: anything but printable ASCII as `\xNN` or `\u{N}`, so that an
 * error message never writes a CR, LF, NUL or escape sequence of the user's to the terminal.
 */
function visible(text: string): string {
	return text.replace(/[^\x20-\x7e]|\\/gu, character => {
		if (character === '\\') return '\\\\';
		const code = character.codePointAt(0) ?? 0;
		return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
	});
}

/** Headers from OTEL_EXPORTER_OTLP_[TRACES_]HEADERS, or why HTTP cannot send one of them. Values are never echoed: they hold credentials. */
function headersFrom(name: string, text: string | undefined): {ok: true; headers: Record<string, string>} | {ok: false; error: string} {
	const headers = parseKeyValues(text);
	for (const [key, value] of Object.entries(headers)) {
		if (!headerName.test(key)) return {ok: false, error: `${name}: ${visible(key)} is not a header name HTTP allows`};
		const bad = badHeaderValue.exec(value);
		if (bad) {
			const code = bad[0].codePointAt(0) ?? 0;
			return {
				ok: false,
				error: `${name}: the value of header ${key} holds U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${bad.index + 1}, which HTTP does not allow in a header`,
			};
		}
	}

	return {ok: true, headers};
}

function nonEmpty(text: string | undefined): string | undefined {
	return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/** The export asked for, or a usage error; undefined when none is. */
export function otlpOptionsFrom(
	flags: OtlpFlags & {version: string},
	env: NodeJS.ProcessEnv,
): {ok: true; options: OtlpOptions | undefined} | {ok: false; error: string} {
	if (flags.url === undefined && flags.file === undefined) {
		return flags.content ? {ok: false, error: '--otlp-content goes with --otlp or --otlp-file'} : {ok: true, options: undefined};
	}

	let endpoint: OtlpOptions['endpoint'];
	if (flags.url !== undefined) {
		const protocol = nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) ?? nonEmpty(env['OTEL_EXPORTER_OTLP_PROTOCOL']) ?? 'http/protobuf';
		if (protocol !== 'http/protobuf' && protocol !== 'http/json')
			return {ok: false, error: `OTLP protocol ${protocol} is not supported: use http/protobuf or http/json`};
		let url: string;
		try {
			const tracesEndpoint = nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
			const baseEndpoint = nonEmpty(env['OTEL_EXPORTER_OTLP_ENDPOINT']);
			url = flags.url !== '' ? urlFromFlag(flags.url) : (tracesEndpoint ?? tracesUrl(baseEndpoint ?? defaultEndpoint));
			const {protocol: scheme} = new URL(url);
			if (scheme !== 'http:' && scheme !== 'https:') return {ok: false, error: `--otlp needs an http or https URL, not ${url}`};
		} catch {
			return {ok: false, error: `--otlp: not a URL: ${flags.url !== '' ? flags.url : 'OTEL_EXPORTER_OTLP_ENDPOINT'}`};
		}

		// Refused now, with the variable named, rather than found when the first request is made.
		const headers = headersFrom('OTEL_EXPORTER_OTLP_HEADERS', env['OTEL_EXPORTER_OTLP_HEADERS']);
		if (!headers.ok) return headers;
		const tracesHeaders = headersFrom('OTEL_EXPORTER_OTLP_TRACES_HEADERS', env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']);
		if (!tracesHeaders.ok) return tracesHeaders;
		const timeoutName = nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT']) === undefined ? 'OTEL_EXPORTER_OTLP_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT';
		const timeoutText = nonEmpty(env[timeoutName]);
		const timeoutMs = timeoutText === undefined ? defaultTimeoutMs : timeoutFrom(timeoutName, timeoutText);
		if (typeof timeoutMs !== 'number') return {ok: false, error: timeoutMs.error};
		endpoint = {url, protocol: protocol satisfies OtlpProtocol, headers: {...headers.headers, ...tracesHeaders.headers}, timeoutMs};
	}

	const resource = parseKeyValues(env['OTEL_RESOURCE_ATTRIBUTES']);
	resource['service.name'] = nonEmpty(env['OTEL_SERVICE_NAME']) ?? resource['service.name'] ?? 'perscope';
	return {
		ok: true,
		options: {endpoint, file: flags.file, content: flags.content, contentLimit: defaultContentLimit, resource, flushMs, version: flags.version},
	};
}
