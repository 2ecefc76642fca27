/*
 * What Gemini CLI prints with `--output-format json`: one object when the run ends, `{session_id, response, stats,
 * error?}`, with no `type` (schema.ts's `jsonOutput`). Told apart here from other lines with no type, which are bad
 * lines: parse/dialects/untyped.ts asks, before a line with neither `type` nor `kind` is reported.
 */

import {isRecord} from '../wire-reader.js';

/** Whether a value with no `type` is surely Gemini CLI's `--output-format json` object: its answer or error, and its session or stats. */
export function isGeminiJsonOutput(value: Record<string, unknown>): boolean {
	if ('type' in value || 'kind' in value) return false;
	const answered = typeof value['response'] === 'string' || isRecord(value['error']);
	return answered && (typeof value['session_id'] === 'string' || isRecord(value['stats']));
}
