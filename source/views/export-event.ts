import {closeSync, openSync, unlinkSync, writeFileSync} from 'node:fs';
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
 * An event is written indented only when that stays cheap: every level indents each line under it by two more
 * spaces, so a line nested thousands of levels deep would grow by its depth squared (a 15 KB line 7,000 levels
 * deep became a 98 MB file, 10,000 levels more than a string can hold). Past either bound the line is written
 * as it came, which is the same JSON.
 */
export const maxIndentedDepth = 64;
export const maxIndentedChars = 16 * 1024 * 1024;

/**
 * Writes an event's raw JSON to a new file in `dir` (the current directory by default) and returns its path:
 * indented (`prettyJson`) when it nests at most `maxIndentedDepth` levels and the indented text is at most
 * `maxIndentedChars` characters, otherwise the line exactly as it came. An existing file is never
 * overwritten: `-1`, `-2`, … are added to the name. A line that is not JSON (it would not have become an
 * activity, but the bytes on disk may have changed since) is written as it is. File system errors are thrown
 * for the caller to report; a file that could not be written whole (a full disk) is removed, not left cut short.
 */
export function exportRawEvent(raw: string, activity: Activity, dir: string = process.cwd()): string {
	const text = prettyJson(raw);
	const base = exportBaseName(activity, raw);
	for (let attempt = 0; attempt < maxAttempts; attempt++) {
		const path = join(dir, `${base}${attempt === 0 ? '' : `-${attempt}`}.json`);
		let fd: number;
		try {
			// `wx` creates the file only if it does not exist, in one step, so two writers cannot both win.
			fd = openSync(path, 'wx');
		} catch (error) {
			if (!(error instanceof Error) || Reflect.get(error, 'code') !== 'EEXIST') throw error;
			continue;
		}

		writeWhole(fd, path, text);
		return path;
	}

	throw new Error(`${join(dir, base)}.json and ${maxAttempts - 1} numbered copies already exist`);
}

/** Writes `text` and closes the file; if that fails, the part written is removed and the error says so. */
function writeWhole(fd: number, path: string, text: string): void {
	let open = true;
	try {
		writeFileSync(fd, text);
		open = false;
		closeSync(fd);
	} catch (error) {
		if (open) closeQuietly(fd);
		unlinkQuietly(path);
		const message = error instanceof Error ? error.message : String(error);
		throw new Error(`${message}; the part written was removed`, {cause: error});
	}
}

function closeQuietly(fd: number): void {
	try {
		closeSync(fd);
	} catch {
		// The write's error is the one to report.
	}
}

function unlinkQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// Already gone, or the directory forbids it: the write's error is still the one to report.
	}
}

/**
 * Indents JSON text without parsing it into values and printing them again, which would round numbers
 * beyond 2^53 and so change the very event being exported. Text that is not JSON comes back as it is, and so
 * does JSON nested deeper than `maxIndentedDepth` or whose indented text would pass `maxIndentedChars`.
 */
export function prettyJson(raw: string): string {
	const asItCame = raw.endsWith('\n') ? raw : `${raw}\n`;
	// Indenting only adds characters (bar the spaces it drops): a line already past the bound stays as it came.
	if (raw.length > maxIndentedChars) return asItCame;
	try {
		JSON.parse(raw);
	} catch {
		return asItCame;
	}

	let out = '';
	let depth = 0;
	const newline = () => `\n${'  '.repeat(depth)}`;
	for (let i = 0; i < raw.length; i++) {
		if (out.length > maxIndentedChars) return asItCame;
		const char = raw[i]!;
		switch (char) {
			case '"': {
				// A string is copied whole, not a character at a time: an event's texts are most of its bytes.
				const end = stringEnd(raw, i);
				out += raw.slice(i, end + 1);
				i = end;
				break;
			}

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
				if (depth > maxIndentedDepth) return asItCame;
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

	return out.length > maxIndentedChars ? asItCame : `${out}\n`;
}

/** The index of the quote that closes the JSON string opened at `start` (the text is valid JSON). */
function stringEnd(raw: string, start: number): number {
	let from = start + 1;
	for (;;) {
		const quote = raw.indexOf('"', from);
		if (quote === -1) return raw.length - 1;
		let backslashes = 0;
		while (raw[quote - 1 - backslashes] === '\\') backslashes++;
		if (backslashes % 2 === 0) return quote;
		from = quote + 1;
	}
}

function isJsonSpace(char: string): boolean {
	return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}
