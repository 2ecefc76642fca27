import {isRecord} from './wire-reader.js';

/**
 * JSON text of a value that came out of JSON.parse. JSON.parse builds values nested 100,000 levels deep
 * without complaint, but JSON.stringify recurses and throws on them; that must cost a placeholder, not
 * the event.
 */
export function jsonText(value: unknown): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return '[value too deep to show]';
	}
}

export function stringField(value: object, key: string): string | undefined {
	const field: unknown = Reflect.get(value, key);
	return typeof field === 'string' ? field : undefined;
}

/** `text` parsed, when it is a JSON object; undefined for anything else (a line cut short, not JSON, an array, a value). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The line of a file's `bytes` that starts at byte `at`: its JSON object (`jsonObject`), and where the next line
 * starts. What the readers of a session's own file (a transcript, a rollout, a chat) walk it with.
 */
export function jsonObjectAt(bytes: Buffer, at: number): {value: Record<string, unknown> | undefined; next: number} {
	let end = bytes.indexOf(10, at);
	if (end < 0) end = bytes.length;
	return {value: jsonObject(bytes.toString('utf8', at, end)), next: end + 1};
}
