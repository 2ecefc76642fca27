import {assertNever} from '../model/assert-never.js';

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

/** A line holding `text` with the cursor at its end. */
export function lineOf(text: string, selected = false): Line {
	return {text, cursor: [...text].length, selected: selected && text !== ''};
}

export function editLine(line: Line, edit: LineEdit): Line {
	const characters = [...line.text];
	const cursor = Math.max(0, Math.min(characters.length, line.cursor));
	if (line.selected) {
		switch (edit.type) {
			case 'insert':
				return lineOf(printable(edit.text).join(''));
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
				return editLine({text: line.text, cursor, selected: false}, edit);
			default:
				return assertNever(edit);
		}
	}

	const before = characters.slice(0, cursor);
	const after = characters.slice(cursor);
	const make = (head: string[], tail: string[]): Line => ({text: [...head, ...tail].join(''), cursor: head.length, selected: false});
	switch (edit.type) {
		case 'insert':
			return make([...before, ...printable(edit.text)], after);
		case 'left':
			return {...line, cursor: Math.max(0, cursor - 1)};
		case 'right':
			return {...line, cursor: Math.min(characters.length, cursor + 1)};
		case 'wordLeft':
			return {...line, cursor: wordStartBefore(characters, cursor)};
		case 'wordRight':
			return {...line, cursor: wordEndAfter(characters, cursor)};
		case 'home':
			return {...line, cursor: 0};
		case 'end':
			return {...line, cursor: characters.length};
		case 'backspace':
			return make(before.slice(0, -1), after);
		case 'delete':
			return make(before, after.slice(1));
		case 'killToStart':
			return make([], after);
		case 'killToEnd':
			return make(before, []);
		case 'killWordBack':
			return make(before.slice(0, wordStartBefore(characters, cursor)), after);
		default:
			return assertNever(edit);
	}
}

/** What a prompt shows: the text split at the cursor, so the view can draw the cursor (or the selection). */
export function splitAtCursor(line: Line): {before: string; at: string; after: string} {
	const characters = [...line.text];
	const cursor = Math.max(0, Math.min(characters.length, line.cursor));
	return {before: characters.slice(0, cursor).join(''), at: characters[cursor] ?? ' ', after: characters.slice(cursor + 1).join('')};
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
export function browse(entries: readonly string[], line: Line, recall: Recall | undefined, direction: -1 | 1): {line: Line; recall: Recall | undefined} | undefined {
	const from = recall?.index ?? entries.length;
	const to = from + direction;
	if (to < 0 || to > entries.length || (recall === undefined && direction === 1)) return undefined;
	const draft = recall?.draft ?? line.text;
	if (to === entries.length) return {line: lineOf(draft), recall: undefined};
	return {line: lineOf(entries[to] ?? ''), recall: {index: to, draft}};
}

/** Control characters never enter the line (a paste can hold newlines, tabs or escape sequences). */
function printable(text: string): string[] {
	return [...text].filter(character => character >= ' ' && character !== '\u007F' && !(character >= '\u0080' && character < '\u00A0'));
}

function isWordCharacter(character: string | undefined): boolean {
	return character !== undefined && character !== ' ';
}

function wordStartBefore(characters: readonly string[], cursor: number): number {
	let index = cursor;
	while (index > 0 && !isWordCharacter(characters[index - 1])) index--;
	while (index > 0 && isWordCharacter(characters[index - 1])) index--;
	return index;
}

function wordEndAfter(characters: readonly string[], cursor: number): number {
	let index = cursor;
	while (index < characters.length && !isWordCharacter(characters[index])) index++;
	while (index < characters.length && isWordCharacter(characters[index])) index++;
	return index;
}
