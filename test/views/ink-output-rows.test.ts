import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {styledCharsFromTokens, tokenize} from '@alcalzone/ansi-tokenize';
import {build} from 'esbuild';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {applyPatch, inkPatchPlugin} from '../../scripts/ink-patches.mjs';
import {root} from '../helpers/fixture-files.js';

/*
 * The viewer's Ink is bundled with a patched `get` for its output grid (scripts/patches/ink-output-rows.patch): rows
 * that one text covers from column 0 are kept as that text instead of being cut into cells and put back
 * together. Whatever is written, clipped and transformed, each row must show the same characters in the same
 * styles as Ink's own output.js gives. Rows are compared as Ink's tokenizer reads them back: the escape codes
 * may be spelled differently, the screen may not. The patched module is built here the way the bundle is.
 */

type Clip = {x1?: number; x2?: number; y1?: number; y2?: number};
type OutputGrid = {
	write(x: number, y: number, text: string, options: {transformers: Array<(line: string, index: number) => string>}): void;
	clip(clip: Clip): void;
	unclip(): void;
	get(): {output: string; height: number};
};
type OutputClass = new (options: {width: number; height: number}) => OutputGrid;

const inkDir = join(root, 'node_modules', 'ink');
const outputFile = join(inkDir, 'build', 'output.js');
const patchFile = join(root, 'scripts', 'patches', 'ink-output-rows.patch');
const built = mkdtempSync(join(tmpdir(), 'perscope-ink-output-'));
let inkOutput: OutputClass;
let fastOutput: OutputClass;

beforeAll(async () => {
	const patches = inkPatchPlugin(inkDir);
	await build({
		entryPoints: [outputFile],
		plugins: [patches.plugin],
		bundle: true,
		platform: 'node',
		format: 'esm',
		outfile: join(built, 'output.js'),
		logLevel: 'warning',
	});
	expect(patches.applied()).toStrictEqual(['build/output.js']);
	const original: {default: OutputClass} = await import(pathToFileURL(outputFile).href);
	const patched: {default: OutputClass} = await import(pathToFileURL(join(built, 'output.js')).href);
	inkOutput = original.default;
	fastOutput = patched.default;
});

afterAll(() => rmSync(built, {recursive: true, force: true}));

/** What a terminal shows of a row: its cells, without the blank unstyled ones at the end. */
function cells(row: string): Array<[string, string[]]> {
	const shown = styledCharsFromTokens(tokenize(row)).map((cell): [string, string[]] => [cell.value, cell.styles.map(style => style.code).sort()]);
	while (shown.length > 0 && shown.at(-1)![0] === ' ' && shown.at(-1)![1].length === 0) shown.pop();
	return shown;
}

/** Rows one by one, and the whole output read in one go, as the terminal does: a style left open shows there. */
function screen(grid: OutputGrid): {height: number; rows: Array<Array<[string, string[]]>>; whole: Array<[string, string[]]>} {
	const {output, height} = grid.get();
	return {height, rows: output.split('\n').map(row => cells(row)), whole: cells(output)};
}

type Operation = {kind: 'write'; x: number; y: number; text: string; upper: boolean} | {kind: 'clip'; clip: Clip} | {kind: 'unclip'};

function draw(Grid: OutputClass, width: number, height: number, operations: Operation[]): OutputGrid {
	const grid = new Grid({width, height});
	for (const operation of operations) {
		if (operation.kind === 'write') grid.write(operation.x, operation.y, operation.text, {transformers: operation.upper ? [line => line.toUpperCase()] : []});
		else if (operation.kind === 'clip') grid.clip(operation.clip);
		else grid.unclip();
	}

	return grid;
}

const styles = [
	(text: string) => text,
	(text: string) => `\u001B[31m${text}\u001B[39m`,
	(text: string) => `\u001B[1m\u001B[36m${text}\u001B[39m\u001B[22m`,
	(text: string) => `\u001B[7m${text}\u001B[27m`,
	(text: string) => `\u001B[90m${text}`,
];
const segment = fc.tuple(fc.constantFrom(...styles), fc.stringMatching(/^[ab .é漢🔍›-]{0,8}$/)).map(([style, text]) => style(text));
const line = fc.array(segment, {maxLength: 4}).map(parts => parts.join(''));
const text = fc.array(line, {minLength: 1, maxLength: 3}).map(lines => lines.join('\n'));
const operation: fc.Arbitrary<Operation> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({kind: fc.constant('write' as const), x: fc.integer({min: 0, max: 6}), y: fc.integer({min: -2, max: 9}), text, upper: fc.boolean()}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('clip' as const),
			clip: fc.record(
				{x1: fc.integer({min: 0, max: 8}), x2: fc.integer({min: 4, max: 30}), y1: fc.integer({min: -1, max: 4}), y2: fc.integer({min: 2, max: 9})},
				{requiredKeys: []},
			),
		}),
	},
	{weight: 1, arbitrary: fc.constant({kind: 'unclip' as const})},
);

describe('the patched output grid shows what Ink’s own shows', () => {
	it('for any writes, clips and transformers', () => {
		fc.assert(
			fc.property(fc.integer({min: 1, max: 30}), fc.integer({min: 1, max: 8}), fc.array(operation, {maxLength: 12}), (width, height, operations) => {
				expect(screen(draw(fastOutput, width, height, operations))).toStrictEqual(screen(draw(inkOutput, width, height, operations)));
			}),
			{seed: 20_261_123, numRuns: 1000},
		);
	});

	it('for a screen of tree rows, one text each from column 0, with a box drawn over some of them', () => {
		const rows = Array.from(
			{length: 20},
			(_, index) => `\u001B[36m${index === 3 ? '›' : ' '}\u001B[39m  ${'漢🔍 step '.repeat(index % 4)}\u001B[90m· ${index}\u001B[39m`,
		);
		const operations: Operation[] = [
			...rows.map((row, index): Operation => ({kind: 'write', x: 0, y: index, text: row, upper: false})),
			{kind: 'write', x: 10, y: 5, text: '┌────┐\n│ ok │\n└────┘', upper: false},
		];
		const fast = screen(draw(fastOutput, 60, 20, operations));
		expect(fast).toStrictEqual(screen(draw(inkOutput, 60, 20, operations)));
		// The box really is drawn over the rows it covers, and the rows around it are intact.
		expect(fast.rows[6]!.map(([value]) => value).join('')).toContain('│ ok │');
		expect(fast.rows[3]![0]![0]).toBe('›');
	});
});

describe('the patch is applied only to the file it was written for', () => {
	const source = readFileSync(outputFile, 'utf8');
	const patch = readFileSync(patchFile, 'utf8');

	it('names the Ink that package.json pins, exactly', () => {
		const pinned: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies.ink;
		expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
		expect(patch).toContain(`Ink ${String(pinned)}'s build/output.js`);
	});

	it('fails when Ink’s file differs by one character, naming the patch', () => {
		expect(applyPatch(source, patch, 'the patch')).toContain('writeCells(');
		expect(() => applyPatch(source.replace('trimEnd()', 'trimEnd( )'), patch, 'the patch')).toThrow(
			/^the patch: the file to patch is not the one the patch was written for/,
		);
	});

	it('fails when a line of the diff does not match, even with the right hash', () => {
		const lines = source.split('\n');
		const hunk = /^@@ -(\d+)/m.exec(patch);
		const moved = patch.replace(hunk![0], `@@ -${Number(hunk![1]) + 1}`);
		expect(lines.length).toBeGreaterThan(100);
		expect(() => applyPatch(source, moved, 'the patch')).toThrow(/^the patch: line \d+ is not/);
	});
});
