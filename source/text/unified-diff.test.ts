import {describe, expect, it} from 'vitest';
import {diffLines, unifiedDiff} from './unified-diff.js';

describe('a unified diff of an edit', () => {
	it('keeps unchanged lines as context and marks removed and added ones', () => {
		expect(unifiedDiff('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual(['--- old text', '+++ new text', '@@ -1,3 +1,4 @@', ' a', '-b', '+B', ' c', '+d']);
	});

	it('shows a replacement with nothing in common as all removed then all added', () => {
		expect(diffLines('x', 'y')).toEqual([
			{kind: 'removed', text: 'x'},
			{kind: 'added', text: 'y'},
		]);
	});

	it('stays correct without the table when both sides are huge', () => {
		const big = Array.from({length: 1500}, (_, index) => `line ${index}`).join('\n');
		const lines = diffLines(big, `${big}\nmore`);
		expect(lines.filter(line => line.kind === 'removed')).toHaveLength(1500);
		expect(lines.filter(line => line.kind === 'added')).toHaveLength(1501);
	});
});
