import fc from 'fast-check';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import React from 'react';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {Line} from './line.js';

/** The frame Ink draws for one element, in a terminal of ink-testing-library's 100 columns. */
function draw(element: React.ReactElement): string {
	const view = render(element);
	const frame = view.lastFrame() ?? '';
	view.unmount();
	return frame;
}

const japanese = 'メモファイルを作成して、その内容を確認し、結果を詳しく報告してください。';

describe('a line', () => {
	it('is cut to its width even when a wide character straddles the edge, colours and all', () => {
		for (let width = 1; width <= 60; width++) {
			const frame = draw(
				<Line width={width}>
					<Text color="cyan">›</Text>
					{'  💬 '}
					<Text color="cyan">query</Text> <Text backgroundColor="yellow">{japanese}</Text>
				</Line>,
			);
			expect(frame.split('\n')).toHaveLength(1);
			expect(stringWidth(frame)).toBeLessThanOrEqual(width);
		}
	});

	it('leaves text that fits untouched', () => {
		expect(draw(<Line width={20}>📁 list src</Line>)).toBe('📁 list src');
	});

	it('fits any mix of wide, joined and narrow characters in any width', () => {
		const unit = fc.constantFrom('a', ' ', '日', '👍🏽', '👨‍👩‍👧‍👦', 'e\u0301', '🇯🇵', '✏️', '…');
		fc.assert(
			fc.property(fc.string({unit, maxLength: 50}), fc.string({unit, maxLength: 50}), fc.integer({min: 1, max: 99}), (plain, coloured, width) => {
				const frame = draw(
					<Line width={width}>
						{plain}
						<Text color="red">{coloured}</Text>
					</Line>,
				);
				expect(stringWidth(frame)).toBeLessThanOrEqual(width);
			}),
			{numRuns: 200},
		);
	});
});
