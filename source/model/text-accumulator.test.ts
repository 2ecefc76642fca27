import {describe, expect, it} from 'vitest';
import {capText, shortened, TextAccumulator} from './text-accumulator.js';

describe('TextAccumulator', () => {
	it('keeps each stream its own once deltas come, though empty ones share their lists (memory, #33)', () => {
		const first = new TextAccumulator();
		const second = new TextAccumulator();
		const restored = TextAccumulator.fromState(new TextAccumulator().toState());
		first.append('one', 2);
		second.append('two', 1);
		first.append('zero', 1);
		restored.append('three');
		expect([first.text, second.text, restored.text]).toEqual(['zeroone', 'two', 'three']);
		expect(new TextAccumulator().isEmpty).toBe(true);
	});

	it('joins streamed deltas in order', () => {
		const text = new TextAccumulator();
		expect(text.isEmpty).toBe(true);
		for (const delta of ['I will ', 'read ', 'package.json', '']) text.append(delta);
		expect(text.text).toBe('I will read package.json');
		expect(text.isEmpty).toBe(false);
		expect(text.isComplete).toBe(false);
	});

	it('lets the completed text win over the deltas, and ignores deltas after it', () => {
		const text = new TextAccumulator();
		text.append('Fixed. formatDur');
		text.complete('Fixed. formatDuration had no hours component.');
		text.append(' late delta');
		expect(text.text).toBe('Fixed. formatDuration had no hours component.');
		expect(text.isComplete).toBe(true);
	});

	it('counts a completed empty text as empty', () => {
		const text = new TextAccumulator();
		text.append('draft');
		text.complete('');
		expect(text.isEmpty).toBe(true);
	});

	it('keeps only the head and tail of a stream past its cap, and says how much was cut', () => {
		const text = new TextAccumulator(20);
		for (let i = 0; i < 10; i++) text.append(`${i}`.repeat(5));
		const match = /^(0000011111)\n… \[(\d+) characters cut\] …\n(.*)$/s.exec(text.text);
		expect(match).not.toBeNull();
		const [, head = '', cut = '0', tail = ''] = match ?? [];
		// Nothing is lost silently: what is kept and what is counted as cut add up to what came in.
		expect(head.length + Number(cut) + tail.length).toBe(50);
		expect(tail.length).toBeLessThanOrEqual(20);
		expect(tail.endsWith('8888899999')).toBe(true);
		text.append('abcde');
		expect(text.text.startsWith('0000011111\n…')).toBe(true);
		expect(text.text.endsWith('99999abcde')).toBe(true);
	});

	it('caps a completed text the same way', () => {
		const text = new TextAccumulator(10);
		text.complete('abcdefghijklmnopqrstuvwxyz');
		expect(text.text).toBe('abcde\n… [16 characters cut] …\nvwxyz');
	});

	it('survives a round trip through plain state, as it crosses to the viewer thread', () => {
		const streaming = new TextAccumulator(20);
		streaming.started = true;
		for (let i = 0; i < 10; i++) streaming.append(`${i}`.repeat(5));
		const copy = TextAccumulator.fromState(structuredClone(streaming.toState()));
		expect(copy.text).toBe(streaming.text);
		expect(copy.started).toBe(true);
		copy.append('zz');
		streaming.append('zz');
		expect(copy.text).toBe(streaming.text);

		const done = new TextAccumulator();
		done.complete('final answer');
		expect(TextAccumulator.fromState(done.toState()).text).toBe('final answer');
	});
});

describe('deltas that arrive out of order (the runtime writes each after its event file)', () => {
	it('puts a delta with an earlier timestamp before the later ones that came first', () => {
		const text = new TextAccumulator();
		text.append('Hello', 10);
		text.append('world', 12);
		text.append(', ', 11);
		text.append('!', 13);
		expect(text.text).toBe('Hello, world!');
	});

	it('keeps arrival order between deltas of the same millisecond and for deltas without a timestamp', () => {
		const text = new TextAccumulator();
		text.append('a', 5);
		text.append('b', 5);
		text.append('c');
		text.append('d', 5);
		expect(text.text).toBe('abcd');
	});

	it('still orders a late delta after the text has been read, as the viewer reads it every frame', () => {
		const text = new TextAccumulator();
		for (let i = 0; i < 100; i++) {
			if (i !== 97) text.append(`[${i}]`, 1000 + i);
			// The viewer reads the text between deltas.
			expect(text.text.endsWith(`[${i === 97 ? 96 : i}]`)).toBe(true);
		}

		text.append('[97]', 1097);
		expect(text.text).toBe(Array.from({length: 100}, (_, i) => `[${i}]`).join(''));
	});
});

describe('capText', () => {
	it('returns text within the cap as it is', () => {
		expect(capText('short', 10)).toBe('short');
	});

	it('never splits an emoji at either cut', () => {
		const capped = capText(`${'a'.repeat(4)}😀${'b'.repeat(20)}😀${'c'.repeat(4)}`, 12);
		expect(capped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
		expect(capped).not.toMatch(/(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
	});
});

describe('shortened', () => {
	it('keeps the start and adds an ellipsis when too long', () => {
		expect(shortened('Read src/duration.ts', 8)).toBe('Read src…');
		expect(shortened('Read', 8)).toBe('Read');
	});
});
