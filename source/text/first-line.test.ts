import {describe, expect, it} from 'vitest';
import {firstLine} from './first-line.js';

describe('the first line of an answer', () => {
	it('skips blank lines and keeps the first one with text', () => {
		expect(firstLine('\n\n  The answer is 42.\nDetails follow.')).toBe('The answer is 42.');
	});

	it('shows control sequences inert', () => {
		expect(firstLine('\u001b[31mred')).toBe('␛[31mred');
	});

	it('is empty for blank text', () => {
		expect(firstLine(' \n ')).toBe('');
	});
});
