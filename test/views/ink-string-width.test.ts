import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
// The stand-in the build puts in the bundled Ink for string-width (scripts/bundle-views.mjs).
import inkStringWidth from '../../scripts/ink-string-width.mjs';

/*
 * Ink lays out, truncates and writes each frame with string-width; the bundled Ink gets a faster stand-in.
 * Any answer of its that differs from string-width's would cut or pad a line by a column in the viewer.
 */

const styled = (text: string) => `\u001B[1m\u001B[36m${text}\u001B[39m\u001B[22m`;
const family = '👨‍👩‍👧‍👦';

const inkText = fc.oneof(
	fc.string({unit: 'grapheme'}),
	fc.string({unit: 'grapheme-composite'}),
	fc.string({unit: fc.constantFrom('a', '日', '👍🏽', family, 'e\u0301', '🇯🇵', ' ', '⚡', '📄', '✏️', '·'), maxLength: 60}),
	fc.string({unit: fc.constantFrom('a', '日', '👍🏽', 'e\u0301', ' '), maxLength: 40}).map(text => styled(text)),
);

describe('the string width Ink is bundled with', () => {
	it('measures a tree row as string-width does, styled or not', () => {
		const row = '   ⚡ exec npx vitest run · 日本語 e\u0301 👨‍👩‍👧‍👦';
		expect(inkStringWidth(row)).toBe(stringWidth(row));
		expect(inkStringWidth(styled(row))).toBe(stringWidth(styled(row)));
		// A hyperlink's escape takes no column.
		const link = '\u001B]8;;https://example.com\u0007site\u001B]8;;\u0007';
		expect(inkStringWidth(link)).toBe(4);
		expect(inkStringWidth(link)).toBe(stringWidth(link));
	});

	it('agrees with string-width on any text Ink is given', () => {
		fc.assert(
			fc.property(inkText, text => {
				expect(inkStringWidth(text)).toBe(stringWidth(text));
			}),
			{numRuns: 2000},
		);
	});

	it('passes options it does not cover on to string-width', () => {
		const ambiguous = '±§';
		expect(inkStringWidth(ambiguous, {ambiguousIsNarrow: false})).toBe(stringWidth(ambiguous, {ambiguousIsNarrow: false}));
		expect(inkStringWidth(styled('ab'), {countAnsiEscapeCodes: true})).toBe(stringWidth(styled('ab'), {countAnsiEscapeCodes: true}));
		expect(inkStringWidth('')).toBe(0);
	});
});
