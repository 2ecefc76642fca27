import {describe, expect, it} from 'vitest';
import {numberedLines, splitLines} from './numbered-lines.js';

describe('numbered lines', () => {
	it('numbers each line, right-aligned to the widest number', () => {
		const text = Array.from({length: 10}, (_, index) => `l${index + 1}`).join('\n');
		const out = numberedLines(text);
		expect(out[0]).toBe(' 1 │ l1');
		expect(out[9]).toBe('10 │ l10');
	});

	it('does not count a trailing newline as a line, and empty text has none', () => {
		expect(numberedLines('# Notes\n- alpha\n')).toEqual(['1 │ # Notes', '2 │ - alpha']);
		expect(splitLines('')).toEqual([]);
		expect(splitLines('\n')).toEqual(['']);
	});

	it('splits Windows line ends and a progress bar’s carriage returns too', () => {
		expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
		expect(splitLines('10%\r50%\r100%\n')).toEqual(['10%', '50%', '100%']);
	});
});
