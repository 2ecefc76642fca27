import {describe, expect, it} from 'vitest';
import {sanitizeBlock} from '../present/sanitize.js';
import {wrapToWidth} from '../present/wrap.js';
import {liveTail} from './rows.js';

/*
 * Under a running pane the tree shows the last few wrapped lines of what the model is streaming. Only the
 * end of the text is wrapped each frame; what the person sees must not change for it.
 */

const words = 'the parser reads each line once and the viewer keeps only what it shows while the run goes on'.split(' ');

function lastLines(text: string, keep: number, width: number): string[] {
	return wrapToWidth(sanitizeBlock(text), width).slice(-keep);
}

/** A stream of `size` characters whose lines are about `lineLength` long (some blank, some tabbed). */
function stream(size: number, lineLength: number): string {
	let text = '';
	for (let i = 0; text.length < size; i++) {
		const word = words[i % words.length]!;
		text += i % 97 === 0 ? `\t${word}` : word;
		text += (i * 7) % lineLength < 7 ? (i % 5 === 0 ? '\n\n' : '\n') : ' ';
	}

	return text;
}

describe('the live lines of a long stream', () => {
	for (const lineLength of [40, 300, 2000, 20_000]) {
		for (const ending of ['', '\n', ' half a word']) {
			it(`are the last lines of the whole text, wrapped (lines of about ${lineLength} characters, ending ${JSON.stringify(ending)})`, () => {
				const text = stream(200_000, lineLength) + ending;
				for (const [keep, width] of [
					[3, 80],
					[6, 150],
					[6, 20],
				] as const) {
					const tail = liveTail(text, keep, width);
					expect(text.endsWith(tail)).toBe(true);
					// Only a few kilobytes are wrapped each frame.
					expect(tail.length).toBeLessThan(lineLength >= 20_000 ? 20 * 1024 : Math.max(8 * keep * width, keep * (lineLength + 200)) + 1);
					if (lineLength < 20_000) expect(lastLines(tail, keep, width)).toEqual(lastLines(text, keep, width));
				}
			});
		}
	}

	it('of one very long line end with its last characters, and do not move about as the line grows', () => {
		let text = '';
		for (let i = 0; text.length < 300_000; i++) text += `${words[i % words.length]!} `;
		const first = text.length - liveTail(text, 6, 150).length;
		const shown = lastLines(liveTail(text, 6, 150), 6, 150);
		expect(shown).toHaveLength(6);
		expect(text.slice(-2000).replaceAll(' ', '').endsWith(shown.join('').replaceAll(' ', ''))).toBe(true);
		// A few more deltas: the tail still starts where it did, so the lines already shown wrap the same.
		for (let i = 0; i < 20; i++) {
			text += `${words[i % words.length]!} `;
			expect(text.length - liveTail(text, 6, 150).length).toBe(first);
		}
	});

	it('of a short stream are all of it', () => {
		const text = stream(2000, 60);
		expect(liveTail(text, 6, 150)).toBe(text);
	});
});
