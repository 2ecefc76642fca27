import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {fitStyledLine, stripStyles} from './fit-styled.js';

const red = (text: string) => `\u001B[31m${text}\u001B[39m`;
const japanese = 'メモファイルを作成して、その内容を確認し、結果を詳しく報告してください。';

describe('fitStyledLine', () => {
	it('leaves a line that fits alone, colours and all', () => {
		expect(fitStyledLine(`ab ${red('日本')}`, 7)).toBe(`ab ${red('日本')}`);
	});

	it('never lets a wide character at the edge stick out a column (cli-truncate does)', () => {
		// 'a' then wide characters: at an even width the last one would straddle the edge.
		for (let width = 2; width < 30; width++) {
			const line = fitStyledLine(`a${japanese}`, width);
			expect(stringWidth(line)).toBe(width);
			expect(line.endsWith('…')).toBe(true);
		}
	});

	it('puts a space where the straddling character was, so the line is exactly the width', () => {
		expect(fitStyledLine('a日本語', 3)).toBe('a …');
		expect(fitStyledLine('a日本語', 4)).toBe('a日…');
		expect(fitStyledLine('a日本語', 5)).toBe('a日 …');
	});

	it('keeps every escape sequence, so colours switched on are switched off again', () => {
		const line = fitStyledLine(`${red('日本語日本語')} tail ${red('more')}`, 6);
		expect(stripStyles(line)).toBe('日本 …');
		expect(line.match(/\u001B\[31m/g)).toHaveLength(2);
		expect(line.match(/\u001B\[39m/g)).toHaveLength(2);
		// The ellipsis is drawn in the colour of the text it stands for.
		expect(line.startsWith('\u001B[31m日本 …\u001B[39m')).toBe(true);
	});

	it('has nothing to show at width zero', () => {
		expect(fitStyledLine('abc', 0)).toBe('');
	});

	it('fits any text, styled anywhere, in any width', () => {
		const unit = fc.constantFrom('a', ' ', '日', '👍🏽', '👨‍👩‍👧‍👦', 'e\u0301', '🇯🇵', '✏️', '…', '\u001B[31m', '\u001B[39m', '\u001B[1m', '\u001B[22m');
		fc.assert(
			fc.property(fc.string({unit, maxLength: 60}), fc.integer({min: 0, max: 50}), (text, width) => {
				const line = fitStyledLine(text, width);
				const shown = stringWidth(line);
				expect(shown).toBeLessThanOrEqual(width);
				if (stringWidth(text) <= width) expect(line).toBe(text);
				else expect(shown).toBe(width);
			}),
		);
	});
});
