import {spawnSync} from 'node:child_process';
import {cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs';
import * as nodePath from 'node:path';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {Script} from 'node:vm';
import {describe, expect, it} from 'vitest';
import {staleBindings, toScript, writeCache} from '../../scripts/views-script.mjs';
import {repoRoot} from '../helpers/cli-process.js';

/*
 * The command's views (Ink, React, the views: ~1 MB) are compiled from a script with V8's code cache rather than
 * as a module, which Node 20 compiles again at every start (scripts/views-script.mjs).
 */

const bin = join(repoRoot, 'dist', 'bin');

type Made = {chooseJob?: unknown; showApp?: unknown; strict?: boolean; url?: string; later?: unknown; joined?: string; sep?: string};

/** Runs `toScript`'s script for `source` with the given modules, as the runner module in dist/bin/ does. */
async function run(source: string, modules: Record<string, unknown>): Promise<Made> {
	const {script} = toScript(source, 'made.js');
	const made = new Script(script).runInThisContext() as (
		imported: (specifier: string) => unknown,
		url: string,
		load: (specifier: string) => Promise<unknown>,
	) => Promise<Made>;
	return made(
		specifier => modules[specifier],
		'file:///somewhere/made.js',
		async specifier => ({later: `loaded ${specifier}`}),
	);
}

describe('the views compiled with a code cache (dist/bin/)', () => {
	it('load from their script with the cache the build wrote, which this Node takes', () => {
		const runner = readdirSync(bin).find(name => /^show-app\.bundle-.*\.js$/.test(name));
		expect(runner).toBeDefined();
		expect(existsSync(join(bin, runner!.replace(/\.js$/, '.cache')))).toBe(true);
		const code = `
			const {prepareInkEnvironment} = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'cli', 'ink-environment.js')).href)});
			prepareInkEnvironment();
			const views = await import(${JSON.stringify(pathToFileURL(join(bin, runner!)).href)});
			console.log(JSON.stringify({rejected: views.viewsScript.cachedDataRejected, showApp: typeof views.showApp, chooseJob: typeof views.chooseJob}));
		`;
		const {NODE_OPTIONS: _, ...env} = process.env;
		const child = spawnSync(process.execPath, ['--input-type=module', '--eval', code], {env, encoding: 'utf8'});
		expect(child.stderr).toBe('');
		// `false`, not `undefined`: a cache was given, and V8 used it.
		expect(JSON.parse(child.stdout)).toEqual({rejected: false, showApp: 'function', chooseJob: 'function'});
	});

	// V8 compiles most functions when first called, and a cache holds what was compiled: made once the views were set
	// up, it left out React's rendering, Ink's layout and the components, compiled again at every start's first frame.
	it('load with a cache the build made as a viewer drew, which holds more than a cache of their top level', () => {
		const runner = readdirSync(bin).find(name => /^show-app\.bundle-.*\.js$/.test(name))!;
		const shipped = statSync(join(bin, runner.replace(/\.js$/, '.cache'))).size;
		// The top level's cache, as the build falls back to where it cannot draw (no `script` on the PATH), made from a
		// copy of dist/bin/ without its cache: the script compiled with a cache keeps what that cache held. The copy is
		// inside the checkout, where the chunks find the packages they import.
		const cacheFolder = join(repoRoot, 'node_modules', '.cache');
		mkdirSync(cacheFolder, {recursive: true});
		const copy = mkdtempSync(join(cacheFolder, 'perscope-views-cache-'));
		try {
			cpSync(bin, copy, {recursive: true});
			// writeCache removes the copied cache before it makes its own.
			const cache = join(copy, runner.replace(/\.js$/, '.cache'));
			const warnings: string[] = [];
			const made = writeCache(join(copy, runner), cache, repoRoot, {...process.env, PATH: join(copy, 'no-such-directory')}, text => warnings.push(text));
			expect(made).toBe('top level');
			expect(warnings).toEqual([expect.stringMatching(/top level only: running the viewer in `script` failed/)]);
			const topLevel = statSync(cache).size;
			expect(shipped).toBeGreaterThan(topLevel * 1.2);
		} finally {
			rmSync(copy, {recursive: true, force: true});
		}
	});

	it('behave as the module they were made from: its imports, exports, import(), import.meta.url and strict mode', async () => {
		const source = [
			'import {a, b as renamed} from "./chunk-A.js";',
			'import * as whole from "./chunk-B.js";',
			'import path from "node:path";',
			'import "./chunk-C.js";',
			'var strict = (function () { return this === undefined; })();',
			'var joined = `${a}-${renamed}-${whole.c}`;',
			'var url = new URL("x.txt", import.meta.url).href;',
			'var later = await import("./later.js");',
			'var sep = path.sep;',
			'export {strict, joined, url as url, later, sep};',
		].join('\n');
		const made = await run(source, {'./chunk-A.js': {a: 1, b: 2}, './chunk-B.js': {c: 3}, 'node:path': nodePath, './chunk-C.js': {}});
		expect(made).toEqual({strict: true, joined: '1-2-3', url: 'file:///somewhere/x.txt', later: {later: 'loaded ./later.js'}, sep: nodePath.sep});
		expect(toScript(source, 'made.js').staticSpecifiers).toEqual(['./chunk-A.js', './chunk-B.js', 'node:path', './chunk-C.js']);
	});

	it('are refused by the build when they import a binding its module assigns again (it would be read stale)', () => {
		const views = 'import {count, bump, limit, table, reset} from "./chunk-A.js";\nexport {count};';
		const chunk = [
			'var count = 0;',
			'function bump() { count++; }',
			'var limit = 5;',
			'var table = {};',
			'function reset() { table.size = 0; }',
			'export {count, bump, limit, table, reset};',
		].join('\n');
		expect(staleBindings(views, () => chunk)).toEqual(['./chunk-A.js count']);
		expect(staleBindings(views, () => chunk.replace('count++', 'table.count++'))).toEqual([]);
		expect(staleBindings(views, () => chunk.replace('count++', '[count] = [1]'))).toEqual(['./chunk-A.js count']);
		// A default import is read once too.
		expect(staleBindings('import counted from "./chunk-A.js";\nexport {counted};', () => `${chunk}\nexport {count as default};`)).toEqual([
			'./chunk-A.js count',
		]);
	});

	it('are refused by the build when they import something other than a chunk or a Node module', () => {
		expect(() => toScript('import React from "react";\nexport {React};', 'made.js')).toThrow(/imports react/);
	});
});
