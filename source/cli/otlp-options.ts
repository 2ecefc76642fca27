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

function positive(text: string | undefined): number | undefined {
	const number = Number(text);
	return text !== undefined && text.trim() !== '' && Number.isFinite(number) && number > 0 ? number : undefined;
}

function nonEmpty(text: string | undefined): string | undefined {
	return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/** The export asked for, or a usage error; undefined when none is. */
export function otlpOptionsFrom(flags: OtlpFlags & {version: string}, env: NodeJS.ProcessEnv): {ok: true; options: OtlpOptions | undefined} | {ok: false; error: string} {
	if (flags.url === undefined && flags.file === undefined) {
		return flags.content ? {ok: false, error: '--otlp-content goes with --otlp or --otlp-file'} : {ok: true, options: undefined};
	}

	let endpoint: OtlpOptions['endpoint'];
	if (flags.url !== undefined) {
		const protocol = nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) ?? nonEmpty(env['OTEL_EXPORTER_OTLP_PROTOCOL']) ?? 'http/protobuf';
		if (protocol !== 'http/protobuf' && protocol !== 'http/json') return {ok: false, error: `OTLP protocol ${protocol} is not supported: use http/protobuf or http/json`};
		let url: string;
		try {
			const tracesEndpoint = nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
			const baseEndpoint = nonEmpty(env['OTEL_EXPORTER_OTLP_ENDPOINT']);
			url = flags.url !== '' ? urlFromFlag(flags.url) : tracesEndpoint ?? tracesUrl(baseEndpoint ?? defaultEndpoint);
			const {protocol: scheme} = new URL(url);
			if (scheme !== 'http:' && scheme !== 'https:') return {ok: false, error: `--otlp needs an http or https URL, not ${url}`};
		} catch {
			return {ok: false, error: `--otlp: not a URL: ${flags.url !== '' ? flags.url : 'OTEL_EXPORTER_OTLP_ENDPOINT'}`};
		}

		endpoint = {
			url,
			protocol: protocol satisfies OtlpProtocol,
			headers: {...parseKeyValues(env['OTEL_EXPORTER_OTLP_HEADERS']), ...parseKeyValues(env['OTEL_EXPORTER_OTLP_TRACES_HEADERS'])},
			timeoutMs: positive(env['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT']) ?? positive(env['OTEL_EXPORTER_OTLP_TIMEOUT']) ?? defaultTimeoutMs,
		};
	}

	const resource = parseKeyValues(env['OTEL_RESOURCE_ATTRIBUTES']);
	resource['service.name'] = nonEmpty(env['OTEL_SERVICE_NAME']) ?? resource['service.name'] ?? 'perscope';
	return {ok: true, options: {endpoint, file: flags.file, content: flags.content, contentLimit: defaultContentLimit, resource, flushMs, version: flags.version}};
}
