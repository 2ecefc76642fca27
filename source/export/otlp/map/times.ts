/*
 * OTLP carries a span's times as unsigned 64-bit nanoseconds since 1970, which end on 2554-07-21. The reader
 * takes any time a Date can hold (years -271821 to 275760), so a hostile or broken log can give a time OTLP
 * cannot carry: written as it is, it wrapped modulo 2^64 in protobuf (spans in 2189, 2211, 1970 + 18 h) and
 * came out negative or past 2^64 in OTLP JSON (`--otlp-file`), which no reader accepts. Such a time is left
 * out, as if the event had none, and the span takes a neighbouring event's time instead, marked
 * `perscope.time.replaced` (README, "OpenTelemetry export").
 */

/** The last millisecond OTLP can carry: 18446744073709 ms is 18,446,744,073,709,000,000 ns, under 2^64. */
export const maxOtlpMs = 18_446_744_073_709;

export function isOtlpTime(ms: number): boolean {
	return ms >= 0 && ms <= maxOtlpMs;
}

/**
 * The times read for one span: one OTLP cannot carry reads as none, and the span is marked for it (`replaced`);
 * `unknown`: the log gave the span no time at all, and it sits where the export started (`MapOptions.untimedAtMs`).
 */
export class SpanTimes {
	replaced = false;
	unknown = false;

	of(ms: number | undefined): number | undefined {
		if (ms === undefined) return undefined;
		if (isOtlpTime(ms)) return ms;
		this.replaced = true;
		return undefined;
	}
}
