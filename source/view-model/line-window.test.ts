import {describe, expect, it} from 'vitest';
import {growthOnFourTimes, linearGrowthBound} from '../../test/helpers/growth.js';
import {displayWidth} from '../text/width/width.js';
import {lineOf, type Line} from './line-editor.js';
import {lineWindow, shownPart, shownStart, type LineWindow} from './line-window.js';

function drawn(shown: LineWindow): string {
	return `${shown.cutBefore ? '…' : ''}${shown.before}${shown.at}${shown.after}`;
}

describe('the window a prompt shows of its line', () => {
	it('a line that fits is shown whole, the cursor on its character or after the end', () => {
		expect(lineWindow({text: 'abc', cursor: 1, selected: false}, 20)).toEqual({cutBefore: false, before: 'a', at: 'b', after: 'c', cutAfter: false});
		expect(lineWindow(lineOf('abc'), 4)).toEqual({cutBefore: false, before: 'abc', at: ' ', after: '', cutAfter: false});
	});

	it('a longer line keeps the cursor in sight, marking where it is cut, in exactly the columns given', () => {
		const text = Array.from({length: 100}, (_, index) => String(index % 10)).join('');
		const atEnd = lineWindow(lineOf(text), 20);
		expect(drawn(atEnd)).toBe(`…${text.slice(-18)} `);
		expect(displayWidth(drawn(atEnd))).toBe(20);
		const atStart = lineWindow({text, cursor: 0, selected: false}, 20);
		expect(drawn(atStart)).toBe(`${text.slice(0, 19)}…`);
		const inMiddle = lineWindow({text, cursor: 50, selected: false}, 20);
		expect(inMiddle.at).toBe(text[50]);
		expect(inMiddle.cutBefore && inMiddle.cutAfter).toBe(true);
		expect(displayWidth(drawn(inMiddle))).toBe(20);
	});

	it('wide characters are never split and never make it a column wider', () => {
		const line: Line = lineOf('日本語のクエリをここに入力します');
		for (const columns of [5, 8, 9, 20]) {
			const shown = lineWindow(line, columns);
			expect(displayWidth(drawn(shown))).toBeLessThanOrEqual(columns);
			expect(drawn(shown)).toMatch(/す $/);
		}
	});

	it('a control character is drawn inert, spaces at either end of a part are kept', () => {
		expect(lineWindow({text: 'a \u001B b', cursor: 1, selected: false}, 40)).toEqual({cutBefore: false, before: 'a', at: ' ', after: '␛ b', cutAfter: false});
		expect(shownPart('  x  ')).toBe('  x  ');
	});

	it('is made in time linear in the line, measuring and making safe only the window: frames of 250,000 and 1,000,000 characters', () => {
		const frames = (size: number) => {
			const line = lineOf('abcdefghij'.repeat(size / 10));
			let last: LineWindow | undefined;
			for (let frame = 0; frame < 5; frame++) last = lineWindow(line, 80);
			return last;
		};
		expect(displayWidth(drawn(frames(1_000_000)!))).toBe(80);
		expect(growthOnFourTimes(frames, 250_000)).toBeLessThan(linearGrowthBound);
	});

	it('spaces then a letter are made safe in linear time: / *$/ took seconds for 40,000 spaces', () => {
		// Sizes at which the backtracking fails in seconds (~0.12 s for 10,000 spaces, ~1.7 s for 40,000) rather than
		// in minutes.
		const part = `${' '.repeat(40_000)}x${' '.repeat(3)}`;
		expect(shownPart(part)).toBe(part);
		expect(growthOnFourTimes(size => shownPart(`${' '.repeat(size)}x   `), 10_000)).toBeLessThan(linearGrowthBound);
	});
});

describe('the start of a long text for a status line', () => {
	it('is made safe and cut to the columns, marked where it is cut', () => {
		expect(shownStart('npm test', 20)).toBe('npm test');
		expect(shownStart('x'.repeat(100_000), 10)).toBe(`${'x'.repeat(9)}…`);
		expect(shownStart('\u001B[2J', 10)).toBe('␛[2J');
		// Characters of no width still end in a mark when more follows.
		expect(shownStart(`${'e\u0301'.repeat(6)}tail`, 10)).toMatch(/…$/);
	});
});
