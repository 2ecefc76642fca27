import {describe, expect, it} from 'vitest';
import {foldHeadTail, isFoldMarker} from './fold-lines.js';

const lines = (n: number) => Array.from({length: n}, (_, index) => `line ${index + 1}`);

describe('folding a long block', () => {
	it('keeps the head and the tail and counts the lines left out', () => {
		expect(foldHeadTail(lines(10), 2, 3)).toEqual(['line 1', 'line 2', '… 5 lines left out …', 'line 8', 'line 9', 'line 10']);
	});

	it('keeps a block whole when folding would hide no more than the marker costs', () => {
		expect(foldHeadTail(lines(6), 2, 3)).toEqual(lines(6));
		expect(foldHeadTail(lines(7), 2, 3)).toEqual(['line 1', 'line 2', '… 2 lines left out …', 'line 5', 'line 6', 'line 7']);
	});

	it('recognises its own marker and nothing else', () => {
		expect(isFoldMarker(foldHeadTail(lines(9), 1, 1)[1]!)).toBe(true);
		expect(isFoldMarker('… 12 lines left out … and more')).toBe(false);
	});
});
