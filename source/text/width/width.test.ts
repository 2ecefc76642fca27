import fc from 'fast-check';
import {binaryUnit} from '../../../test/helpers/binary-unit.js';
import {growthOnFourTimes, linearGrowthBound} from '../../../test/helpers/growth.js';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {sanitizeLine} from '../sanitize.js';
import {displayWidth, formsOwnCluster, padEnd, truncateEnd, truncateMiddle, truncatePath} from './width.js';

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});

function graphemes(text: string): string[] {
	return [...segmenter.segment(text)].map(({segment}) => segment);
}

const family = '👨‍👩‍👧‍👦';

const anyText = fc.oneof(
	fc.string({unit: 'grapheme'}),
	fc.string({unit: 'grapheme-composite'}),
	fc.string({unit: 'grapheme-ascii'}),
	fc.string({unit: binaryUnit}).map(text => sanitizeLine(text)),
	fc.string({unit: fc.constantFrom('a', '日', '👍🏽', family, 'e\u0301', '🇯🇵', ' ', '/'), maxLength: 40}),
	// Long runs of characters that join their neighbours, to cross the segmenting window's edges.
	fc.string({
		unit: fc.constantFrom('e\u0301', family, '🇯🇵', '🇯', '\u1100\u1161\u11A8', '\u1161', '\u0600', 'क्ष', '\u200D', '\uFE0F', 'a', '日', 'Z\u0351\u036B\u0343'),
		minLength: 50,
		maxLength: 300,
	}),
);

const anyWidth = fc.integer({min: 0, max: 80});

describe('displayWidth', () => {
	it('counts wide characters as two columns', () => {
		expect(displayWidth('日本語')).toBe(6);
		expect(displayWidth('👍🏽')).toBe(2);
		expect(displayWidth(family)).toBe(2);
	});

	it('combining marks do not count as columns', () => {
		expect(displayWidth('e\u0301')).toBe(1);
		expect(displayWidth('Z\u0351\u036B\u0343\u036A\u0302')).toBe(1);
	});

	it('counts the printable bytes of a sequence that was never sanitised', () => {
		expect(displayWidth('\u001B[31m')).toBe(4);
	});

	it('a combining mark after ASCII joins it, wherever it falls in a line', () => {
		expect(displayWidth('plain text cafe\u0301 and more')).toBe(24);
		expect(displayWidth('a\u0301b\u0301 日本 x\u20DD')).toBe(9);
	});

	it('a Prepend character shares a cluster with the ASCII after it', () => {
		expect(displayWidth('x \u06001 y')).toBe(stringWidth('x \u06001 y', {countAnsiEscapeCodes: true}));
	});

	it('Hangul jamo compose with a preceding syllable', () => {
		expect(displayWidth('ab 가\u11A8 cd')).toBe(stringWidth('ab 가\u11A8 cd'));
	});

	it('agrees with string-width, which is how Ink measures, on any text', () => {
		fc.assert(
			fc.property(fc.oneof(anyText, fc.string({unit: binaryUnit}), fc.string({unit: 'binary-ascii'})), text => {
				expect(displayWidth(text)).toBe(stringWidth(text, {countAnsiEscapeCodes: true}));
			}),
			{numRuns: 3000},
		);
	});

	it("knows every character that can share a cluster with a neighbour, for this runtime's Unicode", () => {
		// Each probe puts the character after ASCII, before ASCII, next to itself and after a wide
		// character; one that forms its own cluster makes exactly seven clusters of the probe.
		// Unassigned code points are skipped: in this runtime they can only be Other or Control.
		// Batches stay small because the segmenter is quadratic in the length of its input.
		const probe = (character: string) => `a${character}a${character}${character}日${character}`;
		const clusterCount = (text: string) => [...segmenter.segment(text)].length;
		const unassigned = /\p{Cn}/u;
		const offenders: string[] = [];
		let batch: string[] = [];
		const check = () => {
			if (clusterCount(batch.map(probe).join('')) !== batch.length * 7) {
				for (const character of batch.filter(character => clusterCount(probe(character)) !== 7)) {
					offenders.push(`U+${character.codePointAt(0)!.toString(16).toUpperCase()}`);
				}
			}

			batch = [];
		};

		for (let codePoint = 0x80; codePoint <= 0x10_ff_ff; codePoint++) {
			if (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) {
				continue;
			}

			const character = String.fromCodePoint(codePoint);
			if (formsOwnCluster(character) && !unassigned.test(character)) {
				batch.push(character);
				if (batch.length === 16) {
					check();
				}
			}
		}

		check();
		expect(offenders).toEqual([]);
	}, 30_000);

	it('stays linear on long text that needs segmenting', () => {
		// Sizes far past the segmenting window (256): segmenting the whole text at once (no window) grows ~25 times
		// on four times the text already from 5,000 clusters, and cannot finish these 50,000 in memory; windowed,
		// ~4 times. The 200,000 and the growth from 50,000 it had before cost ~1.5 s more CPU.
		const zalgo = 'e\u0301'.repeat(50_000);
		expect(displayWidth(zalgo)).toBe(50_000);
		expect(truncateMiddle(zalgo, 5)).toBe('e\u0301e\u0301…e\u0301e\u0301');
		const measureAndCut = (size: number) => truncateMiddle('e\u0301'.repeat(size), 5) + String(displayWidth('e\u0301'.repeat(size)));
		expect(growthOnFourTimes(measureAndCut, 12_500)).toBeLessThan(linearGrowthBound);
	}, 30_000);
});

describe('truncateEnd', () => {
	it('leaves text that fits alone', () => {
		expect(truncateEnd('hello', 5)).toBe('hello');
		expect(truncateEnd('日本', 4)).toBe('日本');
	});

	it('ends with … when cut', () => {
		expect(truncateEnd('hello world', 8)).toBe('hello w…');
	});

	it('width 0 gives nothing and width 1 gives just the ellipsis', () => {
		expect(truncateEnd('hello', 0)).toBe('');
		expect(truncateEnd('hello', 1)).toBe('…');
		expect(truncateEnd('日本', 1)).toBe('…');
		expect(truncateEnd('', 0)).toBe('');
	});

	it('a CJK string truncates on a character boundary', () => {
		expect(truncateEnd('日本語のテキスト', 7)).toBe('日本語…');
		expect(displayWidth(truncateEnd('日本語のテキスト', 7))).toBe(7);
	});

	it('a wide character that would straddle the edge is replaced by a space', () => {
		expect(truncateEnd('日本語のテキスト', 6)).toBe('日本 …');
		expect(displayWidth(truncateEnd('日本語のテキスト', 6))).toBe(6);
	});

	it('an emoji ZWJ sequence is never split', () => {
		expect(truncateEnd(`${family}${family}`, 3)).toBe(`${family}…`);
		expect(truncateEnd(`${family}${family}`, 2)).toBe(' …');
		expect(truncateEnd(`ab${family}cd`, 4)).toBe('ab …');
	});

	it('a flag is never split into its regional indicators', () => {
		expect(truncateEnd('🇯🇵🇯🇵', 3)).toBe('🇯🇵…');
	});

	it('combining marks stay with their letter', () => {
		const text = 'e\u0301'.repeat(5);
		expect(truncateEnd(text, 5)).toBe(text);
		expect(truncateEnd(text, 3)).toBe('e\u0301e\u0301…');
	});

	it('treats negative and fractional widths as the room there really is', () => {
		expect(truncateEnd('hello', -3)).toBe('');
		expect(truncateEnd('hello', Number.NaN)).toBe('');
		expect(truncateEnd('hello', 3.9)).toBe('he…');
	});

	it('handles a very long line without measuring all of it', () => {
		const line = '日'.repeat(1_000_000);
		expect(truncateEnd(line, 10)).toBe('日日日日 …');
	});
});

describe('padEnd', () => {
	it('pads short text to exactly the width', () => {
		expect(padEnd('ab', 5)).toBe('ab   ');
		expect(padEnd('日本', 5)).toBe('日本 ');
		expect(padEnd('e\u0301', 3)).toBe('e\u0301  ');
	});

	it('truncates long text to exactly the width', () => {
		expect(padEnd('日本語のテキスト', 6)).toBe('日本 …');
		expect(padEnd('hello world', 8)).toBe('hello w…');
	});

	it('width 0 gives nothing', () => {
		expect(padEnd('abc', 0)).toBe('');
	});
});

describe('truncateMiddle', () => {
	it('leaves a path that fits alone', () => {
		expect(truncateMiddle('src/app.tsx', 11)).toBe('src/app.tsx');
	});

	it('keeps the head and the tail, favouring the tail', () => {
		expect(truncateMiddle('source/components/ActivityList.tsx', 20)).toBe('source/co…tyList.tsx');
		expect(truncateMiddle('abcdefgh', 4)).toBe('a…gh');
	});

	it('width 0 and 1 behave like truncateEnd', () => {
		expect(truncateMiddle('abcdef', 0)).toBe('');
		expect(truncateMiddle('abcdef', 1)).toBe('…');
	});

	it('never splits a wide or combined character, and stays exactly at the width', () => {
		expect(truncateMiddle('日本語/テキスト/ファイル.txt', 12)).toBe('日本 …ル.txt');
		expect(truncateMiddle(`${family}/x/y/${family}`, 5)).toBe(`${family}…${family}`);
		expect(displayWidth(truncateMiddle('日本語/テキスト/ファイル.txt', 12))).toBe(12);
	});
});

describe('properties', () => {
	it('truncateEnd never exceeds the width, and is exactly the width when it cuts', () => {
		fc.assert(
			fc.property(anyText, anyWidth, (text, width) => {
				const cut = truncateEnd(text, width);
				expect(displayWidth(cut)).toBeLessThanOrEqual(width);
				if (cut !== text) {
					expect(displayWidth(cut)).toBe(width);
					expect(cut.endsWith('…') || width === 0).toBe(true);
				}
			}),
			{numRuns: 2000},
		);
	});

	it('truncateEnd keeps whole grapheme clusters from the start of the text', () => {
		fc.assert(
			fc.property(anyText, anyWidth, (text, width) => {
				const cut = truncateEnd(text, width);
				if (cut === text) {
					return;
				}

				const kept = cut.slice(0, -1).trimEnd();
				const original = graphemes(text);
				expect(graphemes(kept)).toEqual(original.slice(0, graphemes(kept).length));
			}),
			{numRuns: 2000},
		);
	});

	it('truncateEnd on raw, unsanitised text still respects the width', () => {
		fc.assert(
			fc.property(fc.string({unit: binaryUnit}), anyWidth, (text, width) => {
				expect(displayWidth(truncateEnd(text, width))).toBeLessThanOrEqual(width);
			}),
		);
	});

	it('padEnd is always exactly the width', () => {
		fc.assert(
			fc.property(anyText, anyWidth, (text, width) => {
				expect(displayWidth(padEnd(text, width))).toBe(width);
			}),
			{numRuns: 2000},
		);
	});

	it('truncateMiddle never exceeds the width and keeps a head and a tail of the text', () => {
		fc.assert(
			fc.property(anyText, anyWidth, (text, width) => {
				const cut = truncateMiddle(text, width);
				expect(displayWidth(cut)).toBeLessThanOrEqual(width);
				if (cut === text || width === 0) {
					return;
				}

				expect(displayWidth(cut)).toBe(width);
				const marker = cut.lastIndexOf('…');
				const head = cut.slice(0, marker).trimEnd();
				const tail = cut.slice(marker + 1);
				expect(text.startsWith(head)).toBe(true);
				expect(text.endsWith(tail)).toBe(true);
				expect(head.length + tail.length).toBeLessThan(text.length);
			}),
			{numRuns: 2000},
		);
	});
});

describe('truncatePath', () => {
	const long = 'src/very/long/path/that/goes/on/because/it/is.ts';

	it('cuts in the middle at slashes and keeps the file name', () => {
		expect(truncatePath(long, 25)).toBe('src/…/on/because/it/is.ts');
		expect(truncatePath(long, 24)).toBe('src/…/because/it/is.ts');
		expect(truncatePath(long, 22)).toBe('src/…/because/it/is.ts');
		expect(truncatePath(long, 12)).toBe('src/…/is.ts');
		expect(truncatePath('/abs/olute/path/to/file.txt', 19)).toBe('/…/path/to/file.txt');
		expect(truncatePath('/abs/olute/path/to/file.txt', 18)).toBe('/…/to/file.txt');
	});

	it('leaves a path that fits alone', () => {
		expect(truncatePath(long, 60)).toBe(long);
	});

	it('cuts the file name itself only when it cannot fit whole', () => {
		expect(truncatePath('dir/a-very-long-file-name.ts', 10)).toBe(truncateMiddle('a-very-long-file-name.ts', 10));
	});

	it('always fits, and keeps the last segment whenever it fits with `…/`', () => {
		const segment = fc.string({unit: fc.constantFrom('a', 'b', '日', '👍🏽', '.'), minLength: 1, maxLength: 8});
		fc.assert(
			fc.property(fc.array(segment, {minLength: 1, maxLength: 8}), anyWidth, (segments, width) => {
				const path = segments.join('/');
				const cut = truncatePath(path, width);
				expect(displayWidth(cut)).toBeLessThanOrEqual(width);
				const last = segments.at(-1)!;
				if (displayWidth(path) > width && segments.length > 1 && displayWidth(last) + 2 <= width) expect(cut.endsWith(`/${last}`)).toBe(true);
			}),
		);
	});
});
