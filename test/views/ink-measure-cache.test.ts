import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {build} from 'esbuild';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {inkPatchPlugin} from '../../scripts/ink-patches.mjs';
import {root} from '../helpers/fixture-files.js';

/*
 * The viewer's Ink is bundled with a bound on the sizes its text measure keeps (scripts/patches/ink-measure-cache.patch):
 * a live view lays out new texts all the time, and Ink's own map keeps every one for good. A size still kept is
 * handed back as the same object; one let go is measured again, to the same size. The patched module is built
 * here the way the bundle is.
 */

type Size = {width: number; height: number};
type MeasureText = (text: string) => Size;

const inkDir = join(root, 'node_modules', 'ink');
const measureFile = join(inkDir, 'build', 'measure-text.js');
const built = mkdtempSync(join(tmpdir(), 'perscope-ink-measure-'));
let inkMeasure: MeasureText;
let instances = 0;

/** A new instance of the patched module, its cache empty: each test starts from none kept. */
async function boundedMeasure(): Promise<MeasureText> {
	const patched: {default: MeasureText} = await import(`${pathToFileURL(join(built, 'measure-text.js')).href}?instance=${++instances}`);
	return patched.default;
}

beforeAll(async () => {
	const patches = inkPatchPlugin(inkDir);
	await build({entryPoints: [measureFile], plugins: [patches.plugin], bundle: true, platform: 'node', format: 'esm', outfile: join(built, 'measure-text.js'), logLevel: 'warning'});
	expect(patches.applied()).toStrictEqual(['build/measure-text.js']);
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
