import {safeJson} from './describe-activity.js';

/*
 * Tool arguments as a person reads them: indented JSON, except that a string holding line breaks is
 * shown as its lines (under a `|`, as YAML does) rather than as one line of `\n` escapes, which is how a
 * model's file content, script or message is written. Nesting beyond `maxDepth` falls back to compact
 * JSON, so a pathological value cannot exhaust the stack.
 */
const maxDepth = 50;

export function prettyJsonLines(value: unknown): string[] {
	const out: string[] = [];
	write(value, '', '', out, 0);
	return out;
}

function write(value: unknown, indent: string, lead: string, out: string[], depth: number): void {
	if (typeof value === 'string' && value.includes('\n')) {
		out.push(`${indent}${lead}|`);
		for (const line of value.replace(/\n$/, '').split('\n')) out.push(`${indent}  ${line}`);
		return;
	}

	if (depth >= maxDepth || typeof value !== 'object' || value === null) {
		out.push(`${indent}${lead}${safeJson(value)}`);
		return;
	}

	const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map(item => ['', item]) : Object.entries(value);
	const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
	if (entries.length === 0) {
		out.push(`${indent}${lead}${open}${close}`);
		return;
	}

	out.push(`${indent}${lead}${open}`);
	for (const [index, [key, item]] of entries.entries()) {
		const before = out.length;
		write(item, `${indent}  `, Array.isArray(value) ? '' : `${JSON.stringify(key)}: `, out, depth + 1);
		// The comma goes after the item's last line, as JSON.stringify puts it; a `|` block takes none.
		if (index < entries.length - 1 && !out[before]!.endsWith('|')) out[out.length - 1] += ',';
	}

	out.push(`${indent}${close}`);
}
