import {describe, expect, it} from 'vitest';
import {browse, editLine, lineOf, remember, splitAtCursor, type Line, type LineEdit} from './line-editor.js';

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

	it('splits the text at the cursor for drawing, with a blank cell at the end', () => {
		expect(splitAtCursor(at('ab|c'))).toEqual({before: 'ab', at: 'c', after: ''});
		expect(splitAtCursor(at('abc|'))).toEqual({before: 'abc', at: ' ', after: ''});
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
