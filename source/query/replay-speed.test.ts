import {describe, expect, it} from 'vitest';
import {nextSpeed, parseReplaySpeed, replaySpeeds} from './replay-speed.js';

describe('parseReplaySpeed', () => {
	it('accepts a positive number, with or without an x', () => {
		expect(parseReplaySpeed('10')).toBe(10);
		expect(parseReplaySpeed('10x')).toBe(10);
		expect(parseReplaySpeed('2.5X')).toBe(2.5);
		expect(parseReplaySpeed('.5')).toBe(0.5);
		expect(parseReplaySpeed(' 4 ')).toBe(4);
	});

	it('refuses zero, negatives and words', () => {
		expect(parseReplaySpeed('0')).toBeUndefined();
		expect(parseReplaySpeed('-2')).toBeUndefined();
		expect(parseReplaySpeed('fast')).toBeUndefined();
		expect(parseReplaySpeed('')).toBeUndefined();
		expect(parseReplaySpeed('1e3')).toBeUndefined();
	});
});

describe('nextSpeed', () => {
	it('steps up and down through the listed speeds', () => {
		expect(nextSpeed(1, 1)).toBe(2);
		expect(nextSpeed(2, -1)).toBe(1);
		expect(nextSpeed(10, 1)).toBe(20);
	});

	it('from a speed between two steps, goes to the nearest step in that direction', () => {
		expect(nextSpeed(3, 1)).toBe(5);
		expect(nextSpeed(3, -1)).toBe(2);
	});

	it('stays at the slowest and the fastest speed', () => {
		expect(nextSpeed(replaySpeeds[0], -1)).toBe(0.25);
		expect(nextSpeed(1000, 1)).toBe(1000);
		expect(nextSpeed(5000, 1)).toBe(1000);
	});
});
