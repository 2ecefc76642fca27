import type {Key} from 'ink';
import {describe, expect, it} from 'vitest';
import {commandFor, keyHelp, noModifiers, pressesOf, typedAfter} from './keymap.js';

const plain: Key = noModifiers;

function key(flags: Partial<Key>): Key {
	return {...plain, ...flags};
}

describe('commandFor', () => {
	it('maps the arrows and the vi keys to the same moves', () => {
		expect(commandFor('', key({upArrow: true}))).toBe('nav.up');
		expect(commandFor('k', plain)).toBe('nav.up');
		expect(commandFor('', key({downArrow: true}))).toBe('nav.down');
		expect(commandFor('j', plain)).toBe('nav.down');
		expect(commandFor('', key({leftArrow: true}))).toBe('pane.collapse');
		expect(commandFor('h', plain)).toBe('pane.collapse');
		expect(commandFor('l', plain)).toBe('pane.expand');
	});

	it('tells Ctrl-C (interrupt) from q (quit), and ignores other control keys', () => {
		expect(commandFor('c', key({ctrl: true}))).toBe('app.interrupt');
		expect(commandFor('q', plain)).toBe('app.quit');
		expect(commandFor('q', key({ctrl: true}))).toBeUndefined();
		expect(commandFor('x', key({meta: true}))).toBeUndefined();
	});

	it('knows the keys the help lists', () => {
		expect(commandFor('/', plain)).toBe('search.open');
		expect(commandFor(':', plain)).toBe('filter.open');
		expect(commandFor('x', plain)).toBe('filter.errors');
		expect(commandFor('t', plain)).toBe('timeline.toggle');
		expect(commandFor('u', plain)).toBe('usage.open');
		expect(commandFor('o', plain)).toBe('inspector.export');
		expect(commandFor('+', plain)).toBe('replay.faster');
		expect(commandFor('=', plain)).toBe('replay.faster');
		expect(commandFor('-', plain)).toBe('replay.slower');
		expect(commandFor('', key({escape: true}))).toBe('overlay.close');
		expect(commandFor('\r', key({return: true}))).toBe('item.activate');
		expect(commandFor('z', plain)).toBeUndefined();
		expect(commandFor('z', key({ctrl: true}))).toBe('app.suspend');
		expect(commandFor('', key({backspace: true}))).toBe('app.back');
		expect(commandFor('c', plain)).toBe('conversation.open');
		expect(commandFor('C', plain)).toBe('filter.clearAll');
	});
});

describe('keyHelp', () => {
	it('names every single-letter key it lists, each bound to a command', () => {
		const letters = keyHelp.flatMap(([keys]) => keys.split(/[\s/]+/).filter(part => /^[a-zA-Z?:/x]$/.test(part)));
		expect(letters.length).toBeGreaterThan(10);
		for (const letter of letters) expect(commandFor(letter, plain), letter).toBeDefined();
	});
});

describe('typedAfter: the rest of a read, as typed, after the press that handed the keyboard off', () => {
	it('gives the characters after that press, Enter and Backspace as their bytes', () => {
		expect(typedAfter('j\rx\u007Fk', plain, 1)).toBe('x\u007Fk');
		expect(typedAfter('j\rx', plain, 2)).toBe('');
	});

	it('gives nothing after a read that is one press, and the key after an Esc read as Alt+key', () => {
		expect(typedAfter('\r', key({return: true}), 0)).toBe('');
		expect(typedAfter('q', key({meta: true}), 0)).toBe('q');
		expect(typedAfter('q', key({meta: true}), 1)).toBe('');
	});
});

describe('pressesOf', () => {
	it('splits a run of typed characters into one press each', () => {
		expect(pressesOf('jjk', plain).map(press => press.input)).toEqual(['j', 'j', 'k']);
	});

	it('keeps Enter, Backspace and Ctrl-C inside a pasted run', () => {
		const presses = pressesOf('ab\r\u007F\u0003', plain);
		expect(presses.map(press => press.input)).toEqual(['a', 'b', '\r', '', 'c']);
		expect(presses[2]!.key.return).toBe(true);
		expect(presses[3]!.key.backspace).toBe(true);
		expect(presses[4]!.key.ctrl).toBe(true);
	});

	it('keeps Ctrl-letters inside a run: Ctrl-Z, Ctrl-U, Ctrl-W', () => {
		const presses = pressesOf('a\u001A\u0015\u0017b', plain);
		expect(presses.map(press => `${press.key.ctrl ? '^' : ''}${press.input}`)).toEqual(['a', '^z', '^u', '^w', 'b']);
	});

	it('reads Esc then a key in one read as the two presses, not as Alt+key', () => {
		const presses = pressesOf('q', key({meta: true}));
		expect(presses).toHaveLength(2);
		expect(presses[0]!.key.escape).toBe(true);
		expect(presses[1]).toEqual({input: 'q', key: plain});
	});

	it('regression: Enter typed as the viewer starts, read as a line feed (the terminal not yet raw), is Enter', () => {
		// What Ink hands over for a lone "\n": no key of its own, the line feed as the input.
		expect(pressesOf('\n', plain)).toEqual([{input: '\r', key: key({return: true})}]);
		expect(commandFor(pressesOf('\n', plain)[0]!.input, pressesOf('\n', plain)[0]!.key)).toBe('item.activate');
	});

	it('leaves a single key and a control key as they are', () => {
		expect(pressesOf('j', plain)).toEqual([{input: 'j', key: plain}]);
		expect(pressesOf('c', key({ctrl: true}))).toEqual([{input: 'c', key: key({ctrl: true})}]);
	});
});
