import {z} from 'zod';

/**
 * Numbers that a runtime might send as strings, or not at all. A bad timestamp or step number should not
 * cost the user the whole event, so anything that is not a finite number becomes `undefined`.
 */
function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = Number(value);
		return Number.isFinite(parsed) ? parsed : undefined;
	}

	return undefined;
}

// `.optional()` last: zod 4 treats a key as required unless the outermost schema is optional.
export const looseNumber = z.unknown().transform(toNumber).optional();

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

const tokenCount = z.unknown().transform(tokenCountOf).optional();

export const usageSchema = z
	.object({
		inputTokens: tokenCount,
		outputTokens: tokenCount,
		reasoningTokens: tokenCount,
		totalTokens: tokenCount,
		cachedInputTokens: tokenCount,
	})
	.transform(usage => ({
		inputTokens: usage.inputTokens ?? 0,
		outputTokens: usage.outputTokens ?? 0,
		reasoningTokens: usage.reasoningTokens ?? 0,
		totalTokens: usage.totalTokens ?? 0,
		cachedInputTokens: usage.cachedInputTokens ?? 0,
	}));

/** The range a JavaScript Date can hold; `new Date(1e308).toISOString()` throws. */
const maxTimestamp = 8.64e15;

function inDateRange(value: number): number | undefined {
	return Number.isFinite(value) && Math.abs(value) <= maxTimestamp ? value : undefined;
}

/**
 * Timestamps are epoch milliseconds in Perstack and drover, ISO-8601 strings in the strategy daemon.
 * One a Date cannot hold is no timestamp at all: every view may format it.
 */
export const timestamp = z
	.unknown()
	.transform((value): number | undefined => {
	if (typeof value === 'number') return inDateRange(value);
	if (typeof value === 'string') {
		const asNumber = Number(value);
		if (value.trim() !== '' && Number.isFinite(asNumber)) return inDateRange(asNumber);
		const parsed = Date.parse(value);
		return Number.isNaN(parsed) ? undefined : parsed;
	}

	return undefined;
	})
	.optional();

export const text = z.string();
