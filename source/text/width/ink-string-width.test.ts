import fc from 'fast-check';
import {binaryUnit} from '../../../test/helpers/binary-unit.js';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import inkStringWidth from './ink-string-width.js';

const family = '👨‍👩‍👧‍👦';
const pieces = fc.constantFrom(
	'a',
	' ',
	'日',
	'👍🏽',
	family,
	'e\u0301',
	'🇯🇵',
	'⚡',
	'▸',
	'✓',
	'\u1100\u1161\u11A8',
	'\u0600',
	'\u200D',
	'\uFE0F',
	'\u001B',
	'\u009B',
	'[',
	'm',
	'3',
	';',
);
const sequences = fc.constantFrom(
	'\u001B[31m',
	'\u001B[39m',
	'\u001B[7m',
	'\u001B[1;33;44m',
	'\u009B0m',
	'\u001B]8;;https://example.com\u0007',
	'\u001B]8;;\u0007',
	'\u001B[2K',
	'\u001B[?25l',
);

/** `text` in an SGR style, as Ink's colours (chalk) write it. */
function styled(text: string, code: number): string {
	return `\u001B[${code}m${text}\u001B[${code === 7 ? 27 : code === 2 ? 22 : 39}m`;
}

/** Text as Ink builds it: styled pieces, stray escape bytes and sequences cut short among them. */
const inkText = fc.oneof(
	fc.string({unit: 'grapheme'}),
	fc.string({unit: 'grapheme-composite'}),
	fc.string({unit: binaryUnit}),
	fc.array(fc.oneof(pieces, sequences), {maxLength: 40}).map(parts => parts.join('')),
	fc
		.array(fc.tuple(fc.string({unit: 'grapheme', maxLength: 12}), fc.constantFrom(31, 32, 33, 7, 2)), {maxLength: 8})
		.map(parts => parts.map(([text, code]) => styled(text, code)).join('')),
);

describe('inkStringWidth', () => {
	it('gives what string-width gives with its default options, which is what Ink asks, on any text', () => {
		fc.assert(
			fc.property(inkText, text => {
				expect(inkStringWidth(text)).toBe(stringWidth(text));
			}),
			{numRuns: 3000},
		);
	});

	it('does not count the escape sequences of styled text', () => {
		expect(inkStringWidth(`  ⚡ ${styled('exec', 32)} ls ${styled('✗ exit 1', 31)}`)).toBe(21);
	});
});
