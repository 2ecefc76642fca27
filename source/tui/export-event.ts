import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Activity} from '../model/state.js';

/** Ids come from the log: long ones are cut so the name stays a usable file name on every file system. */
const maxIdChars = 80;
/** Past this many files of the same name something is wrong; say so rather than loop. */
const maxAttempts = 10_000;

/** Event types are short words; a longer one is cut like an id. */
const maxTypeChars = 40;

/**
 * `perscope-<type>-<id>`, with anything but letters, digits, `.`, `_` and `-` replaced by `_`. The type is
 * the raw event's own (`startRun`), since that is what the file holds; an activity's type (a delegation
 * that completed) names it only when the raw event has none.
 */
export function exportBaseName(activity: Activity, raw?: string): string {
	const id = safeName(activity.id).slice(0, maxIdChars);
	const type = safeName(rawEventType(raw) ?? activity.type).slice(0, maxTypeChars);
	return `perscope-${type === '' ? 'event' : type}-${id === '' ? 'activity' : id}`;
}

/** The `type` field of a raw JSON event, when it has a string one. */
export function rawEventType(raw: string | undefined): string | undefined {
	if (raw === undefined) return undefined;
	try {
		const value: unknown = JSON.parse(raw);
		const type = typeof value === 'object' && value !== null && !Array.isArray(value) ? Reflect.get(value, 'type') : undefined;
		return typeof type === 'string' && type !== '' ? type : undefined;
	} catch {
		return undefined;
	}
}

/** Without `/` a name cannot leave `dir`, and after the `perscope-` prefix a dot cannot hide the file. */
function safeName(text: string): string {
	return text.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * Writes an event's raw JSON, pretty-printed, to a new file in `dir` (the current directory by default)
 * and returns its path. An existing file is never overwritten: `-1`, `-2`, … are added to the name. A
 * line that is not JSON (it would not have become an activity, but the bytes on disk may have changed
 * since) is written as it is. File system errors are thrown for the caller to report.
 */
export function exportRawEvent(raw: string, activity: Activity, dir: string = process.cwd()): string {
	const text = prettyJson(raw);
	const base = exportBaseName(activity, raw);
	for (let attempt = 0; attempt < maxAttempts; attempt++) {
		const path = join(dir, `${base}${attempt === 0 ? '' : `-${attempt}`}.json`);
		try {
			// `wx` creates the file only if it does not exist, in one step, so two writers cannot both win.
			writeFileSync(path, text, {flag: 'wx'});
			return path;
		} catch (error) {
			if (!(error instanceof Error) || Reflect.get(error, 'code') !== 'EEXIST') throw error;
		}
	}

	throw new Error(`${join(dir, base)}.json and ${maxAttempts - 1} numbered copies already exist`);
}

/**
 * Indents JSON text without parsing it into values and printing them again, which would round numbers
 * beyond 2^53 and so change the very event being exported. Text that is not JSON comes back as it is.
 */
export function prettyJson(raw: string): string {
	try {
		JSON.parse(raw);
	} catch {
		return raw.endsWith('\n') ? raw : `${raw}\n`;
	}

	let out = '';
	let depth = 0;
	let inString = false;
	const newline = () => `\n${'  '.repeat(depth)}`;
	for (let i = 0; i < raw.length; i++) {
		const char = raw[i]!;
		if (inString) {
			out += char;
			if (char === '\\') out += raw[++i] ?? '';
			else if (char === '"') inString = false;
			continue;
		}

		switch (char) {
			case '"':
				inString = true;
				out += char;
				break;
			case '{':
			case '[': {
				const close = char === '{' ? '}' : ']';
				let next = i + 1;
				while (next < raw.length && isJsonSpace(raw[next]!)) next++;
				if (raw[next] === close) {
					out += char + close;
					i = next;
					break;
				}

				depth++;
				out += char + newline();
				break;
			}

			case '}':
			case ']':
				depth--;
				out += newline() + char;
				break;
			case ',':
				out += char + newline();
				break;
			case ':':
				out += ': ';
				break;
			default:
				if (!isJsonSpace(char)) out += char;
		}
	}

	return `${out}\n`;
}

function isJsonSpace(char: string): boolean {
	return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}
