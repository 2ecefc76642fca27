import {describe, expect, it} from 'vitest';
import {columnWidths} from './column-widths.js';

/* How wide each column of a headless table is: its widest cell, or its title when that is wider. */

describe('columnWidths', () => {
	it('makes each column as wide as its widest cell or its title', () => {
		expect(
			columnWidths(
				['run', 'status'],
				[
					['a', 'completed'],
					['abcdef', 'ok'],
				],
			),
		).toEqual([6, 9]);
	});

	it('keeps a column as wide as its title when no cell is wider', () => {
		expect(columnWidths(['expert', 'tokens'], [['w', '12']])).toEqual([6, 6]);
	});

	it('measures cells in terminal columns, so wide characters take two', () => {
		expect(columnWidths(['name'], [['日本語で']])).toEqual([8]);
	});

	it('treats a missing cell as empty and ignores cells past the header', () => {
		expect(columnWidths(['a', 'b'], [['x'], ['x', 'yyy', 'a much longer cell past the header']])).toEqual([1, 3]);
	});

	it('gives the titles’ widths for a table with no rows', () => {
		expect(columnWidths(['job', 'runs'], [])).toEqual([3, 4]);
	});

	it('measures 200,000 rows without overflowing the call stack', () => {
		const rows = Array.from({length: 200_000}, (_, index) => [String(index), index === 123_456 ? 'the widest cell of all' : 'x']);
		expect(columnWidths(['#', 'cell'], rows)).toEqual([6, 22]);
	});
});
