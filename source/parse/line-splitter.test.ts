import {describe, expect, it} from 'vitest';
import {LineCutter, LineSplitter, type Line, type OverlongLine} from './line-splitter.js';

type Seen = Omit<Line, 'source'> | {overlong: Omit<OverlongLine, 'source'>};

/** What a splitter hands on for `bytes` pushed in pieces of `size` bytes. */
function split(bytes: Buffer | string, size = Number.POSITIVE_INFINITY, maxLineBytes?: number): Seen[] {
	const seen: Seen[] = [];
	const splitter = new LineSplitter(
		'run.ndjson',
		{
			line: ({source, ...line}) => {
				expect(source).toBe('run.ndjson');
				seen.push(line);
			},
			overlong: ({source, ...overlong}) => seen.push({overlong}),
		},
		maxLineBytes,
	);
	const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
	const step = Math.min(size, Math.max(1, buffer.length));
	for (let at = 0; at < buffer.length; at += step) splitter.push(buffer.subarray(at, at + step));
	splitter.end();
	return seen;
}

describe('LineSplitter', () => {
	it('hands on each line with its 1-based number and the byte offset where it starts', () => {
		expect(split('{"a":1}\n{"b":2}\n')).toEqual([
			{line: 1, offset: 0, text: '{"a":1}'},
			{line: 2, offset: 8, text: '{"b":2}'},
		]);
	});

	it('flushes a last line without a newline when the input ends', () => {
		expect(split('{"a":1}\n{"b":2}')).toEqual([
			{line: 1, offset: 0, text: '{"a":1}'},
			{line: 2, offset: 8, text: '{"b":2}'},
		]);
	});

	it('drops the carriage return of Windows line ends', () => {
		expect(split('{"a":1}\r\n{"b":2}\r\n').map(line => ('text' in line ? line.text : ''))).toEqual(['{"a":1}', '{"b":2}']);
	});

	it('counts blank lines without handing them on', () => {
		expect(split('{"a":1}\n\n  \t\n{"b":2}\n')).toEqual([
			{line: 1, offset: 0, text: '{"a":1}'},
			{line: 4, offset: 13, text: '{"b":2}'},
		]);
	});

	it('skips a byte order mark at the start, even when it arrives a byte at a time', () => {
		const withMark = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n')]);
		expect(split(withMark)).toEqual([{line: 1, offset: 3, text: '{"a":1}'}]);
		expect(split(withMark, 1)).toEqual([{line: 1, offset: 3, text: '{"a":1}'}]);
	});

	it('skips a byte order mark at the start of any line, as at the start of the source: two logs that each have one, one after the other', () => {
		const mark = Buffer.from([0xef, 0xbb, 0xbf]);
		const twice = Buffer.concat([mark, Buffer.from('{"a":1}\n'), mark, Buffer.from('{"b":2}\r\n'), mark, Buffer.from('\n')]);
		const expected = [
			{line: 1, offset: 3, text: '{"a":1}'},
			{line: 2, offset: 14, text: '{"b":2}'},
		];
		expect(split(twice)).toEqual(expected);
		expect(split(twice, 1)).toEqual(expected);
		// Inside a line it is a character of the line.
		expect(split('{"a":"\uFEFF"} \uFEFF\n')).toEqual([{line: 1, offset: 0, text: '{"a":"\uFEFF"} \uFEFF'}]);
	});

	it('gives the same lines whatever pieces the bytes come in, never breaking a character', () => {
		const text = '{"text":"日本語 😀 héllo"}\n{"text":"second"}\n';
		const whole = split(text);
		for (const size of [1, 2, 3, 5, 17]) expect(split(text, size)).toEqual(whole);
		expect(whole[0]).toMatchObject({text: '{"text":"日本語 😀 héllo"}'});
	});

	it('skips a line longer than the limit, saying where it was and how long, and goes on after it', () => {
		const long = `{"x":"${'y'.repeat(100)}"}`;
		const text = `{"a":1}\n${long}\n{"b":2}\n`;
		const expected = [
			{line: 1, offset: 0, text: '{"a":1}'},
			{overlong: {line: 2, offset: 8, bytes: long.length}},
			{line: 3, offset: 8 + long.length + 1, text: '{"b":2}'},
		];
		expect(split(text, Number.POSITIVE_INFINITY, 64)).toEqual(expected);
		expect(split(text, 10, 64)).toEqual(expected);
	});

	it('replaces invalid UTF-8 instead of failing', () => {
		expect(split(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]))).toEqual([{line: 1, offset: 0, text: '{\uFFFD}'}]);
	});
});

describe('LineCutter', () => {
	it('carries on from a position part way through a source, as a followed file does', () => {
		const seen: Array<{line: number; offset: number; text: string}> = [];
		const cutter = new LineCutter({
			source: 'run.ndjson',
			from: {offset: 100, lines: 7},
			maxLineBytes: 1024,
			line: (bytes, start, end, line, offset) => seen.push({line, offset, text: bytes.toString('utf8', start, end)}),
			overlong: () => undefined,
		});
		cutter.push(Buffer.from('{"c":3}\n{"d":'));
		expect(cutter.next).toEqual({offset: 108, lines: 8});
		cutter.push(Buffer.from('4}\n'));
		expect(seen).toEqual([
			{line: 8, offset: 100, text: '{"c":3}'},
			{line: 9, offset: 108, text: '{"d":4}'},
		]);
		expect(cutter.position).toBe(100 + 16);
	});
});
