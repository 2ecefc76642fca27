/**
 * What a value JSON.stringify cannot write stands for (tool arguments nested tens of thousands of levels deep:
 * JSON.parse builds them, JSON.stringify recurses and overflows the stack). One text, so that `--json` and the
 * OpenTelemetry export's `--otlp-content` say the same thing about the same arguments.
 */
export const tooDeepToSerialise = '[too deep to serialise]';
