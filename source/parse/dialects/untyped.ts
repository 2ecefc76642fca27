import {isChatRecordWithoutType} from './gemini/chat-file.js';
import {isGeminiJsonOutput} from './gemini/json-output.js';

/*
 * Lines with neither `type` nor `kind` are bad lines, but for the few an agent CLI prints as its own: those are read
 * by their dialect's reader (registry.ts) as any of its lines. Apart from the registry because normalise.ts asks, and
 * the dialects' readers import normalise.ts.
 */

/** Whether a value with no `type` is a line a dialect read per stream knows (normalise.ts asks before drover's `kind`s). */
export function isDialectLineWithoutType(value: Record<string, unknown>): boolean {
	return isGeminiJsonOutput(value) || isChatRecordWithoutType(value);
}
