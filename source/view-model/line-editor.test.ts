import {describe, expect, it} from 'vitest';
import {browse, editLine, lineOf, maxLineChars, remember, type Line, type LineEdit} from './line-editor.js';

/** `|` marks the cursor: `ab|c`. */
function at(marked: string, selected = false): Line {
	const cursor = [...marked].indexOf('|');
	return {text: marked.replace('|', ''), cursor, selected};
}

function show(line: Line): string {
	const characters = [...line.text];
	return [...characters.slice(0, line.cursor), '|', ...characters.slice(line.cursor)].join('');
}

function apply(marked: string, ...edits: LineEdit[]): string {
	return show(edits.reduce(editLine, at(marked)));
}

describe('editLine', () => {
	it('inserts at the cursor, not at the end', () => {
		expect(apply('type:|exec', {type: 'insert', text: 'x'})).toBe('type:x|exec');
		expect(apply('|', {type: 'insert', text: 'npm'})).toBe('npm|');
	});

	it('moves by character, by word and to either end, staying within the line', () => {
		expect(apply('ab|c', {type: 'left'}, {type: 'left'}, {type: 'left'})).toBe('|abc');
		expect(apply('ab|c', {type: 'right'}, {type: 'right'})).toBe('abc|');
		expect(apply('ab|c', {type: 'home'})).toBe('|abc');
		expect(apply('ab|c', {type: 'end'})).toBe('abc|');
		expect(apply('type:exec  expert:w|riter', {type: 'wordLeft'})).toBe('type:exec  |expert:writer');
		expect(apply('type:exec|  expert:writer', {type: 'wordRight'})).toBe('type:exec  expert:writer|');
	});

	it('deletes before the cursor with backspace and under it with delete', () => {
		expect(apply('ab|c', {type: 'backspace'})).toBe('a|c');
		expect(apply('ab|c', {type: 'delete'})).toBe('ab|');
		expect(apply('|abc', {type: 'backspace'})).toBe('|abc');
		expect(apply('abc|', {type: 'delete'})).toBe('abc|');
	});

	it('kills as a shell does: Ctrl-U to the start, Ctrl-K to the end, Ctrl-W the word before the cursor', () => {
		expect(apply('type:exec ver|cel', {type: 'killToStart'})).toBe('|cel');
		expect(apply('type:exec ver|cel', {type: 'killToEnd'})).toBe('type:exec ver|');
		expect(apply('type:exec vercel |', {type: 'killWordBack'})).toBe('type:exec |');
		expect(apply('type:exec vercel|', {type: 'killWordBack'}, {type: 'killWordBack'})).toBe('|');
		expect(apply('type:exec ver|cel', {type: 'killWordBack'})).toBe('type:exec |cel');
	});

	it('counts a wide character or an emoji as one step', () => {
		expect(apply('日本|語', {type: 'backspace'})).toBe('日|語');
		expect(apply('a😀|b', {type: 'left'}, {type: 'delete'})).toBe('a|b');
	});

	it('keeps control characters out of the line', () => {
		expect(apply('|', {type: 'insert', text: 'a\tb\nc\u001B[2J\u009Bd'})).toBe('abc[2Jd|');
	});

	it('replaces a selected line on typing, clears it on a deletion, and edits it after a movement', () => {
		const reopened = lineOf('vitest', true);
		expect(show(editLine(reopened, {type: 'insert', text: 'n'}))).toBe('n|');
		expect(editLine(reopened, {type: 'backspace'})).toEqual(lineOf(''));
		expect(editLine(reopened, {type: 'killToEnd'})).toEqual(lineOf(''));
		const kept = editLine(reopened, {type: 'left'});
		expect(kept.selected).toBe(false);
		expect(show(kept)).toBe('vites|t');
		expect(show(editLine(editLine(reopened, {type: 'end'}), {type: 'insert', text: 's'}))).toBe('vitests|');
		// An empty line has nothing to select.
		expect(lineOf('', true).selected).toBe(false);
	});

	it('holds at most maxLineChars characters: a longer paste keeps its start, and typing at a full line does nothing', () => {
		const pasted = editLine(lineOf(''), {type: 'insert', text: `${'😀'.repeat(maxLineChars - 1)}abc`});
		expect(pasted.cursor).toBe(maxLineChars);
		expect(pasted.text).toBe(`${'😀'.repeat(maxLineChars - 1)}a`);
		expect(editLine(pasted, {type: 'insert', text: 'z'})).toEqual(pasted);
		// Room made by a deletion is room again.
		const edited = editLine(editLine(pasted, {type: 'home'}), {type: 'delete'});
		expect(editLine(edited, {type: 'insert', text: 'yz'}).text).toBe(`y${'😀'.repeat(maxLineChars - 2)}a`);
		// A selected line is replaced by what fits.
		expect(editLine(lineOf('old', true), {type: 'insert', text: 'x'.repeat(maxLineChars + 10)}).text).toHaveLength(maxLineChars);
	});

	it('steps over a character outside the BMP as one, whatever the edit', () => {
		expect(apply('😀a|😀', {type: 'wordLeft'})).toBe('|😀a😀');
		expect(apply('|😀 😀', {type: 'wordRight'})).toBe('😀| 😀');
		expect(apply('😀 😀|', {type: 'killWordBack'})).toBe('😀 |');
		expect(apply('😀|😀', {type: 'killToEnd'})).toBe('😀|');
		expect(apply('😀|😀', {type: 'end'})).toBe('😀😀|');
		expect(apply('😀😀|', {type: 'right'})).toBe('😀😀|');
	});
});

describe('history', () => {
	it('remembers entered lines newest last, without blanks or repeats', () => {
		let entries = remember([], 'npm');
		entries = remember(entries, '  ');
		entries = remember(entries, 'vitest');
		entries = remember(entries, 'npm');
		expect(entries).toEqual(['vitest', 'npm']);
	});

	it('goes back with ↑ and forward with ↓, returning to the draft past the newest', () => {
		const entries = ['first', 'second'];
		const draft = lineOf('dra');
		const up = browse(entries, draft, undefined, -1);
		expect(up?.line.text).toBe('second');
		const upAgain = browse(entries, up!.line, up!.recall, -1);
		expect(upAgain?.line.text).toBe('first');
		expect(browse(entries, upAgain!.line, upAgain!.recall, -1)).toBeUndefined();
		const down = browse(entries, upAgain!.line, upAgain!.recall, 1);
		expect(down?.line.text).toBe('second');
		const back = browse(entries, down!.line, down!.recall, 1);
		expect(back).toEqual({line: lineOf('dra'), recall: undefined});
		expect(browse(entries, back!.line, undefined, 1)).toBeUndefined();
		expect(browse([], draft, undefined, -1)).toBeUndefined();
	});
});
