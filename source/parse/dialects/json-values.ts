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
