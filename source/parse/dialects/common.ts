import {lazily, zod} from './zod.js';

/**
 * Numbers that a runtime might send as strings, or not at all. A bad timestamp or step number should not
 * cost the user the whole event, so anything that is not a finite number becomes `undefined`.
 */
export function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = Number(value);
		return Number.isFinite(parsed) ? parsed : undefined;
	}

	return undefined;
}

/**
 * What a step number is, for every reader (the fast readers, the schemas, the streaming lane, the re-reading
 * of a step's messages): a whole number from 0 to 2^53 − 1, written as a JSON number or a string (`3`, `"3"`,
 * `3.0` and `3e0` are all step 3). Anything else is no step number: a fraction, a negative number, a number past
 * 2^53 − 1 (it no longer counts one by one, and 1e20 outranked every real step, so an early step's checkpoint
 * read as the run's last one), text. Undefined for those and for none at all; `isBadStepNumber` tells the two
 * apart, so that a bad one is reported.
 */
export function stepNumberOf(value: unknown): number | undefined {
	const number = typeof value === 'string' ? toNumber(value) : typeof value === 'number' ? value : undefined;
	return number !== undefined && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/** Whether a field holds something (it is not absent) that is not a step number (`stepNumberOf`). */
export function isBadStepNumber(value: unknown): boolean {
	return value !== undefined && stepNumberOf(value) === undefined;
}

/** The diagnostic of a bad step number at `path`: what it was, and that the event is read without it. */
export function badStepNumberReason(path: string, value: unknown): string {
	let shown: string;
	try {
		shown = JSON.stringify(value) ?? String(value);
	} catch {
		shown = String(value);
	}

	// Never cut between the halves of a surrogate pair: a lone half is not valid UTF-8 once written out.
	const end = shown.length > 40 ? (isHighSurrogate(shown.charCodeAt(38)) ? 38 : 39) : shown.length;
	const cut = end < shown.length ? `${shown.slice(0, end)}…` : shown;
	return `${path} ${cut} is not a step number (a whole number from 0 to ${Number.MAX_SAFE_INTEGER}); the event is read without it`;
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** Larger than any real token count, and small enough that summing a million of them stays finite. */
export const maxTokenCount = Number.MAX_SAFE_INTEGER;

/**
 * A token count: negative or non-finite counts are treated as zero rather than poisoning the totals, and
 * absurd ones are capped, since two counts of 1e308 would add up to Infinity (null in `--summary --json`).
 */
export function tokenCountOf(value: unknown): number {
	const count = toNumber(value);
	return count !== undefined && count > 0 ? Math.min(count, maxTokenCount) : 0;
}

/** The range a JavaScript Date can hold; `new Date(1e308).toISOString()` throws. */
const maxTimestamp = 8.64e15;

function inDateRange(value: number): number | undefined {
	return Number.isFinite(value) && Math.abs(value) <= maxTimestamp ? value : undefined;
}

/**
 * Timestamps are epoch milliseconds in Perstack and drover, ISO-8601 strings in the strategy daemon.
 * One a Date cannot hold is no timestamp at all: every view may format it.
 */
export function timestampOf(value: unknown): number | undefined {
	if (typeof value === 'number') return inDateRange(value);
	if (typeof value === 'string') {
		const iso = isoUtcMilliseconds(value);
		if (iso !== undefined) return iso;
		const asNumber = Number(value);
		if (value.trim() !== '' && Number.isFinite(asNumber)) return inDateRange(asNumber);
		const parsed = Date.parse(value);
		return Number.isNaN(parsed) ? undefined : parsed;
	}

	return undefined;
}

/**
 * `Date.parse(value)` of the one form the agent CLIs write on every line, `2026-11-27T12:11:40.127Z` (or without its
 * milliseconds), read digit by digit; undefined for anything else, which `Date.parse` reads. Date.parse was a tenth
 * of the time a Gemini CLI stream took to read after JSON.parse. Days past the 28th, years before 1970 and
 * the like are left to Date.parse too, which rolls some over (February 30th) rather than refuse them.
 */
function isoUtcMilliseconds(value: string): number | undefined {
	const length = value.length;
	if ((length !== 24 && length !== 20) || value.charCodeAt(length - 1) !== 0x5a) return undefined;
	if (value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d || value.charCodeAt(10) !== 0x54) return undefined;
	if (value.charCodeAt(13) !== 0x3a || value.charCodeAt(16) !== 0x3a) return undefined;
	const year = digits(value, 0, 4);
	const month = digits(value, 5, 2);
	const day = digits(value, 8, 2);
	const hour = digits(value, 11, 2);
	const minute = digits(value, 14, 2);
	const second = digits(value, 17, 2);
	let millisecond = 0;
	if (length === 24) {
		if (value.charCodeAt(19) !== 0x2e) return undefined;
		millisecond = digits(value, 20, 3);
	}

	if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
	if (second < 0 || second > 59 || millisecond < 0) return undefined;
	return daysSinceEpoch(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond;
}

/**
 * `Date.UTC(year, month - 1, day) / 86_400_000` in integer arithmetic (the days-from-civil algorithm of Howard
 * Hinnant's date library: eras of 400 years, years counted from March so that the leap day comes last). Date.UTC
 * is a call into V8's C++ runtime, several times the cost of the digits read before it; every line of Gemini
 * CLI and most of Claude Code's carry a timestamp. Years from 1970 (`isoUtcMilliseconds` takes no other).
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
	const marchYear = month <= 2 ? year - 1 : year;
	const era = Math.floor(marchYear / 400);
	const yearOfEra = marchYear - era * 400;
	const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
	const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
	return era * 146_097 + dayOfEra - 719_468;
}

/** The number the `count` decimal digits at `start` write; -1 when one of them is not a digit. */
function digits(text: string, start: number, count: number): number {
	let number = 0;
	for (let index = start; index < start + count; index++) {
		const digit = text.charCodeAt(index) - 0x30;
		if (digit < 0 || digit > 9) return -1;
		number = number * 10 + digit;
	}

	return number;
}

export type Usage = {inputTokens: number; outputTokens: number; reasoningTokens: number; totalTokens: number; cachedInputTokens: number};

/** A usage record's counts, each read with tokenCountOf (the schemas' transform, and the fast reader's). */
export function usageTotals(usage: Partial<Usage>): Usage {
	return {
		inputTokens: usage.inputTokens ?? 0,
		outputTokens: usage.outputTokens ?? 0,
		reasoningTokens: usage.reasoningTokens ?? 0,
		totalTokens: usage.totalTokens ?? 0,
		cachedInputTokens: usage.cachedInputTokens ?? 0,
	};
}

function build() {
	const z = zod();
	const tokenCount = z.unknown().transform(tokenCountOf).optional();
	return {
		// `.optional()` last: zod 4 treats a key as required unless the outermost schema is optional.
		looseNumber: z.unknown().transform(toNumber).optional(),
		stepNumber: z.unknown().transform(stepNumberOf).optional(),
		usage: z
			.object({
				inputTokens: tokenCount,
				outputTokens: tokenCount,
				reasoningTokens: tokenCount,
				totalTokens: tokenCount,
				cachedInputTokens: tokenCount,
			})
			.transform(usageTotals),
		timestamp: z.unknown().transform(timestampOf).optional(),
	};
}

/** The schemas the dialects share, built on first use. */
export const commonSchemas = lazily(build);

export type CommonSchemas = ReturnType<typeof build>;
