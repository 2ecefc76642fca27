import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {includesText, indexOfText, nativeNeedleLimit} from './find-text.js';

function timed<T>(work: () => T): {result: T; ms: number} {
	const start = performance.now();
	const result = work();
	return {result, ms: performance.now() - start};
}

/** A string over few letters, so that long needles do occur in long texts; `length` around `size`. */
const text = (size: number) => fc.string({unit: fc.constantFrom('a', 'b', 'ab', '😀'), minLength: 0, maxLength: size});

describe('finding a string in another', () => {
	it('gives String.indexOf’s answer, from any start, for needles short and past the native limit', () => {
		fc.assert(
			fc.property(text(2000), fc.nat(2000), fc.nat(1200), fc.nat(400), (haystack, from, start, length) => {
				// Half the time a needle cut from the text itself, so that it occurs.
				const needle = length % 2 === 0 ? haystack.slice(start, start + nativeNeedleLimit + length) : `${haystack.slice(start, start + length)}b`;
				expect(indexOfText(haystack, needle, from)).toBe(haystack.indexOf(needle, from));
				expect(includesText(haystack, needle)).toBe(haystack.includes(needle));
			}),
			{numRuns: 400},
		);
	});

	it('finds a needle whose start occurs many times before the needle does', () => {
		const needle = `${'a'.repeat(nativeNeedleLimit + 100)}b`;
		const haystack = `${'a'.repeat(5000)}b${'a'.repeat(nativeNeedleLimit + 100)}b`;
		expect(indexOfText(haystack, needle)).toBe(haystack.indexOf(needle));
		expect(indexOfText(haystack, needle, 4800)).toBe(haystack.indexOf(needle, 4800));
	});

	it('a long needle against a long text takes time linear in them: V8’s own search was quadratic past 250 characters', () => {
		// V8 compares the part of the needle its tables do not cover character by character at each place: this
		// pair took it about 2 minutes (0.8 s at a 64 Ki text and a 20,000-character needle).
		const haystack = `x${'a'.repeat(1_000_000)}`;
		const needle = `${'a'.repeat(200)}x${'a'.repeat(300_000)}`;
		const {result, ms} = timed(() => includesText(haystack, needle));
		expect(result).toBe(false);
		expect(ms).toBeLessThan(5_000);
		// And where the start of the needle occurs everywhere, which the Knuth-Morris-Pratt pass decides.
		const periodic = 'ab'.repeat(500_000);
		const late = `${'ab'.repeat(150_000)}b`;
		const second = timed(() => indexOfText(periodic, late));
		expect(second.result).toBe(-1);
		expect(second.ms).toBeLessThan(5_000);
	});
});
