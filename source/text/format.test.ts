import {describe, expect, it} from 'vitest';
import {formatCount, formatDateTime, formatDuration, plural, span} from './format.js';

describe('formatCount', () => {
	it('writes small counts in full', () => {
		expect(formatCount(0)).toBe('0');
		expect(formatCount(999)).toBe('999');
	});

	it('writes thousands with one decimal below ten thousand, whole thousands above', () => {
		expect(formatCount(1000)).toBe('1.0k');
		expect(formatCount(3042)).toBe('3.0k');
		expect(formatCount(4321)).toBe('4.3k');
		expect(formatCount(12_600)).toBe('13k');
		expect(formatCount(999_000)).toBe('999k');
	});

	it('writes millions with one decimal', () => {
		expect(formatCount(1_000_000)).toBe('1.0M');
		expect(formatCount(2_450_000)).toBe('2.5M');
	});
});

describe('formatDuration', () => {
	it('writes a dash when there is no duration to show', () => {
		expect(formatDuration(undefined)).toBe('–');
		expect(formatDuration(-5)).toBe('–');
		expect(formatDuration(Number.NaN)).toBe('–');
		expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('–');
	});

	it('writes milliseconds under a second, rounded', () => {
		expect(formatDuration(0)).toBe('0ms');
		expect(formatDuration(624.6)).toBe('625ms');
	});

	it('writes seconds with a decimal under a minute', () => {
		expect(formatDuration(1000)).toBe('1.0s');
		expect(formatDuration(12_345)).toBe('12.3s');
	});

	it('writes minutes and zero-padded seconds under an hour', () => {
		expect(formatDuration(60_000)).toBe('1m 00s');
		expect(formatDuration(5 * 60_000 + 7_900)).toBe('5m 07s');
	});

	it('writes hours and zero-padded minutes beyond', () => {
		expect(formatDuration(3_600_000)).toBe('1h 00m');
		expect(formatDuration(26 * 3_600_000 + 9 * 60_000)).toBe('26h 09m');
	});
});

describe('span', () => {
	it('is the time from start to end', () => {
		expect(span(1_700_000_000_000, 1_700_000_002_500)).toBe(2500);
	});

	it('is unknown when either end is unknown', () => {
		expect(span(undefined, 10)).toBeUndefined();
		expect(span(10, undefined)).toBeUndefined();
	});

	it('never goes negative when events arrive out of order', () => {
		expect(span(2000, 1000)).toBe(0);
	});
});

describe('plural', () => {
	it('says 1 step but 0 and 2 steps', () => {
		expect(plural(1, 'step')).toBe('1 step');
		expect(plural(0, 'step')).toBe('0 steps');
		expect(plural(2, 'bad line')).toBe('2 bad lines');
		expect(plural(3, 'todo remains', 'todos remain')).toBe('3 todos remain');
	});
});

describe('formatDateTime', () => {
	it('writes local time to the second, as --print does', () => {
		expect(formatDateTime(new Date(2026, 10, 21, 21, 1, 39).getTime())).toBe('2026-11-21 21:01:39');
		expect(formatDateTime(new Date(2026, 0, 2, 3, 4, 5).getTime())).toBe('2026-01-02 03:04:05');
	});
});
