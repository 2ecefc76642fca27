import {describe, expect, it} from 'vitest';
import {maxScroll} from './scroll.js';

describe('maxScroll', () => {
	it('is how far the lines can scroll with the title and the footer taking two rows', () => {
		expect(maxScroll(10, 5)).toBe(7);
		expect(maxScroll(2, 5)).toBe(0);
		expect(maxScroll(10, 1)).toBe(9);
	});
});
