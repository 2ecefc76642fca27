import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {clusterColumns} from './cluster-width.js';

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
const clustersOf = (text: string): string[] => [...segmenter.segment(text)].map(({segment}) => segment);
/** string-width's answer for text whose escape sequences count as what they show, as displayWidth's do. */
const reference = (text: string): number => stringWidth(text, {countAnsiEscapeCodes: true});
/** Unassigned code points are left out of the scans: alone or not, both measure them by East Asian Width only. */
const unassigned = /\p{Cn}/u;

const family = '👨‍👩‍👧‍👦';
const hardPieces = fc.constantFrom(
	'e\u0301',
	family,
	'🇯🇵',
	'🇯',
	'1\uFE0F\u20E3',
	'#\u20E3',
	'\u1100\u1161\u11A8',
	'\u1100\u1100\u1161',
	'\u1161',
	'\u0600a',
	'क्ष',
	'\u200D',
	'\uFE0F',
	'☑\uFE0F',
	'👍🏽',
	'ｶﾞ',
	'a\u0903',
	'\u001B',
	'Z\u0351\u036B\u0343',
	'\u{1F3F3}\u200D\u{1F308}',
	'\u2764\u200D\u{1F525}',
);

describe('clusterColumns', () => {
	it('measures every code point alone as string-width does', () => {
		const differ: string[] = [];
		for (let codePoint = 0; codePoint <= 0x10_ff_ff; codePoint++) {
			if (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) continue;
			const character = String.fromCodePoint(codePoint);
			if (unassigned.test(character)) continue;
			if (clusterColumns(character) !== reference(character)) differ.push(`U+${codePoint.toString(16).toUpperCase()}`);
		}

		expect(differ).toEqual([]);
	}, 60_000);

	it('measures every character followed by VS16 (emoji presentation) as string-width does', () => {
		const differ: string[] = [];
		for (let codePoint = 0; codePoint <= 0x10_ff_ff; codePoint++) {
			if (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) continue;
			const presented = `${String.fromCodePoint(codePoint)}\uFE0F`;
			if (unassigned.test(presented)) continue;
			if (clusterColumns(presented) !== reference(presented)) differ.push(`U+${codePoint.toString(16).toUpperCase()}`);
		}

		expect(differ).toEqual([]);
	}, 60_000);

	it('measures any grapheme cluster as string-width does: emoji sequences, keycaps, flags, jamo, marks', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string({unit: 'grapheme-composite', maxLength: 8}),
					fc.array(hardPieces, {maxLength: 6}).map(parts => parts.join('')),
					fc.string({unit: 'binary', maxLength: 8}),
				),
				text => {
					for (const cluster of clustersOf(text)) expect(clusterColumns(cluster)).toBe(reference(cluster));
				},
			),
			{numRuns: 3000},
		);
	});

	it('gives a cluster with nothing visible no columns, and a wide one two', () => {
		expect(clusterColumns('\u200D')).toBe(0);
		expect(clusterColumns('日')).toBe(2);
		expect(clusterColumns(family)).toBe(2);
		expect(clusterColumns('1\uFE0F\u20E3')).toBe(2);
		expect(clusterColumns('e\u0301')).toBe(1);
	});
});
