import fc from 'fast-check';
import {binaryUnit} from '../../test/helpers/binary-unit.js';
import {describe, expect, it} from 'vitest';
import {hasUnsafe, sanitizeBlock, sanitizeLine} from './sanitize.js';
import {displayWidth} from './width/width.js';

const esc = '\u001B';
const bel = '\u0007';
const st = `${esc}\\`;

/*
 * fast-check's `binary` unit never produces lone surrogates and rarely produces a whole escape
 * sequence, so hostile text gets its own unit: real terminal attacks, the characters this module
 * singles out, and ordinary text around them.
 */
const hostileUnit = fc.oneof(
	fc.string({unit: 'binary-ascii', minLength: 1, maxLength: 1}),
	fc.string({unit: binaryUnit, minLength: 1, maxLength: 1}),
	fc.string({unit: 'grapheme', minLength: 1, maxLength: 1}),
	fc.integer({min: 0xd8_00, max: 0xdf_ff}).map(code => String.fromCharCode(code)),
	fc.constantFrom(
		`${esc}[31m`,
		`${esc}[2J${esc}[H`,
		`${esc}]0;title${bel}`,
		`${esc}]52;c;cHduZWQ=${st}`,
		`${esc}]8;;https://evil.example${st}`,
		`${esc}P1$r${st}`,
		'\u009B31m',
		'\u009D0;t\u009C',
		'\t',
		'\r\n',
		'\r',
		'\n',
		'\u2028',
		'\u2029',
		'\u202E',
		'\u2066',
		'\u200B',
		'\u200D',
		'\uFEFF',
		'\u0301',
		'\uFE0F',
		'日本',
		'👨‍👩‍👧',
		' ',
		'\u3000',
	),
);

const arbitraryText = fc.oneof(
	fc.string({unit: binaryUnit}),
	fc.string({unit: 'grapheme'}),
	fc.string({unit: 'binary-ascii'}),
	fc.string({unit: hostileUnit, maxLength: 30}),
);

function controlCodePoints(text: string): number[] {
	return [...text].map(character => character.codePointAt(0)!).filter(code => code <= 0x1f || (code >= 0x7f && code <= 0x9f));
}

function hasLoneSurrogate(text: string): boolean {
	return /[\uD800-\uDFFF]/u.test(text);
}

describe('escape sequences are shown, not obeyed', () => {
	it('a colour escape is shown, not obeyed', () => {
		expect(sanitizeLine(`${esc}[31mred${esc}[0m`)).toBe('␛[31mred␛[0m');
	});

	it('cursor movement and screen clearing are inert', () => {
		expect(sanitizeLine(`${esc}[2J${esc}[1;1H${esc}[3A${esc}[K`)).toBe('␛[2J␛[1;1H␛[3A␛[K');
	});

	it('window-title sequence is inert, including its BEL terminator', () => {
		expect(sanitizeLine(`${esc}]0;pwned${bel}`)).toBe('␛]0;pwned␇');
		expect(sanitizeLine(`${esc}]2;pwned${st}`)).toBe('␛]2;pwned␛\\');
	});

	it('an OSC 52 clipboard write is inert', () => {
		expect(sanitizeLine(`${esc}]52;c;cm0gLXJmIH4=${bel}`)).toBe('␛]52;c;cm0gLXJmIH4=␇');
	});

	it('an OSC 8 hyperlink is inert', () => {
		const link = `${esc}]8;;https://evil.example/${st}click me${esc}]8;;${st}`;
		expect(sanitizeLine(link)).toBe('␛]8;;https://evil.example/␛\\click me␛]8;;␛\\');
	});

	it('DCS, APC, PM and SOS strings are inert', () => {
		expect(sanitizeLine(`${esc}P+q544e${st}`)).toBe('␛P+q544e␛\\');
		expect(sanitizeLine(`${esc}_payload${st}`)).toBe('␛_payload␛\\');
		expect(sanitizeLine(`${esc}^privacy${st}`)).toBe('␛^privacy␛\\');
		expect(sanitizeLine(`${esc}Xstring${st}`)).toBe('␛Xstring␛\\');
	});

	it('a truncated escape sequence is as inert as a complete one', () => {
		expect(sanitizeLine(`tail${esc}[3`)).toBe('tail␛[3');
		expect(sanitizeLine(`${esc}`)).toBe('␛');
	});

	it('CSI as a single C1 byte is inert', () => {
		expect(sanitizeLine('\u009B31mred')).toBe('\\x9b31mred');
	});

	it('OSC and ST as C1 bytes are inert', () => {
		expect(sanitizeLine('\u009D0;title\u009C')).toBe('\\x9d0;title\\x9c');
	});

	it('every C1 control is spelled as a lowercase \\x escape', () => {
		expect(sanitizeLine('\u0080\u0085\u008F\u0090\u009F')).toBe('\\x80\\x85\\x8f\\x90\\x9f');
	});

	it('the same rules hold in block mode', () => {
		expect(sanitizeBlock(`${esc}[31mred\n${esc}]52;c;eA==${bel}\u009B2J`)).toBe('␛[31mred\n␛]52;c;eA==␇\\x9b2J');
	});
});

describe('other control characters are visible', () => {
	it('C0 controls become control pictures', () => {
		expect(sanitizeLine('a\u0000b\u0007c\u0008d\u000Be\u000Cf\u001Fg')).toBe('a␀b␇c␈d␋e␌f␟g');
	});

	it('DEL becomes ␡', () => {
		expect(sanitizeLine('rm\u007F\u007F')).toBe('rm␡␡');
	});
});

describe('text that hides or reorders itself is visible', () => {
	it('a bidi override is shown (Trojan Source)', () => {
		expect(sanitizeLine('access\u202E nimda\u202C')).toBe('access⟨U+202E⟩ nimda⟨U+202C⟩');
	});

	it('bidi isolates and marks are shown', () => {
		expect(sanitizeLine('\u2066a\u2067b\u2068c\u2069')).toBe('⟨U+2066⟩a⟨U+2067⟩b⟨U+2068⟩c⟨U+2069⟩');
		expect(sanitizeLine('a\u200Eb\u200Fc\u061Cd')).toBe('a⟨U+200E⟩b⟨U+200F⟩c⟨U+061C⟩d');
	});

	it('zero-width space and BOM are shown', () => {
		expect(sanitizeLine('ad\u200Bmin')).toBe('ad⟨U+200B⟩min');
		expect(sanitizeBlock('\uFEFFfile')).toBe('⟨U+FEFF⟩file');
	});

	it('characters string-width calls zero-width but terminals draw wide are shown', () => {
		expect(sanitizeLine('a\u00ADb\u3164c\u115Fd\uFFA0e')).toBe('a⟨U+00AD⟩b⟨U+3164⟩c⟨U+115F⟩d⟨U+FFA0⟩e');
	});

	it('lone surrogates become U+FFFD but pairs survive', () => {
		expect(sanitizeLine('a\uD800b\uDC00c😀')).toBe('a\uFFFDb\uFFFDc😀');
		expect(sanitizeLine('\uD83D')).toBe('\uFFFD');
	});
});

describe('text that is only unusual is left alone', () => {
	it('clean text comes back as the very same string', () => {
		const text = 'Reading source/app.tsx (42 lines) — 日本語 👍🏽';
		expect(sanitizeLine(text)).toBe(text);
		expect(sanitizeBlock(`${text}\n${text}`)).toBe(`${text}\n${text}`);
	});

	it('emoji ZWJ sequences keep their joiners', () => {
		expect(sanitizeLine('👨‍👩‍👧‍👦 🏳️‍🌈')).toBe('👨‍👩‍👧‍👦 🏳️‍🌈');
	});

	it('ZWNJ is kept, since Persian and Indic text need it', () => {
		expect(sanitizeLine('می\u200Cخواهم')).toBe('می\u200Cخواهم');
	});

	it('combining marks and variation selectors are kept', () => {
		expect(sanitizeLine('cafe\u0301 \u2764\uFE0F 葛\uDB40\uDD00')).toBe('cafe\u0301 \u2764\uFE0F 葛\uDB40\uDD00');
	});

	it('flags and tag sequences are kept', () => {
		const text = '🇯🇵 🏴󠁧󠁢󠁳󠁣󠁴󠁿';
		expect(sanitizeLine(text)).toBe(text);
	});
});

describe('tabs', () => {
	it('tabs expand to the next stop', () => {
		expect(sanitizeLine('a\tb')).toBe('a   b');
		expect(sanitizeLine('abcd\te')).toBe('abcd    e');
		expect(sanitizeLine('ab\tcdefg\th')).toBe('ab  cdefg   h');
	});

	it('the tab width can be chosen', () => {
		expect(sanitizeLine('a\tb', {tabWidth: 8})).toBe('a       b');
		expect(sanitizeLine('a\tb', {tabWidth: 1})).toBe('a b');
	});

	it('tab stops are measured in columns, so wide characters before a tab still align', () => {
		const rows = ['日本\tx', 'abcd\tx', '👍🏽a\tx', 'e\u0301\tx'].map(row => sanitizeBlock(row));
		expect(rows.map(row => displayWidth(row.slice(0, row.indexOf('x'))))).toEqual([8, 8, 4, 4]);
	});

	it('columns restart on each line of a block', () => {
		expect(sanitizeBlock('abc\tx\n\ty\r\nab\tz')).toBe('abc x\n    y\nab  z');
	});

	it('a control picture before a tab counts as the column it occupies', () => {
		expect(sanitizeBlock(`${esc}[1m\tx`)).toBe('␛[1m    x');
	});

	it('a nonsensical tab width is a caller bug and throws', () => {
		expect(() => sanitizeLine('a', {tabWidth: 0})).toThrow(RangeError);
		expect(() => sanitizeBlock('a', {tabWidth: 2.5})).toThrow(RangeError);
	});
});

describe('sanitizeLine: one line, however many the text had', () => {
	it('line breaks of every spelling become ↵', () => {
		expect(sanitizeLine('a\nb\r\nc\rd\u2028e\u2029f')).toBe('a ↵ b ↵ c ↵ d ↵ e ↵ f');
	});

	it('runs of blank lines and the whitespace around breaks collapse into one ↵', () => {
		expect(sanitizeLine('first  \n\n\r\n   \n\tsecond')).toBe('first ↵ second');
	});

	it('leading and trailing whitespace and breaks are trimmed', () => {
		expect(sanitizeLine('\n\n  hello world \t\n')).toBe('hello world');
		expect(sanitizeLine('   ')).toBe('');
		expect(sanitizeLine('')).toBe('');
	});

	it('a visible control at the edge is not trimmed away', () => {
		expect(sanitizeLine(`${bel} x ${esc}`)).toBe('␇ x ␛');
	});
});

describe('sanitizeBlock: line breaks are kept', () => {
	it('CRLF and lone CR are normalised to LF', () => {
		expect(sanitizeBlock('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
	});

	it('a CR cannot be used to overwrite what came before it on the line', () => {
		expect(sanitizeBlock('safe command\rrm -rf /')).toBe('safe command\nrm -rf /');
	});

	it('U+2028 and U+2029 become real line breaks', () => {
		expect(sanitizeBlock('a\u2028b\u2029c')).toBe('a\nb\nc');
	});

	it('indentation and blank lines are kept', () => {
		const text = '  indented\n\n    more  ';
		expect(sanitizeBlock(text)).toBe(text);
	});
});

describe('hasUnsafe', () => {
	it('is false for printable text, including wide and combined characters', () => {
		expect(hasUnsafe('plain 日本 👨‍👩‍👧 e\u0301')).toBe(false);
	});

	it('is true for escapes, controls, line breaks, tabs, bidi controls and lone surrogates', () => {
		for (const text of [`${esc}[0m`, '\u009B', 'a\nb', 'a\tb', 'a\rb', '\u202E', '\u200B', '\uD800', '\u2028']) {
			expect(hasUnsafe(text), JSON.stringify(text)).toBe(true);
		}
	});
});

describe('properties', () => {
	it('sanitizeLine output never contains a C0 or C1 control, a line break or a lone surrogate', () => {
		fc.assert(
			fc.property(arbitraryText, text => {
				const line = sanitizeLine(text);
				expect(controlCodePoints(line)).toEqual([]);
				expect(hasLoneSurrogate(line)).toBe(false);
				expect(hasUnsafe(line)).toBe(false);
				expect(line).toBe(line.trim());
			}),
			{numRuns: 2000},
		);
	});

	it('sanitizeBlock output contains no control except \\n, and no lone surrogate', () => {
		fc.assert(
			fc.property(arbitraryText, text => {
				const block = sanitizeBlock(text);
				expect(controlCodePoints(block).filter(code => code !== 0x0a)).toEqual([]);
				expect(hasLoneSurrogate(block)).toBe(false);
				expect(hasUnsafe(block.replaceAll('\n', ''))).toBe(false);
			}),
			{numRuns: 2000},
		);
	});

	it('sanitising is idempotent', () => {
		fc.assert(
			fc.property(arbitraryText, fc.integer({min: 1, max: 8}), (text, tabWidth) => {
				const line = sanitizeLine(text, {tabWidth});
				expect(sanitizeLine(line, {tabWidth})).toBe(line);
				const block = sanitizeBlock(text, {tabWidth});
				expect(sanitizeBlock(block, {tabWidth})).toBe(block);
			}),
			{numRuns: 2000},
		);
	});

	it('text with nothing unsafe is returned unchanged', () => {
		fc.assert(
			fc.property(fc.string({unit: 'grapheme'}), text => {
				fc.pre(!hasUnsafe(text));
				expect(sanitizeBlock(text)).toBe(text);
				expect(sanitizeLine(text)).toBe(text.trim());
			}),
		);
	});

	it('a line and a block agree apart from line breaks', () => {
		fc.assert(
			fc.property(arbitraryText, text => {
				fc.pre(!/[\n\r\u2028\u2029]/.test(text));
				expect(sanitizeLine(text)).toBe(sanitizeBlock(text).trim());
			}),
		);
	});
});
