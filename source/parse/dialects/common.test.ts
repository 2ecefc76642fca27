import {describe, expect, it} from 'vitest';
import {badStepNumberReason, commonSchemas, isBadStepNumber, maxTokenCount, stepNumberOf, timestampOf, tokenCountOf, toNumber, usageTotals} from './common.js';

/* The values every dialect reads its own way: loose numbers, token counts, timestamps and usage records. */

describe('toNumber', () => {
	it('reads numbers, and numbers sent as strings', () => {
		expect(toNumber(3)).toBe(3);
		expect(toNumber('42')).toBe(42);
		expect(toNumber(' 1.5 ')).toBe(1.5);
	});

	it('gives undefined for anything that is not a finite number', () => {
		for (const value of ['', '   ', 'three', Number.NaN, Number.POSITIVE_INFINITY, '1e999', null, true, undefined, [1]])
			expect(toNumber(value)).toBeUndefined();
	});
});

describe('stepNumberOf', () => {
	it('reads a whole number from 0 to 2^53 − 1, however JSON writes it', () => {
		for (const written of ['3', '"3"', '3.0', '3e0', '0.3e1', '" 3 "']) expect(stepNumberOf(JSON.parse(written))).toBe(3);
		expect(stepNumberOf(0)).toBe(0);
		expect(stepNumberOf(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
	});

	it('reads anything else as no step number, and tells it from none at all', () => {
		for (const value of [1e20, Number.MAX_SAFE_INTEGER + 1, -1, 1.5, '1e20', 'three', '', null, true, [3], {}]) {
			expect(stepNumberOf(value)).toBeUndefined();
			expect(isBadStepNumber(value)).toBe(true);
		}

		expect(stepNumberOf(undefined)).toBeUndefined();
		expect(isBadStepNumber(undefined)).toBe(false);
		expect(isBadStepNumber('3')).toBe(false);
	});

	it('the schemas read it the same way', () => {
		const schema = commonSchemas().stepNumber;
		for (const value of [3, '3', 1e20, -1, 1.5, undefined, 'x']) expect(schema.parse(value)).toBe(stepNumberOf(value));
	});

	it('says what a bad one was, cut short, never inside a surrogate pair', () => {
		expect(badStepNumberReason('stepNumber', 1e20)).toBe(
			'stepNumber 100000000000000000000 is not a step number (a whole number from 0 to 9007199254740991); the event is read without it',
		);
		const reason = badStepNumberReason('step.stepNumber', `${'x'.repeat(37)}😀😀`);
		expect(reason).toMatch(/^step\.stepNumber "x{37}…/);
		expect(reason).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
	});
});

describe('tokenCountOf', () => {
	it('reads a count, also one sent as a string', () => {
		expect(tokenCountOf(1200)).toBe(1200);
		expect(tokenCountOf('30')).toBe(30);
	});

	it('counts a missing, negative or unreadable count as zero', () => {
		for (const value of [undefined, null, -1, 'lots', Number.NaN, Number.NEGATIVE_INFINITY]) expect(tokenCountOf(value)).toBe(0);
	});

	it('caps absurd counts so that adding two of them stays finite', () => {
		expect(tokenCountOf(1e308)).toBe(maxTokenCount);
		expect(Number.isFinite(tokenCountOf(1e308) + tokenCountOf(1e308))).toBe(true);
	});
});

describe('timestampOf', () => {
	it('reads epoch milliseconds, as Perstack and drover send them, also as a string', () => {
		expect(timestampOf(1_795_294_857_945)).toBe(1_795_294_857_945);
		expect(timestampOf('1795294857945')).toBe(1_795_294_857_945);
	});

	it('reads an ISO-8601 time, as the strategy daemon sends it', () => {
		expect(timestampOf('2026-11-25T09:05:18.000Z')).toBe(Date.UTC(2026, 10, 25, 9, 5, 18));
	});

	it("reads the agent CLIs' ISO times digit by digit exactly as Date.parse does, and leaves the rest to it", () => {
		const times = [
			'2026-11-27T12:11:40.127Z',
			'2026-11-27T12:11:40Z',
			'1970-01-01T00:00:00.000Z',
			'2024-02-28T23:59:59.999Z',
			// Left to Date.parse: rolled over, out of range, other forms.
			'2025-02-30T00:00:00.000Z',
			'2024-02-29T24:00:00.000Z',
			'2024-13-01T00:00:00.000Z',
			'2024-12-01T00:60:00.000Z',
			'1969-12-31T23:59:59.999Z',
			'2024-12-01T00:00:00.12Z',
			'2024-12-01T00:00:00.1234Z',
			'2024-12-01T00:00:00+01:00',
			'2024-12-01 00:00:00.000Z',
			'2024-12-01T0a:00:00.000Z',
			'2024-12-01T00:00:00,000Z',
			'２024-12-01T00:00:00.000Z',
		];
		for (const time of times) {
			const parsed = Date.parse(time);
			expect([time, timestampOf(time)]).toEqual([time, Number.isNaN(parsed) ? undefined : parsed]);
		}
	});

	it('reads every date it takes as Date.parse does, across leap years and centuries (days counted without Date.UTC)', () => {
		for (const year of [1970, 1971, 1999, 2000, 2023, 2024, 2100, 2400, 9999]) {
			for (let month = 1; month <= 12; month++) {
				for (let day = 1; day <= 28; day++) {
					const time = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T23:59:59.999Z`;
					expect([time, timestampOf(time)]).toEqual([time, Date.parse(time)]);
				}
			}
		}
	});

	it('gives undefined for a time no Date can hold, so no view fails formatting it', () => {
		expect(timestampOf(1e308)).toBeUndefined();
		expect(timestampOf('1e20')).toBeUndefined();
		expect(timestampOf(Number.NaN)).toBeUndefined();
		expect(timestampOf(8.64e15)).toBe(8.64e15);
	});

	it('gives undefined for what is no time at all', () => {
		for (const value of ['yesterday', '', null, undefined, {ms: 1}]) expect(timestampOf(value)).toBeUndefined();
	});
});

describe('usageTotals', () => {
	it('fills counts a usage record left out with zero', () => {
		expect(usageTotals({inputTokens: 10, totalTokens: 12})).toEqual({
			inputTokens: 10,
			outputTokens: 0,
			reasoningTokens: 0,
			totalTokens: 12,
			cachedInputTokens: 0,
		});
	});

	it('keeps the total as sent rather than adding it up', () => {
		expect(usageTotals({inputTokens: 1, outputTokens: 2, reasoningTokens: 3, totalTokens: 100, cachedInputTokens: 4}).totalTokens).toBe(100);
	});
});

describe('commonSchemas', () => {
	it('reads a usage record’s counts leniently, and fills the rest with zero', () => {
		expect(commonSchemas().usage.parse({inputTokens: '12', outputTokens: -3, totalTokens: 1e308})).toEqual({
			inputTokens: 12,
			outputTokens: 0,
			reasoningTokens: 0,
			totalTokens: maxTokenCount,
			cachedInputTokens: 0,
		});
	});

	it('lets a loose number or a timestamp be missing, and makes a bad one undefined rather than refusing it', () => {
		const {looseNumber, timestamp} = commonSchemas();
		expect(looseNumber.parse('7')).toBe(7);
		expect(looseNumber.parse('seven')).toBeUndefined();
		expect(looseNumber.parse(undefined)).toBeUndefined();
		expect(timestamp.parse('2026-11-25T09:05:18Z')).toBe(Date.UTC(2026, 10, 25, 9, 5, 18));
		expect(timestamp.parse('not a time')).toBeUndefined();
	});

	it('is built once', () => {
		expect(commonSchemas()).toBe(commonSchemas());
	});
});
