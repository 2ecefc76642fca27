import {jsonText, stringField} from './json-values.js';

/**
 * Tool errors arrive as ordinary result text: JSON like `{"error":"Error","message":"…"}`, or the runtime's
 * own words for a failed MCP call, `Error calling tool X: …` when the call threw, `Error: …` when the server
 * answered with an error. Only at the start: text that merely mentions an error ("processed without error")
 * is no error.
 */
const plainToolError = /^(?:Error calling tool \S[^\n]*?:|Error:)/;

export function toolErrorOf(text: string): string | undefined {
	const trimmed = text.trimStart();
	if (plainToolError.test(trimmed)) return trimmed.trimEnd();
	if (!trimmed.startsWith('{') || !trimmed.includes('"error"')) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(trimmed);
	} catch {
		return undefined;
	}

	if (typeof value !== 'object' || value === null || Array.isArray(value) || !('error' in value)) return undefined;
	const message = stringField(value, 'message');
	const error: unknown = value.error;
	const name = typeof error === 'string' ? error : error === true || error === null || error === undefined ? '' : jsonText(error);
	if (message !== undefined && message !== '') return message;
	return name === '' ? 'error' : name;
}
