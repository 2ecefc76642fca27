import {describe, expect, it} from 'vitest';
import {maxScroll, scrollTop} from './scroll.js';

describe('maxScroll', () => {
	it('is how far the lines can scroll with the title and the footer taking two rows', () => {
		expect(maxScroll(10, 5)).toBe(7);
		expect(maxScroll(2, 5)).toBe(0);
		expect(maxScroll(10, 1)).toBe(9);
	});
});

describe('#32 §3.9 scrollTop: a row jumped to (the timeline’s enter) has a third of the screen above it', () => {
	it('a jump below the window puts the row a third of the way down, not on the last line', () => {
		expect(scrollTop(0, 40, 100, 21, false)).toBe(20);
		expect(scrollTop(0, 40, 100, 21, false, true)).toBe(33);
		// Already in sight with room above: the window stays.
		expect(scrollTop(30, 40, 100, 21, false, true)).toBe(30);
		// On the top line: moved down to show what leads to it; near the start, as far as there is.
		expect(scrollTop(40, 40, 100, 21, false, true)).toBe(33);
		expect(scrollTop(10, 3, 100, 21, false, true)).toBe(0);
	});
});
