import fc from 'fast-check';
import {binaryUnit} from '../../../test/helpers/binary-unit.js';
import {eastAsianWidth} from 'get-east-asian-width';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {clusterColumns} from './cluster-width.js';

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
const clustersOf = (text: string): string[] => [...segmenter.segment(text)].map(({segment}) => segment);
/** string-width's answer for text whose escape sequences count as what they show, as displayWidth's do. */
const reference = (text: string): number => stringWidth(text, {countAnsiEscapeCodes: true});
/** Unassigned code points are left out of the scans: alone or not, both measure them by East Asian Width only. */
const unassigned = /\p{Cn}/u;

/*
 * string-width, given one code point alone or followed by VS16, reads only some of its properties: whether it is
 * printable ASCII, visible (its class of invisible ones), an emoji of one kind or another, Hangul jamo, a
 * halfwidth/fullwidth form or a spacing mark, where the segmenter breaks (controls, line and paragraph separators),
 * and its East Asian Width. Code points alike in all of these get one answer from it, so the scans of every code
 * point ask it once per kind (a few hundred) instead of ~300,000 times each (~10 s of CPU), while clusterColumns is
 * still asked about every code point. A property string-width reads that is missing here would give a kind two
 * answers: every 61st code point is measured by string-width itself too, and held to its kind's answer.
 */
const traits = [
	/^[\u0020-\u007E]$/u,
	/\p{Default_Ignorable_Code_Point}/u,
	/\p{Control}/u,
	/\p{Format}/u,
	/\p{Nonspacing_Mark}/u,
	/\p{Enclosing_Mark}/u,
	/\p{Spacing_Mark}/u,
	/\p{Line_Separator}|\p{Paragraph_Separator}/u,
	/\p{Emoji}/u,
	/\p{Emoji_Presentation}/u,
	/\p{Emoji_Component}/u,
	/\p{Extended_Pictographic}/u,
	/\p{Regional_Indicator}/u,
	/[\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF]/u,
	/[\uFF00-\uFFEF]/u,
];
// Built at run time: the `v` flag is newer than the compiler's target.
const emoji = /\p{Emoji}/u;
const rgiEmoji = new RegExp('^\\p{RGI_Emoji}$', 'v');
const sampleEvery = 61;

/** string-width's answers for `text` (one code point, or one and VS16), asked once per kind of code point. */
function referenceByKind(): (codePoint: number, text: string) => number {
	const answers = new Map<number, number>();
	return (codePoint, text) => {
		const character = String.fromCodePoint(codePoint);
		let kind = 0;
		for (const [bit, trait] of traits.entries()) if (trait.test(character)) kind |= 1 << bit;
		// Every RGI emoji of one code point, presented or not, is an Emoji; the expression is slow, so only those are tried.
		if (emoji.test(character) && rgiEmoji.test(text)) kind |= 1 << traits.length;
		kind += (eastAsianWidth(codePoint, {ambiguousAsWide: false}) + 3 * eastAsianWidth(codePoint, {ambiguousAsWide: true})) * 2 ** (traits.length + 1);
		let answer = answers.get(kind);
		if (answer === undefined) {
			answer = reference(text);
			answers.set(kind, answer);
		} else if (codePoint % sampleEvery === 0) {
			expect(reference(text), `string-width on U+${codePoint.toString(16).toUpperCase()}, of kind ${kind}`).toBe(answer);
		}

		return answer;
	};
}

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
		const answer = referenceByKind();
		for (let codePoint = 0; codePoint <= 0x10_ff_ff; codePoint++) {
			if (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) continue;
			const character = String.fromCodePoint(codePoint);
			if (unassigned.test(character)) continue;
			if (clusterColumns(character) !== answer(codePoint, character)) differ.push(`U+${codePoint.toString(16).toUpperCase()}`);
		}

		expect(differ).toEqual([]);
	}, 60_000);

	it('measures every character followed by VS16 (emoji presentation) as string-width does', () => {
		const differ: string[] = [];
		const answer = referenceByKind();
		for (let codePoint = 0; codePoint <= 0x10_ff_ff; codePoint++) {
			if (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) continue;
			const presented = `${String.fromCodePoint(codePoint)}\uFE0F`;
			if (unassigned.test(presented)) continue;
			if (clusterColumns(presented) !== answer(codePoint, presented)) differ.push(`U+${codePoint.toString(16).toUpperCase()}`);
		}

		expect(differ).toEqual([]);
	}, 60_000);

	it('measures any grapheme cluster as string-width does: emoji sequences, keycaps, flags, jamo, marks', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string({unit: 'grapheme-composite', maxLength: 8}),
					fc.array(hardPieces, {maxLength: 6}).map(parts => parts.join('')),
					fc.string({unit: binaryUnit, maxLength: 8}),
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
