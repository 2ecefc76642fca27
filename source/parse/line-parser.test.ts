import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {ParsedLine} from '../model/events.js';
import {LineParser, type ParsedSink} from './line-parser.js';
import {LineCutter} from './line-splitter.js';
import {streamEvent} from './stream-line.js';
import {fixtureFiles} from '../../test/helpers/fixture-files.js';
import {hostileLog, hostileMaxLineBytes} from '../../test/perf/hostile-log.js';

/*
 * LineParser's fast lanes (streaming lines from their bytes, histories cut, events read without zod) give,
 * line for line, what the plain way (every line parsed whole and validated by its schema) gives.
 */

function parsedLines(bytes: Buffer, fast: boolean, maxLineBytes: number): {items: ParsedLine[]; streamed: number} {
	const parser = new LineParser({fast});
	const items: ParsedLine[] = [];
	let streamed = 0;
	const sink: ParsedSink = {
		item: parsed => items.push(parsed),
		stream(fields, ref) {
			streamed++;
			items.push({kind: 'event', event: streamEvent(fields, ref)});
		},
	};
	const cutter = new LineCutter({
		source: 'log',
		from: {offset: 0, lines: 0},
		maxLineBytes,
		line: (lineBytes, start, end, line, offset) => parser.parse(lineBytes, start, end, {source: 'log', line, offset}, sink),
		overlong: () => undefined,
	});
	cutter.push(bytes);
	cutter.end();
	return {items, streamed};
}

describe('LineParser', () => {
	it.each(fixtureFiles())('gives for every line of %s what the plain way gives', path => {
		const bytes = readFileSync(path);
		expect(parsedLines(bytes, true, 64 * 1024 * 1024).items).toStrictEqual(parsedLines(bytes, false, 64 * 1024 * 1024).items);
	});

	it('gives for every line of a log made to trip it up what the plain way gives', () => {
		const bytes = hostileLog();
		const fast = parsedLines(bytes, true, hostileMaxLineBytes);
		expect(fast.streamed).toBeGreaterThan(0);
		expect(fast.items).toStrictEqual(parsedLines(bytes, false, hostileMaxLineBytes).items);
	});

	it('reads no line from its bytes when it is not to be fast', () => {
		expect(parsedLines(hostileLog(), false, hostileMaxLineBytes).streamed).toBe(0);
	});
});
