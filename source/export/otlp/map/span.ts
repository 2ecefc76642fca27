import type {PriceTable} from '../../../query/prices.js';
/** A span as the mapping makes it: plain data, turned into the SDK's shape only where it is sent. */
export type AttributeValue = string | number | boolean | string[];

export type SpanKindName = 'internal' | 'client';

export type OtlpSpan = {
	traceId: string;
	spanId: string;
	parentSpanId: string | undefined;
	name: string;
	kind: SpanKindName;
	/** Milliseconds since the epoch, from the events' timestamps. */
	startMs: number;
	/** Undefined while the span is open. */
	endMs: number | undefined;
	attributes: Record<string, AttributeValue>;
	status: {code: 'unset' | 'ok' | 'error'; message?: string};
	links: Array<{traceId: string; spanId: string; attributes: Record<string, AttributeValue>}>;
	events: Array<{name: string; timeMs: number; attributes: Record<string, AttributeValue>}>;
};

export type MapOptions = {
	/** Export message contents, tool arguments and results (`--otlp-content`). */
	content: boolean;
	/** Each exported content string is cut to this many characters. */
	contentLimit: number;
	/** What tokens cost (query/prices.ts, or `--prices FILE`): an agent span carries its runs' cost when known. */
	prices: PriceTable;
	/**
	 * Where the spans of a job whose log gives no time at all sit (a file of Codex's, Claude Code 2.0's or Amp's
	 * lines): the time the export started, never 1970. They are marked `perscope.time.unknown`.
	 */
	untimedAtMs: number;
};

/** What `--otlp-content` keeps of each text by default (see README). */
export const defaultContentLimit = 8192;
