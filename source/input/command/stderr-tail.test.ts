import {describe, expect, it} from 'vitest';
import {maxStderrLineLength, maxStderrLines, pushStderrLine, type StderrTail} from './stderr-tail.js';

/* A child’s stderr is kept as a bounded tail: a chatty child costs a count, not memory. */

function emptyTail(): StderrTail {
	return {stderr: [], stderrCount: 0};
}

describe('pushStderrLine', () => {
	it('keeps a line as it is and counts it', () => {
		const tail = emptyTail();
		expect(pushStderrLine(tail, 'warning: deprecated flag')).toBe('warning: deprecated flag');
		expect(tail).toEqual({stderr: ['warning: deprecated flag'], stderrCount: 1});
	});

	it('cuts an overlong line and marks the cut with an ellipsis', () => {
		const tail = emptyTail();
		const kept = pushStderrLine(tail, 'x'.repeat(maxStderrLineLength + 500));
		expect(kept).toBe(`${'x'.repeat(maxStderrLineLength)}…`);
		expect(tail.stderr).toEqual([kept]);
		expect(pushStderrLine(tail, 'y'.repeat(maxStderrLineLength))).toBe('y'.repeat(maxStderrLineLength));
	});

	it('keeps only the latest lines but counts every one', () => {
		const tail = emptyTail();
		const total = maxStderrLines + 25;
		for (let index = 1; index <= total; index++) pushStderrLine(tail, `line ${index}`);
		expect(tail.stderrCount).toBe(total);
		expect(tail.stderr).toHaveLength(maxStderrLines);
		expect(tail.stderr[0]).toBe('line 26');
		expect(tail.stderr.at(-1)).toBe(`line ${total}`);
	});
});
