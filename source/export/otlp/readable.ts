import {SpanKind, SpanStatusCode, TraceFlags, type HrTime, type SpanContext} from '@opentelemetry/api';
import {resourceFromAttributes, type Resource} from '@opentelemetry/resources';
import type {ReadableSpan} from '@opentelemetry/sdk-trace-base';
import type {OtlpSpan} from './map/span.js';
import {maxOtlpMs} from './map/times.js';

/** The mapping's plain spans in the SDK's shape, which its exporters and serialisers take. */

function hrTime(time: number): HrTime {
	// The mapping leaves out times OTLP cannot carry (map/times.ts); this keeps every time sent in its range even
	// so, since one outside it wraps modulo 2^64 in protobuf and is invalid in OTLP JSON.
	const ms = Math.min(Math.max(time, 0), maxOtlpMs);
	const seconds = Math.floor(ms / 1000);
	return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function context(traceId: string, spanId: string): SpanContext {
	return {traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false};
}

const statusCodes = {unset: SpanStatusCode.UNSET, ok: SpanStatusCode.OK, error: SpanStatusCode.ERROR} as const;
const kinds = {internal: SpanKind.INTERNAL, client: SpanKind.CLIENT} as const;

export function makeResource(attributes: Record<string, string>): Resource {
	return resourceFromAttributes(attributes);
}

export function toReadableSpan(span: OtlpSpan, resource: Resource, version: string): ReadableSpan {
	const endMs = span.endMs ?? span.startMs;
	const spanContext = context(span.traceId, span.spanId);
	return {
		name: span.name,
		kind: kinds[span.kind],
		spanContext: () => spanContext,
		parentSpanContext: span.parentSpanId === undefined ? undefined : context(span.traceId, span.parentSpanId),
		startTime: hrTime(span.startMs),
		endTime: hrTime(endMs),
		duration: hrTime(endMs - span.startMs),
		status: span.status.message === undefined ? {code: statusCodes[span.status.code]} : {code: statusCodes[span.status.code], message: span.status.message},
		attributes: span.attributes,
		links: span.links.map(link => ({context: context(link.traceId, link.spanId), attributes: link.attributes})),
		events: span.events.map(event => ({name: event.name, time: hrTime(event.timeMs), attributes: event.attributes})),
		ended: true,
		resource,
		instrumentationScope: {name: 'perscope', version},
		droppedAttributesCount: 0,
		droppedEventsCount: 0,
		droppedLinksCount: 0,
	};
}
