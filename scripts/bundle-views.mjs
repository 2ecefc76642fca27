// Runs after tsc (npm run build). Ink is ~400 modules (it imports the whole es-toolkit/compat barrel for one
// `throttle`); resolving and evaluating them took ~300 ms of every start of the viewer on Node 20, which has
// no compile cache. One pre-bundled file loads in ~90 ms. So:
//   1. Ink and everything it depends on, except React, go into dist/vendor/ink.js. React stays external so
//      the views and Ink's reconciler share the one React instance from node_modules.
//   2. Ink's output.js gets a faster `get` for rows that one text covers from column 0 (ink-output-rows.js,
//      held to Ink's own by test/views/ink-output-rows.test.ts, which imports it as InkOutputForTests).
//   3. The compiled views' `from 'ink'` imports are pointed at that file.
// Sources and tests keep importing 'ink' as usual (vitest and ink-testing-library use the package itself).
import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

// Paths, not URL pathnames: a checkout under a directory with a space in its name must build too.
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const viewsDir = join(dist, 'views');
const inkOutput = join(root, 'node_modules', 'ink', 'build', 'output.js');
const rowsPatch = readFileSync(fileURLToPath(new URL('ink-output-rows.js', import.meta.url)), 'utf8');

/** Appends the rows fast path to Ink's output module; fails the build if that module is not what it expects. */
const fastRows = {
	name: 'perscope-ink-output-rows',
	setup(build) {
		build.onLoad({filter: /[\\/]ink[\\/]build[\\/]output\.js$/}, args => {
			const source = readFileSync(args.path, 'utf8');
			for (const needed of ['export default class Output', 'import sliceAnsi from', 'styledCharsToString', 'caches = new OutputCaches()']) {
				if (!source.includes(needed)) throw new Error(`bundle-ink: Ink's output.js has changed (no "${needed}"); review scripts/ink-output-rows.js`);
			}

			return {contents: `${source}\n${rowsPatch}`, loader: 'js'};
		});
	},
};

/**
 * Yoga's WebAssembly comes as a base64 data URL, which its loader fetches with `fetch`: on Node that loads
 * undici (~25 ms of every start of the viewer). Given the bytes as `wasmBinary` (an option of its Emscripten
 * loader), it compiles them directly.
 */
const yogaIndex = join(root, 'node_modules', 'yoga-layout', 'dist', 'src', 'index.js');
const yogaBinary = join(root, 'node_modules', 'yoga-layout', 'dist', 'binaries', 'yoga-wasm-base64-esm.js');
const yogaWithoutFetch = {
	name: 'perscope-yoga-without-fetch',
	setup(build) {
		build.onLoad({filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/}, () => {
			const index = readFileSync(yogaIndex, 'utf8');
			const wasm = /data:application\/octet-stream;base64,([A-Za-z\d+/=]+)/.exec(readFileSync(yogaBinary, 'utf8'))?.[1];
			const call = 'wrapAssembly(await loadYoga())';
			if (!wasm || !index.includes(call) || !index.includes("from '../binaries/yoga-wasm-base64-esm.js'")) {
				throw new Error('bundle-ink: yoga-layout has changed shape; review the yoga step of scripts/bundle-ink.mjs');
			}

			const bytes = `Buffer.from(${JSON.stringify(wasm)}, 'base64')`;
			return {contents: `import {Buffer} from 'node:buffer';\n${index.replace(call, `wrapAssembly(await loadYoga({wasmBinary: ${bytes}}))`)}`, loader: 'js', resolveDir: join(root, 'node_modules', 'yoga-layout', 'dist', 'src')};
		});
	},
};

/**
 * Ink's string-width (8.x, the copy at the top of node_modules) is served by scripts/ink-string-width.mjs;
 * wrap-ansi, which brings its own older copy, keeps that. The stand-in's own imports, perscope's width module
 * and string-width, are left out of the bundle and loaded from dist/text/width.js and node_modules: the views
 * load the same two, so there is one copy of each (and of the tables the width module fills as it measures).
 */
const stringWidthShim = fileURLToPath(new URL('ink-string-width.mjs', import.meta.url));
const fastStringWidth = {
	name: 'perscope-fast-string-width',
	setup(build) {
		build.onResolve({filter: /^string-width$/}, args => {
			if (args.importer === stringWidthShim) return {path: 'string-width', external: true};
			if (/[\\/]wrap-ansi[\\/]/.test(args.importer)) return undefined;
			return {path: stringWidthShim};
		});
		// dist/vendor/ink.js → dist/text/width.js, compiled by tsc before this runs.
		build.onResolve({filter: /[\\/]text[\\/]width\.ts$/}, args => (args.importer === stringWidthShim ? {path: '../text/width.js', external: true} : undefined));
	},
};

await build({
	stdin: {contents: `export * from 'ink';\nexport {default as InkOutputForTests} from ${JSON.stringify(inkOutput)};`, resolveDir: root, sourcefile: 'ink-entry.js'},
	plugins: [fastRows, yogaWithoutFetch, fastStringWidth],
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	outfile: join(dist, 'vendor', 'ink.js'),
	external: ['react'],
	// The viewer always loads Ink with NODE_ENV=production (cli.tsx): React's reconciler is then only its
	// production build. Left undecided here, the development build (~700 KB) would be parsed on every start.
	define: {'process.env.NODE_ENV': '"production"'},
	// Ink loads its devtools bridge only when DEV=true; the optional package it needs is not installed.
	alias: {'react-devtools-core': fileURLToPath(new URL('ink-devtools-stub.mjs', import.meta.url))},
	// CommonJS dependencies inside an ESM bundle still call require() for Node built-ins.
	banner: {js: "import {createRequire as createRequireForInk} from 'node:module'; const require = createRequireForInk(import.meta.url);"},
	logLevel: 'warning',
	legalComments: 'none',
});

let pointed = 0;
for (const name of readdirSync(viewsDir)) {
	if (!name.endsWith('.js')) continue;
	const path = join(viewsDir, name);
	const text = readFileSync(path, 'utf8');
	const changed = text.replaceAll(/ from 'ink';$/gm, " from '../vendor/ink.js';");
	if (changed !== text) {
		writeFileSync(path, changed);
		pointed++;
	}
}

if (pointed === 0) throw new Error('bundle-ink: no compiled view imports ink; has the output of tsc changed?');
