import {assertNever} from '../model/assert-never.js';
import {maxQueryChars} from '../query/search.js';

/*
 * The editing of the `/` and `:` prompts, as shells do it (readline's emacs keys). Pure: (line, edit) → line.
 * The cursor counts characters (code points), so a CJK character or an emoji is one step.
 */

export type Line = {
	text: string;
	/** Characters before the cursor. */
	cursor: number;
	/**
	 * The whole text is selected, as a prompt reopens with its last text: typing replaces it (so an old query
	 * is never silently appended to), a movement key keeps it for editing, Backspace or Delete clears it.
	 */
	selected: boolean;
};

export type LineEdit =
	| {type: 'insert'; text: string}
	| {type: 'left'}
	| {type: 'right'}
	| {type: 'wordLeft'}
	| {type: 'wordRight'}
	| {type: 'home'}
	| {type: 'end'}
	| {type: 'backspace'}
	| {type: 'delete'}
	/** Ctrl-U: everything before the cursor. */
	| {type: 'killToStart'}
	/** Ctrl-K: everything from the cursor on. */
	| {type: 'killToEnd'}
	/** Ctrl-W: the word before the cursor, with the spaces after it. */
	| {type: 'killWordBack'};

/**
 * The most characters a line holds: what is typed past it is dropped. No query longer can match (no searched
 * text is longer: `maxQueryChars`), and a bound keeps each key's work on the line (a few passes over it)
 * small however much is pasted.
 */
export const maxLineChars = maxQueryChars;

/** A line holding `text` with the cursor at its end. */
export function lineOf(text: string, selected = false): Line {
	return {text, cursor: countCharacters(text, 0, text.length), selected: selected && text !== ''};
}

/*
 * The edits work on the string by UTF-16 offsets and count characters only between two offsets: no array of
 * the line's characters is made per key, which at the end of a 64 Ki-character line cost ~6 ms a key.
 */
export function editLine(line: Line, edit: LineEdit): Line {
	const {text} = line;
	const at = offsetAfter(text, 0, Math.max(0, line.cursor));
	const cursor = countCharacters(text, 0, at);
	if (line.selected) {
		switch (edit.type) {
			case 'insert': {
				const typed = printable(edit.text);
				return lineOf(typed.slice(0, offsetAfter(typed, 0, maxLineChars)));
			}

			case 'backspace':
			case 'delete':
			case 'killToStart':
			case 'killToEnd':
			case 'killWordBack':
				return lineOf('');
			case 'left':
			case 'right':
			case 'wordLeft':
			case 'wordRight':
			case 'home':
			case 'end':
				// A movement keeps the text and ends the selection, from where the cursor is.
				return editLine({text, cursor, selected: false}, edit);
			default:
				return assertNever(edit);
		}
	}

	/** The line with the text from `from` to `to` replaced by `put`, the cursor after `put`. */
	const splice = (from: number, to: number, put = ''): Line => ({
		text: text.slice(0, from) + put + text.slice(to),
		cursor: countCharacters(text, 0, from) + countCharacters(put, 0, put.length),
		selected: false,
	});
	switch (edit.type) {
		case 'insert': {
			const typed = printable(edit.text);
			const room = Math.max(0, maxLineChars - countCharacters(text, 0, text.length));
			return splice(at, at, typed.slice(0, offsetAfter(typed, 0, room)));
		}

		case 'left':
			return {...line, cursor: Math.max(0, cursor - 1)};
		case 'right':
			return {...line, cursor: cursor + (at < text.length ? 1 : 0)};
		case 'wordLeft':
			return {...line, cursor: countCharacters(text, 0, wordStartBefore(text, at))};
		case 'wordRight':
			return {...line, cursor: cursor + countCharacters(text, at, wordEndAfter(text, at))};
		case 'home':
			return {...line, cursor: 0};
		case 'end':
			return {...line, cursor: cursor + countCharacters(text, at, text.length)};
		case 'backspace':
			return at === 0 ? {...line, cursor} : splice(offsetBefore(text, at), at);
		case 'delete':
			return {...splice(at, offsetAfter(text, at, 1)), cursor};
		case 'killToStart':
			return splice(0, at);
		case 'killToEnd':
			return splice(at, text.length);
		case 'killWordBack':
			return splice(wordStartBefore(text, at), at);
		default:
			return assertNever(edit);
	}
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/** The offset `count` characters (code points) after `from`, or the end of the text. */
export function offsetAfter(text: string, from: number, count: number): number {
	let at = from;
	for (let left = count; left > 0 && at < text.length; left--) at += isHighSurrogate(text.charCodeAt(at)) && isLowSurrogate(text.charCodeAt(at + 1)) ? 2 : 1;
	return at;
}

/** The offset of the character (code point) before offset `at` (0 at the start). */
export function offsetBefore(text: string, at: number): number {
	return at >= 2 && isLowSurrogate(text.charCodeAt(at - 1)) && isHighSurrogate(text.charCodeAt(at - 2)) ? at - 2 : Math.max(0, at - 1);
}

/** Characters (code points) between two offsets that fall between characters. */
function countCharacters(text: string, from: number, to: number): number {
	let count = 0;
	for (let at = from; at < to; at++) if (!(isLowSurrogate(text.charCodeAt(at)) && at > from && isHighSurrogate(text.charCodeAt(at - 1)))) count++;
	return count;
}

/*
 * History, per prompt, for the session: ↑ goes back through the lines entered before, ↓ forward, and past
 * the newest one returns to what was being typed when browsing began (the draft).
 */

export type Recall = {index: number; draft: string};

const historyLimit = 100;

/** `entries` with `text` as the newest; an earlier copy of it moves up rather than repeating. */
export function remember(entries: readonly string[], text: string): readonly string[] {
	if (text.trim() === '') return entries;
	return [...entries.filter(entry => entry !== text), text].slice(-historyLimit);
}

/** One step through the history (`-1` older, `1` newer), or undefined when there is nowhere to go. */
export function browse(
	entries: readonly string[],
	line: Line,
	recall: Recall | undefined,
	direction: -1 | 1,
): {line: Line; recall: Recall | undefined} | undefined {
	const from = recall?.index ?? entries.length;
	const to = from + direction;
	if (to < 0 || to > entries.length || (recall === undefined && direction === 1)) return undefined;
	const draft = recall?.draft ?? line.text;
	if (to === entries.length) return {line: lineOf(draft), recall: undefined};
	return {line: lineOf(entries[to] ?? ''), recall: {index: to, draft}};
}

/** Control characters never enter the line (a paste can hold newlines, tabs or escape sequences). */
function printable(text: string): string {
	let kept = '';
	for (const character of text) if (character >= ' ' && character !== '\u007F' && !(character >= '\u0080' && character < '\u00A0')) kept += character;
	return kept;
}

function isWordCharacter(code: number): boolean {
	return code !== 0x20;
}

/** Offsets: a space is one code unit, so words end where code units say, and never inside a character. */
function wordStartBefore(text: string, at: number): number {
	let index = at;
	while (index > 0 && !isWordCharacter(text.charCodeAt(index - 1))) index--;
	while (index > 0 && isWordCharacter(text.charCodeAt(index - 1))) index--;
	return index;
}

function wordEndAfter(text: string, at: number): number {
	let index = at;
	while (index < text.length && !isWordCharacter(text.charCodeAt(index))) index++;
	while (index < text.length && isWordCharacter(text.charCodeAt(index))) index++;
	return index;
}
