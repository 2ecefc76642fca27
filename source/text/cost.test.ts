import {describe, expect, it} from 'vitest';
import {formatCost} from './cost.js';

describe('formatCost', () => {
	it('says ? for an unknown cost, never a number', () => {
		expect(formatCost(undefined)).toBe('?');
	});

	it('keeps the digits that matter for small sums and does not round a real cost to nothing', () => {
		expect(formatCost(0)).toBe('$0');
		expect(formatCost(0.000_01)).toBe('<$0.0001');
		expect(formatCost(0.004_21)).toBe('$0.0042');
		expect(formatCost(0.5)).toBe('$0.50');
		expect(formatCost(12.346)).toBe('$12.35');
		expect(formatCost(1234.5)).toBe('$1235');
	});
});
