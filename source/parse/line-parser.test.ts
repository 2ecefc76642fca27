import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {ParsedItem} from './dialects/stream-dialect.js';
import {LineParser, type ParsedSink} from './line-parser.js';
import {LineCutter} from './line-splitter.js';
import {streamEvent} from './stream-line.js';
import {fixtureFiles} from '../../test/helpers/fixture-files.js';
import {hostileLog, hostileMaxLineBytes} from '../../test/perf/hostile-log.js';

/*
 * LineParser's fast lanes (streaming lines from their bytes, histories cut, events read without zod) give,
 * line for line, what the plain way (every line parsed whole and validated by its schema) gives.
 */

function parsedLines(bytes: Buffer, fast: boolean, maxLineBytes: number): {items: ParsedItem[]; streamed: number} {
	const parser = new LineParser({fast});
	const items: ParsedItem[] = [];
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

	it("reads Perstack lines after an agent CLI's in one source as the plain way does, back on its fast lanes", () => {
		// The agent CLI's lines skip the Perstack lanes; once a Perstack event comes, its streaming lines are read
		// from their bytes again.
		const codex = readFileSync(new URL('../../fixtures/codex/edit-and-test.jsonl', import.meta.url));
		const perstack = readFileSync(new URL('../../fixtures/real/delegate-chain.ndjson', import.meta.url));
		const bytes = Buffer.concat([codex, perstack, codex]);
		const fast = parsedLines(bytes, true, 64 * 1024 * 1024);
		expect(fast.streamed).toBeGreaterThan(0);
		expect(fast.streamed).toBe(parsedLines(perstack, true, 64 * 1024 * 1024).streamed);
		expect(fast.items).toStrictEqual(parsedLines(bytes, false, 64 * 1024 * 1024).items);
	});

	it('reads no line from its bytes when it is not to be fast', () => {
		expect(parsedLines(hostileLog(), false, hostileMaxLineBytes).streamed).toBe(0);
	});

	it('reads a step number the same way in every lane, reporting one that is not a step number as a note on its event', () => {
		// The real runtime's log, its step numbers written each way a writer might: every lane (streaming lines
		// from their bytes, the fast reader, the schema) reads the good ones as the number, and the bad ones as
		// none, with a note.
		const spellings = ['"4"', '4.0', '4e0', '1e20', '-4', '4.5', '"four"'];
		const real = readFileSync(new URL('../../fixtures/real/tools.ndjson', import.meta.url), 'utf8');
		for (const written of spellings) {
			const bytes = Buffer.from(real.replaceAll(/"stepNumber":4([,}])/g, `"stepNumber":${written}$1`));
			const fast = parsedLines(bytes, true, 64 * 1024 * 1024).items;
			expect(fast).toStrictEqual(parsedLines(bytes, false, 64 * 1024 * 1024).items);
			const original = parsedLines(Buffer.from(real), false, 64 * 1024 * 1024).items;
			const good = !['1e20', '-4', '4.5', '"four"'].includes(written);
			fast.forEach((item, index) => {
				const was = original[index]!;
				if (item.kind !== 'event' || was.kind !== 'event') throw new Error(`line ${index + 1} is no event`);
				if (good || was.event.step !== 4) {
					expect(item.event.step).toBe(was.event.step);
					expect(item.note).toBeUndefined();
				} else {
					expect(item.event.step).toBeUndefined();
					expect(item.note?.reason).toMatch(/^\w+ event: (\w+\.)?stepNumber .* is not a step number/);
				}
			});
		}
	});
});
