import fc from 'fast-check';

/*
 * fast-check's `unit: 'binary'`, any code point but a lone surrogate, without its one-time cost: fast-check
 * builds it as a table of 1,112,064 constants, and the first string of it made (its slices of dangerous strings
 * are checked against the unit) fills a reverse Map of them all, ~2 s of CPU in each test worker. This is the
 * same integer mapped the same way (code points below the surrogates, then the ones above), so it makes the
 * same values for the same seed; going back from a value is arithmetic.
 */

const surrogates = 0xe0_00 - 0xd8_00;

export const binaryUnit: fc.Arbitrary<string> = fc.integer({min: 0, max: 0x10_ff_ff - surrogates}).map(
	index => String.fromCodePoint(index < 0xd8_00 ? index : index + surrogates),
	value => {
		const codePoint = typeof value === 'string' ? value.codePointAt(0) : undefined;
		if (codePoint === undefined || String.fromCodePoint(codePoint) !== value || (codePoint >= 0xd8_00 && codePoint < 0xe0_00)) {
			throw new Error('not one code point');
		}

		return codePoint < 0xd8_00 ? codePoint : codePoint - surrogates;
	},
);
