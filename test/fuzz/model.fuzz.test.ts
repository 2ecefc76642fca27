import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {binaryUnit} from '../helpers/binary-unit.js';
import {eventLogFixtures} from '../helpers/fixture-files.js';
import {describe, expect, it} from 'vitest';
import {sanitizeBlock, sanitizeLine} from '../../source/text/sanitize.js';
import {displayWidth} from '../../source/text/width/width.js';
import {wrapToWidth} from '../../source/text/wrap.js';
import {fixturesDir, modelFromText} from '../helpers/load.js';
import {describeUnsafe, modelProblems, outputProblems, runChangesWithoutRev, unsafeForTerminal} from './invariants.js';
import {mutate, mutationArbitrary, toBytes} from './mutate.js';

/*
 * Property-based tests over mutated fixtures. The seed is fixed so CI is deterministic; set
 * PERSCOPE_FUZZ_SEED=random (or a number) and PERSCOPE_FUZZ_RUNS=N to explore. A failure prints the
 * seed and the shrunk counterexample: replay it with the same seed.
 */

function fuzzSeed(): number {
	const wanted = process.env['PERSCOPE_FUZZ_SEED'];
	if (wanted === 'random') return Date.now() % 2_147_483_647;
	if (wanted !== undefined && wanted !== '' && Number.isInteger(Number(wanted))) return Number(wanted);
	return 20_250_601;
}

function fuzzRuns(fallback: number): number {
	const wanted = Number(process.env['PERSCOPE_FUZZ_RUNS']);
	return Number.isInteger(wanted) && wanted > 0 ? wanted : fallback;
}

const seed = fuzzSeed();

const fixtureNames = eventLogFixtures().filter(name => name !== 'demo.ndjson');

const fixtureLines = new Map(
	fixtureNames.map(name => [
		name,
		readFileSync(`${fixturesDir}${name}`, 'utf8')
			.split('\n')
			.filter(line => line !== ''),
	]),
);

const corpusArbitrary = fc.record({
	fixtures: fc.subarray(fixtureNames, {minLength: 1, maxLength: 3}),
	mutations: fc.array(mutationArbitrary, {minLength: 1, maxLength: 25}),
	crlf: fc.boolean(),
	chunkSize: fc.integer({min: 7, max: 70_000}),
});

function nonBlankLines(bytes: Buffer): number {
	return bytes
		.toString('latin1')
		.split('\n')
		.filter(line => /[^ \t\r]/.test(line)).length;
}

describe('mutated fixtures (fast-check, seed ' + String(seed) + ')', () => {
	it('never throw, and keep the model, the tree and the outputs consistent', () => {
		fc.assert(
			fc.property(corpusArbitrary, ({fixtures, mutations, crlf, chunkSize}) => {
				const lines = mutate(
					fixtures.flatMap(name => fixtureLines.get(name) ?? []),
					mutations,
				);
				const bytes = toBytes(lines, crlf);
				const model = modelFromText(bytes, {chunkSize});
				const problems = [...modelProblems(model), ...outputProblems(model)];
				expect(problems).toEqual([]);
				// Every line that is not blank becomes exactly one event (known or not) or one diagnostic; an event
				// whose step number is not one is both (it is kept, and what was wrong with it is said), and so is one
				// read after text that came before it on its line (a cut line can leave an object that parses).
				const isNote = (reason: string) => reason.includes(' is not a step number ') || reason.startsWith('text before the event on this line was left out: ');
				const notes = model.diagnostics.filter(diagnostic => isNote(diagnostic.reason)).length;
				expect(model.diagnostics.length).toBe(model.diagnosticCount);
				expect(model.events + model.diagnosticCount - notes).toBe(nonBlankLines(bytes));
			}),
			{seed, numRuns: fuzzRuns(200)},
		);
	});

	it('change a run’s rev with every change to the run', () => {
		fc.assert(
			fc.property(corpusArbitrary, ({fixtures, mutations}) => {
				expect(
					runChangesWithoutRev(
						mutate(
							fixtures.flatMap(name => fixtureLines.get(name) ?? []),
							mutations,
						),
					),
				).toEqual([]);
			}),
			{seed, numRuns: fuzzRuns(60)},
		);
	});
});

/** Escape sequences a hostile string would use, as building blocks for generated text. */
const escapePieces = [
	'\u001B[31m',
	'\u001B[2J',
	'\u001B[H',
	'\u001B[10;10H',
	'\u001B]0;title\u0007',
	'\u001B]52;c;aGVsbG8=\u0007',
	'\u001B]8;;https://evil.example\u001B\\link\u001B]8;;\u001B\\',
	'\u001BP+q\u001B\\',
	'\u009B31m',
	'\u009D0;x\u009C',
	'\u0007',
	'\b\b\b',
	'\r',
	'\t',
	'\u202E',
	'\u2066',
	'\u200F',
	'\uD800',
	'\uDC00x',
	'\u0000',
	'\u007F',
];

const hostileText = fc
	.array(fc.oneof(fc.constantFrom(...escapePieces), fc.string({unit: binaryUnit, maxLength: 12}), fc.string({unit: 'grapheme', maxLength: 12})), {
		maxLength: 30,
	})
	.map(pieces => pieces.join(''));

describe('the sanitiser (fast-check, seed ' + String(seed) + ')', () => {
	it('never lets a control byte, escape or bidi control through, in line or block form', () => {
		fc.assert(
			fc.property(hostileText, text => {
				const line = sanitizeLine(text);
				expect(unsafeForTerminal.test(line) || line.includes('\n'), describeUnsafe(line)).toBe(false);
				const block = sanitizeBlock(text);
				expect(unsafeForTerminal.test(block), describeUnsafe(block)).toBe(false);
			}),
			{seed, numRuns: fuzzRuns(1000)},
		);
	});
});

/** wrapToWidth as it was, segmenting whole lines: right, but quadratic on long ones. */
function referenceWrap(text: string, width: number): string[] {
	const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
	const out: string[] = [];
	const limit = Math.max(1, width);
	for (const line of text.split('\n')) {
		if (line.length <= limit && displayWidth(line) <= limit) {
			out.push(line);
			continue;
		}

		let current = '';
		let used = 0;
		let lastSpace = -1;
		for (const {segment} of segmenter.segment(line)) {
			const cells = displayWidth(segment);
			if (used + cells > limit) {
				const rest = lastSpace > 0 ? current.slice(lastSpace + 1) : '';
				const restWidth = displayWidth(rest);
				if (lastSpace > 0 && restWidth + cells <= limit) {
					out.push(current.slice(0, lastSpace).trimEnd());
					current = rest;
					used = restWidth;
				} else {
					out.push(current);
					current = '';
					used = 0;
				}

				lastSpace = -1;
			}

			if (segment === ' ') lastSpace = current.length;
			current += segment;
			used += cells;
		}

		out.push(current);
	}

	return out;
}

const wrappable = fc
	.array(
		fc.oneof(
			fc.constantFrom(' ', '  ', '\n', 'e\u0301', '👩‍👩‍👧', '🇯🇵', '漢字', 'ｶﾀｶﾅ', '\u200D', '\u0301'),
			fc.string({unit: 'grapheme', maxLength: 8}),
			fc.string({maxLength: 8}),
		),
		{maxLength: 40},
	)
	.map(pieces => sanitizeBlock(pieces.join('')));

describe('wrapping (fast-check, seed ' + String(seed) + ')', () => {
	it('wraps exactly as segmenting whole lines did, and every line fits', () => {
		fc.assert(
			fc.property(wrappable, fc.integer({min: 1, max: 24}), (text, width) => {
				const lines = wrapToWidth(text, width);
				expect(lines).toEqual(referenceWrap(text, width));
				for (const line of lines) expect(displayWidth(line) <= width || [...new Intl.Segmenter().segment(line)].length === 1).toBe(true);
			}),
			{seed, numRuns: fuzzRuns(500)},
		);
	});
});
