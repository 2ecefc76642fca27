import {describe, expect, it} from 'vitest';
import {displayWidth} from './width/width.js';
import {packItems, wrapIndented, wrapToWidth} from './wrap.js';

describe('wrapToWidth', () => {
	it('leaves lines that fit as they are, one output line per input line', () => {
		expect(wrapToWidth('npm test\nall passed', 20)).toEqual(['npm test', 'all passed']);
		expect(wrapToWidth('', 20)).toEqual(['']);
	});

	it('breaks a long line after the last space that fits', () => {
		expect(wrapToWidth('the quick brown fox jumps over', 12)).toEqual(['the quick', 'brown fox', 'jumps over']);
	});

	it('cuts a word longer than the width rather than overflowing', () => {
		const lines = wrapToWidth('/home/user/project/node_modules/.bin/vitest', 10);
		expect(lines.join('')).toBe('/home/user/project/node_modules/.bin/vitest');
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(10);
	});

	it('never splits a wide character across the edge', () => {
		const lines = wrapToWidth('日本語のテキスト', 5);
		expect(lines).toEqual(['日本', '語の', 'テキ', 'スト']);
		for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(5);
	});

	it('keeps an emoji with its modifiers together', () => {
		const family = '👨‍👩‍👧';
		const lines = wrapToWidth(`ab${family}cd`, 3);
		expect(lines.some(line => line.includes(family))).toBe(true);
		for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(3);
	});

	it('treats a width below one as one', () => {
		expect(wrapToWidth('abc', 0)).toEqual(['a', 'b', 'c']);
	});
});

describe('wrapIndented', () => {
	it('keeps the indentation and hangs the continuation two columns further in', () => {
		expect(wrapIndented('    at one two three four', 14)).toEqual(['    at one', '      two', '      three', '      four']);
		expect(wrapIndented('plain', 10)).toEqual(['plain']);
	});

	it('gives up indentation wider than half the width, and every piece fits', () => {
		const pieces = wrapIndented(`${' '.repeat(12)}word word word`, 20);
		expect(pieces).toEqual(['word word word']);
		for (const width of [1, 2, 5, 9, 20])
			for (const piece of wrapIndented('      at somewhere(file.js:1:2)', width)) expect(displayWidth(piece)).toBeLessThanOrEqual(width);
	});
});

describe('packItems', () => {
	it('packs items onto as few lines as fit, never breaking one', () => {
		expect(packItems(['📁 list', '⚡ exec', '☑ todo'], 16)).toEqual(['📁 list  ⚡ exec', '☑ todo']);
		expect(packItems(['a', 'b'], 80)).toEqual(['a  b']);
	});
});
