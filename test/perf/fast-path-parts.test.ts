import {closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import fc from 'fast-check';
import {binaryUnit} from '../helpers/binary-unit.js';
import {describe, expect, it} from 'vitest';
import type {ParsedLine} from '../../source/model/events.js';
import {parseLine} from '../../source/parse/normalise.js';
import {HistoryPruner, prunedTypes} from '../../source/parse/prune-line.js';
import {perstackSchemas} from '../../source/parse/dialects/perstack/schema.js';
import {streamEvent, StreamLines} from '../../source/parse/stream-line.js';
import {BatchWriter, readBatch} from '../../source/load/parallel/chunk-batch.js';
import type {Batch} from '../../source/load/protocol.js';
import {LineCutter, LineSplitter, type OverlongLine} from '../../source/parse/line-splitter.js';
import {planChunks} from '../../source/load/parallel/parallel-file.js';
import {ChunkReader, parseChunk, type ChunkItem, type ChunkSink} from '../../source/load/parallel/parse-chunk.js';
import {LineParser} from '../../source/parse/line-parser.js';
import {hostileLog} from './hostile-log.js';
import {fixtureFiles, root} from '../helpers/fixture-files.js';

/* The pieces of the fast path, each against the plain path's counterpart. */

type Cut = {line: number; offset: number; text: string} | {overlong: OverlongLine};

function splitPlain(bytes: Buffer, pieces: number[], maxLineBytes: number): Cut[] {
	const out: Cut[] = [];
	const splitter = new LineSplitter(
		's',
		{line: line => out.push({line: line.line, offset: line.offset, text: line.text}), overlong: overlong => out.push({overlong})},
		maxLineBytes,
	);
	feed(bytes, pieces, piece => splitter.push(piece));
	splitter.end();
	return out;
}

function splitFast(bytes: Buffer, pieces: number[], maxLineBytes: number): Cut[] {
	const out: Cut[] = [];
	const cutter = new LineCutter({
		source: 's',
		from: {offset: 0, lines: 0},
		maxLineBytes,
		line: (line, start, end, number, offset) => out.push({line: number, offset, text: line.toString('utf8', start, end)}),
		overlong: overlong => out.push({overlong}),
	});
	feed(bytes, pieces, piece => cutter.push(piece));
	cutter.end();
	return out;
}

/**
 * The rules, applied to the whole input at once: lines end at LF; a line over the limit is reported by its
 * length; one CR before the LF is dropped; a byte order mark at the start of a line is skipped; blank lines
 * (spaces, tabs, CRs) are counted but not given; a last line without LF counts when it has bytes.
 */
function splitReference(bytes: Buffer, maxLineBytes: number): Cut[] {
	const out: Cut[] = [];
	let start = 0;
	let line = 0;
	while (start < bytes.length) {
		const newline = bytes.indexOf(0x0a, start);
		const end = newline === -1 ? bytes.length : newline;
		line++;
		if (end - start > maxLineBytes) out.push({overlong: {source: 's', line, offset: start, bytes: end - start}});
		else {
			const last = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
			const first = last - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf ? start + 3 : start;
			const text = bytes.toString('utf8', first, last);
			if (!/^[ \t\r]*$/.test(bytes.toString('latin1', first, last))) out.push({line, offset: first, text});
		}

		start = end + 1;
	}

	return out;
}

/**
 * Whether bytes begin as a JSON document of events: past blanks and a byte order mark, `[` then `{` or `]` past
 * blanks (an array), or `{` then a line break past spaces and `"` or `}` past blanks (a pretty-printed object).
 */
function beginsAsDocument(bytes: Buffer): boolean {
	return /^[ \t\r\n\xef\xbb\xbf]*(\[[ \t\r\n]*[{\]]|\{[ \t\r]*\n[ \t\r\n]*["}])/.test(bytes.toString('latin1'));
}

/** Pushes `bytes` in pieces of the given sizes (cycled), each a copy in a buffer that is then scribbled over. */
function feed(bytes: Buffer, pieces: number[], push: (piece: Buffer) => void): void {
	let at = 0;
	for (let index = 0; at < bytes.length; index++) {
		const size = Math.max(1, pieces[index % pieces.length] ?? bytes.length);
		const piece = Buffer.from(bytes.subarray(at, at + size));
		push(piece);
		piece.fill(0x41);
		at += size;
	}
}

describe('LineSplitter and LineCutter split bytes, fed in any pieces, as the rules split the whole input', () => {
	const byteUnit = fc.oneof(
		fc.constantFrom(...['\n', '\r\n', '\r', ' ', '\t', '{"a":1}', 'é', '😀', '\uFEFF'].map(text => Buffer.from(text))),
		fc.uint8Array({minLength: 1, maxLength: 12}).map(array => Buffer.from(array)),
	);

	it('for any bytes, cut into any pieces, with any line limit', () => {
		fc.assert(
			fc.property(
				fc.array(byteUnit, {maxLength: 60}),
				fc.array(fc.integer({min: 1, max: 40}), {minLength: 1, maxLength: 8}),
				fc.integer({min: 1, max: 64}),
				(units, pieces, maxLineBytes) => {
					const bytes = Buffer.concat(units);
					const expected = splitReference(bytes, maxLineBytes);
					// Bytes that begin as a JSON document of events are its events for LineSplitter (json-document-lines.test.ts).
					if (!beginsAsDocument(bytes)) expect(splitPlain(bytes, pieces, maxLineBytes)).toEqual(expected);
					expect(splitFast(bytes, pieces, maxLineBytes)).toEqual(expected);
				},
			),
			{numRuns: 500},
		);
	});

	it('for the hostile log', () => {
		const bytes = hostileLog();
		const expected = splitReference(bytes, 40_000);
		expect(expected.length).toBeGreaterThan(10);
		for (const pieces of [[bytes.length], [1], [7, 3, 1000], [4096]]) {
			expect(splitPlain(bytes, pieces, 40_000)).toEqual(expected);
			expect(splitFast(bytes, pieces, 40_000)).toEqual(expected);
		}
	});
});

describe('HistoryPruner', () => {
	const filler = 'x'.repeat(700);
	const messages = (count: number) =>
		JSON.stringify(
			Array.from({length: count}, (_, index) => ({type: 'userMessage', contents: [{type: 'textPart', text: `${filler}${index}`}], id: `m${index}`})),
		);
	const line = (text: string) => Buffer.from(text);
	const prune = (pruner: HistoryPruner, text: string) => {
		const bytes = line(text);
		return pruner.prune(bytes, 0, bytes.length);
	};

	it('cuts histories from the raw line, keeping everything else', () => {
		const pruner = new HistoryPruner();
		const text = `{"type":"continueToNextStep","runId":"r","checkpoint":{"status":"proceeding","messages":${messages(3)},"usage":{}},"step":{"newMessages":${messages(2)},"inputMessages":${messages(1)}}}`;
		expect(prune(pruner, text)).toEqual({
			type: 'continueToNextStep',
			text: '{"type":"continueToNextStep","runId":"r","checkpoint":{"status":"proceeding","messages":[],"usage":{}},"step":{"newMessages":[],"inputMessages":[]}}',
		});
	});

	it('keeps what is read: a startRun’s inputMessages, and everything of a type it does not know', () => {
		const pruner = new HistoryPruner();
		const startRun = `{"type":"startRun","runId":"r","initialCheckpoint":{"status":"init","messages":${messages(2)}},"inputMessages":${messages(2)}}`;
		expect(prune(pruner, startRun)?.text).toBe(
			`{"type":"startRun","runId":"r","initialCheckpoint":{"status":"init","messages":[]},"inputMessages":${messages(2)}}`,
		);
		expect(prune(pruner, `{"type":"callTools","runId":"r","toolCalls":[{"args":{"messages":${messages(3)}}}]}`)).toBeUndefined();
		expect(prune(pruner, `{"runId":"r","type":"startGeneration","messages":${messages(3)}}`)).toBeUndefined();
	});

	it('gives up on a line whose history is not valid JSON, whether new, extended or repeated', () => {
		const pruner = new HistoryPruner();
		const valid = messages(3);
		expect(prune(pruner, `{"type":"startGeneration","messages":${valid}}`)).toBeDefined();
		expect(prune(pruner, `{"type":"startGeneration","messages":${valid.slice(0, -1)},{"a":}]}`)).toBeUndefined();
		expect(prune(pruner, `{"type":"startGeneration","messages":${valid.slice(0, -1)},]}`)).toBeUndefined();
		expect(prune(pruner, `{"type":"startGeneration","messages":${valid.slice(0, -1)}`)).toBeUndefined();
		expect(prune(pruner, `{"type":"startGeneration","messages":[${'1,'.repeat(300)}]}`)).toBeUndefined();
		// Extended by a valid element: fine, and then remembered in full.
		expect(prune(pruner, `{"type":"startGeneration","messages":${valid.slice(0, -1)},{"a":1}]}`)?.text).toBe('{"type":"startGeneration","messages":[]}');
	});

	it('follows histories as they grow a step at a time, two runs side by side, and still catches a bad step', () => {
		const pruner = new HistoryPruner();
		const history = (run: string, count: number) =>
			JSON.stringify(Array.from({length: count}, (_, index) => ({type: 'userMessage', contents: [{type: 'textPart', text: `${run}${filler}${index}`}]})));
		const generation = (messages: string) => `{"type":"startGeneration","runId":"r","messages":${messages}}`;
		const cut = '{"type":"startGeneration","runId":"r","messages":[]}';
		for (let step = 3; step <= 24; step++) {
			for (const run of ['a', 'b']) expect(prune(pruner, generation(history(run, step)))?.text, `${run} ${step}`).toBe(cut);
		}

		// Another continuation of an early part of a history that has grown since.
		expect(prune(pruner, generation(`${history('a', 5).slice(0, -1)},{"type":"fork"}]`))?.text).toBe(cut);
		expect(prune(pruner, generation(`${history('a', 24).slice(0, -1)},{"type":}]`))).toBeUndefined();
		expect(prune(pruner, generation(`${history('b', 24).slice(0, -1)},]`))).toBeUndefined();
		expect(prune(pruner, generation(history('a', 25)))?.text).toBe(cut);
	});

	it('an empty remembered history is no prefix to extend', () => {
		const pruner = new HistoryPruner();
		const empty = `[${' '.repeat(2100)}]`;
		expect(prune(pruner, `{"type":"startGeneration","messages":${empty}}`)?.text).toBe('{"type":"startGeneration","messages":[]}');
		expect(prune(pruner, `{"type":"startGeneration","messages":${empty.slice(0, -1)},1]}`)).toBeUndefined();
	});
});

describe('the schemas never read what HistoryPruner cuts', () => {
	/** Every key a schema declares, with its path, walking through optional, array, union and pipe wrappers. */
	function declaredKeys(schema: unknown, path: string, out: string[]): void {
		const def: unknown = typeof schema === 'object' && schema !== null ? Reflect.get(Reflect.get(schema, '_zod') ?? {}, 'def') : undefined;
		if (typeof def !== 'object' || def === null) return;
		const shape: unknown = Reflect.get(def, 'shape');
		if (typeof shape === 'object' && shape !== null) {
			for (const [key, value] of Object.entries(shape)) {
				out.push(`${path}.${key}`);
				declaredKeys(value, `${path}.${key}`, out);
			}
		}

		for (const name of ['innerType', 'element', 'in', 'out']) declaredKeys(Reflect.get(def, name), path, out);
		const options: unknown = Reflect.get(def, 'options');
		if (Array.isArray(options)) for (const option of options) declaredKeys(option, path, out);
	}

	it('no history key is declared by the types whose lines are cut, except the query of startRun', () => {
		const keys: string[] = [];
		for (const option of perstackSchemas().event.options) declaredKeys(option, option.shape.type.value, keys);
		const cut = keys.filter(key => prunedTypes.has(key.split('.')[0] ?? '') && /\.(messages|inputMessages|newMessages)$/.test(key));
		expect(cut).toEqual(['startRun.inputMessages']);
	});
});

describe('StreamLines never disagrees with parseLine', () => {
	const ref = {source: 's', line: 1, offset: 0};
	const base = '{"type":"streamReasoning","id":"i","expertKey":"e","timestamp":1795000000000,"jobId":"j","runId":"r","stepNumber":3,"delta":';

	function match(lines: StreamLines, text: string): ReturnType<StreamLines['match']> {
		const bytes = Buffer.from(text);
		return lines.match(bytes, 0, bytes.length, ref);
	}

	/** What the lane makes of a line is what parseLine makes of it (when the lane takes it at all). */
	function expectAgreement(lines: StreamLines, text: string): void {
		const fields = match(lines, text);
		if (fields === undefined) return;
		const slow: ParsedLine = parseLine({...ref, text: Buffer.from(text).toString('utf8')});
		expect(slow.kind, text).toBe('event');
		if (slow.kind === 'event') expect(streamEvent(fields, ref), text).toStrictEqual(slow.event);
	}

	/** A lane past its first lines, which it always checks against parseLine. */
	function warmLane(): StreamLines {
		const lines = new StreamLines();
		for (let index = 0; index < 40; index++) expect(match(lines, `${base}"warm ${index}"}`)).toBeDefined();
		return lines;
	}

	it('for any delta, valid or not', () => {
		const lines = warmLane();
		fc.assert(
			fc.property(
				fc.oneof(fc.string(), fc.string({unit: binaryUnit}), fc.constantFrom('\\', '\\u12', '\\q', '\t', '"', '\\"', '\\u00e9', '\\ud800')),
				delta => {
					expectAgreement(lines, `${base}${JSON.stringify(delta)}}`);
					expectAgreement(lines, `${base}"${delta}"}`);
				},
			),
			{numRuns: 500},
		);
	});

	it('for odd numbers and shapes', () => {
		const lines = warmLane();
		const variants = ['1.5', '1e3', '01', '-0', '-', '1234567890123456', '123456789012345', '"7"', 'null', '-12'].flatMap(number => [
			base.replace('"stepNumber":3', `"stepNumber":${number}`) + '"x"}',
			base.replace('"timestamp":1795000000000', `"timestamp":${number}`) + '"x"}',
		]);
		for (const text of [...variants, `${base}"x"} `, `${base}"x" }`, `${base}"x","extra":1}`, base.replace('"id":"i"', '"id":7') + '"x"}'])
			expectAgreement(lines, text);
	});
});

/**
 * Parses the file in chunks of about `chunkBytes` twice, straight into a list and through batches (as a worker
 * writes them, each structured-cloned as a thread's message is), and reads the batches back: the same items, in order.
 */
function expectBatchesReadBack(path: string, options: {chunkBytes: number; maxLineBytes: number; batchSize: number}): Batch[] {
	const fd = openSync(path, 'r');
	try {
		const size = fstatSync(fd).size;
		const direct: ChunkItem[] = [];
		const viaBatches: ChunkItem[] = [];
		const collect = (into: ChunkItem[]): ChunkSink => ({
			item: item => into.push(item),
			stream: (fields, ref) => into.push({kind: 'event', event: streamEvent(fields, ref)}),
			afterLine: () => undefined,
		});
		const directSink = collect(direct);
		// Batches cross threads by structured clone: the copy is what is read back.
		const batches: Batch[] = [];
		const writer = new BatchWriter(options.batchSize, batch => batches.push(structuredClone(batch)));
		const parseAll = (sinkFor: (index: number) => ChunkSink, afterChunk: (next: {offset: number; lines: number}) => void) => {
			const reader = new ChunkReader(fd);
			const parser = new LineParser({fast: true});
			let lines = 0;
			for (const [index, chunk] of planChunks(fd, size, options.chunkBytes).entries()) {
				const {bytes: chunkBytes, newlines} = reader.load(chunk);
				const sink = sinkFor(index);
				afterChunk(
					parseChunk({reader, parser, chunk, bytes: chunkBytes, from: {offset: chunk.start, lines}, source: 's', maxLineBytes: options.maxLineBytes, sink}),
				);
				lines += newlines;
			}
		};

		parseAll(
			() => directSink,
			() => undefined,
		);
		parseAll(
			index => {
				writer.start(index);
				return writer.parsing;
			},
			next => writer.end(next),
		);
		for (const batch of batches) readBatch(batch, 's', collect(viaBatches));
		expect(viaBatches.length).toBe(direct.length);
		expect(viaBatches).toStrictEqual(direct);
		return batches;
	} finally {
		closeSync(fd);
	}
}

describe('batches from a worker read back as the lines they were made of', () => {
	it('for the hostile log, in chunks', () => {
		const directory = mkdtempSync(join(tmpdir(), 'perscope-batch-'));
		try {
			const path = join(directory, 'hostile.ndjson');
			writeFileSync(path, hostileLog());
			const batches = expectBatchesReadBack(path, {chunkBytes: 3000, maxLineBytes: 40_000, batchSize: 7});
			expect(batches.reduce((sum, batch) => sum + batch.kinds.length, 0)).toBeGreaterThan(100);
			// Streaming events crossed as their fields, the other lines as items.
			expect(batches.some(batch => batch.strings.length > 0)).toBe(true);
			expect(batches.some(batch => batch.items.length > 0)).toBe(true);
		} finally {
			rmSync(directory, {recursive: true, force: true});
		}
	});

	// The worker tests start real workers on a fixture of each folder only (worker-inputs.ts): what every
	// fixture's lines become when they cross from a worker is checked here, without threads.
	it.each(fixtureFiles().map(path => relative(root, path)))('for %s', fixture => {
		expectBatchesReadBack(join(root, fixture), {chunkBytes: 1500, maxLineBytes: 64 * 1024 * 1024, batchSize: 1024});
	});
});

describe('planChunks', () => {
	it('starts small and doubles up to the nominal size, every chunk ending at a line end, none lost', () => {
		const directory = mkdtempSync(join(tmpdir(), 'perscope-chunks-'));
		try {
			const path = join(directory, 'lines.ndjson');
			// Lines of 1 to 199 bytes, so chunk ends rarely fall on a newline by chance.
			const lines = Array.from({length: 20_000}, (_, index) => 'x'.repeat((index * 37) % 199) + String(index));
			const text = lines.join('\n') + '\n';
			writeFileSync(path, text);
			const fd = openSync(path, 'r');
			try {
				const chunks = planChunks(fd, Buffer.byteLength(text), 64 * 1024, 4 * 1024);
				expect(chunks[0]?.start).toBe(0);
				expect(chunks.at(-1)?.end).toBe(Buffer.byteLength(text));
				for (const [index, chunk] of chunks.entries()) {
					if (index > 0) expect(chunk.start).toBe(chunks[index - 1]?.end);
					expect(text[chunk.end - 1]).toBe('\n');
				}

				// A line's end follows each cut; past it, the size doubles until it reaches the nominal size.
				const sizes = chunks.slice(0, -1).map(chunk => chunk.end - chunk.start);
				expect(sizes.slice(0, 6).map(size => Math.round(size / 1024))).toEqual([4, 8, 16, 32, 64, 64]);
			} finally {
				closeSync(fd);
			}
		} finally {
			rmSync(directory, {recursive: true, force: true});
		}
	});
});
