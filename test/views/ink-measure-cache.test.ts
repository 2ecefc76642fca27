import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import {build} from 'esbuild';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {inkPatchPlugin} from '../../scripts/ink-patches.mjs';
import {root} from '../helpers/fixture-files.js';

/*
 * The viewer's Ink is bundled with a bound on the sizes its text measure keeps (scripts/patches/ink-measure-cache.patch):
 * a live view lays out new texts all the time, and Ink's own map keeps every one for good. A size still kept is
 * handed back as the same object; one let go is measured again, to the same size. Its cut of a text too wide for
 * its box is bounded the same way (scripts/patches/ink-wrap-cache.patch, #33). The patched modules are built here
 * the way the bundle is.
 */

type Size = {width: number; height: number};
type MeasureText = (text: string) => Size;
type WrapText = (text: string, maxWidth: number, wrapType: string) => string;

const inkDir = join(root, 'node_modules', 'ink');
const measureFile = join(inkDir, 'build', 'measure-text.js');
const wrapFile = join(inkDir, 'build', 'wrap-text.js');
const built = mkdtempSync(join(tmpdir(), 'perscope-ink-measure-'));
let inkMeasure: MeasureText;
let inkWrap: WrapText;
let instances = 0;

/** A new instance of the patched module, its cache empty: each test starts from none kept. */
async function boundedMeasure(): Promise<MeasureText> {
	const patched: {default: MeasureText} = await import(`${pathToFileURL(join(built, 'measure-text.js')).href}?instance=${++instances}`);
	return patched.default;
}

beforeAll(async () => {
	const patches = inkPatchPlugin(inkDir);
	await build({
		entryPoints: [measureFile],
		plugins: [patches.plugin],
		bundle: true,
		platform: 'node',
		format: 'esm',
		outfile: join(built, 'measure-text.js'),
		logLevel: 'warning',
	});
	expect(patches.applied()).toStrictEqual(['build/measure-text.js']);
	const wrapPatches = inkPatchPlugin(inkDir);
	await build({
		entryPoints: [wrapFile],
		plugins: [wrapPatches.plugin],
		bundle: true,
		platform: 'node',
		format: 'esm',
		outfile: join(built, 'wrap-text.js'),
		logLevel: 'warning',
	});
	expect(wrapPatches.applied()).toStrictEqual(['build/wrap-text.js']);
	const originalWrap: {default: WrapText} = await import(pathToFileURL(wrapFile).href);
	inkWrap = originalWrap.default;
	const original: {default: MeasureText} = await import(pathToFileURL(measureFile).href);
	inkMeasure = original.default;
});

afterAll(() => rmSync(built, {recursive: true, force: true}));

/** Measures `count` texts never measured before, as a streaming line grows. */
function measureNew(measure: MeasureText, prefix: string, count: number): void {
	for (let k = 0; k < count; k++) measure(`${prefix} ▸ streaming ${k}`);
}

describe("Ink's text measure in the viewer", () => {
	it('lets old sizes go once it has measured 4,096 new texts, where Ink keeps every text it ever measured', async () => {
		const kept = inkMeasure('⚡ exec ls');
		measureNew(inkMeasure, 'ink', 5000);
		expect(inkMeasure('⚡ exec ls')).toBe(kept);

		const measure = await boundedMeasure();
		const first = measure('⚡ exec ls');
		measureNew(measure, 'bounded', 5000);
		const again = measure('⚡ exec ls');
		expect(again).not.toBe(first);
		expect(again).toStrictEqual(first);
	});

	it('gives the sizes Ink gives, text kept or not', async () => {
		const measure = await boundedMeasure();
		const texts = ['', 'a', '日本語', '👨‍👩‍👧‍👦 family', 'two\nlines, the second longer', '\u001B[31mred\u001B[39m ✓'];
		for (const text of texts) expect(measure(text)).toStrictEqual(inkMeasure(text));
		measureNew(measure, 'again', 5000);
		for (const text of texts) expect(measure(text)).toStrictEqual(inkMeasure(text));
	});

	it('answers a text it still keeps with the size it made (it is a cache, not a recount)', async () => {
		const measure = await boundedMeasure();
		const size = measure('▾ expert-0 ✓ completed');
		measureNew(measure, 'few', 4000);
		expect(measure('▾ expert-0 ✓ completed')).toBe(size);
	});
});

/** A full garbage collection: V8's `gc`, reached without starting node with --expose-gc. */
function collectGarbage(): void {
	setFlagsFromString('--expose-gc');
	(runInNewContext('gc') as () => void)();
}

/** A new instance of the patched wrap, its cache empty. */
async function boundedWrap(): Promise<WrapText> {
	const patched: {default: WrapText} = await import(`${pathToFileURL(join(built, 'wrap-text.js')).href}?instance=${++instances}`);
	return patched.default;
}

/**
 * Cuts `count` rows never cut before, as a terminal made narrower does to the rows on screen. `kind` 'none' is no
 * kind Ink passes: the text is kept as it is, through the same cache, at no cost of cutting.
 */
function cutNew(wrap: WrapText, prefix: string, count: number, tail = '', kind = 'truncate-end'): void {
	for (let k = 0; k < count; k++) wrap(`${prefix} ${k} ⚡ exec npx vitest run --reporter dot${tail}`, 20, kind);
}

describe("Ink's cut of a text too wide for its box, in the viewer", () => {
	it('keeps at most 4,096 cuts, where Ink keeps every text it ever cut', async () => {
		const wrap = await boundedWrap();
		// What a run of cuts leaves on the heap once garbage is collected. Cut strings are equal whether kept or
		// made again, so what is kept is seen in the heap, not in the answers.
		const retained = (cut: () => void): number => {
			collectGarbage();
			const before = process.memoryUsage().heapUsed;
			cut();
			collectGarbage();
			return process.memoryUsage().heapUsed - before;
		};

		// Long rows, so that what is kept weighs: a cut's key is its whole text.
		const tail = ' src/index.ts'.repeat(40);
		const ink = retained(() => cutNew(inkWrap, 'ink', 40_000, tail, 'none'));
		const bounded = retained(() => cutNew(wrap, 'bounded', 40_000, tail, 'none'));
		expect(ink).toBeGreaterThan(20 * 1024 * 1024);
		expect(bounded).toBeLessThan(ink / 4);
	});

	it('gives the cuts and wraps Ink gives, text kept or not', async () => {
		const wrap = await boundedWrap();
		const cases: Array<[string, number, string]> = [
			['⚡ exec npm test ✗ Command failed', 10, 'truncate-end'],
			['日本語のテキスト', 5, 'truncate-middle'],
			['\u001B[31mred text that is long\u001B[39m', 8, 'wrap'],
			['two\nlines, the second longer', 6, 'truncate-start'],
		];
		for (const [text, width, kind] of cases) expect(wrap(text, width, kind)).toBe(inkWrap(text, width, kind));
		cutNew(wrap, 'again', 4100);
		for (const [text, width, kind] of cases) expect(wrap(text, width, kind)).toBe(inkWrap(text, width, kind));
	});
});
