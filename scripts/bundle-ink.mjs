// Runs after tsc (npm run build). Ink is ~400 modules (it imports the whole es-toolkit/compat barrel for one
// `throttle`); resolving and evaluating them took ~300 ms of every start of the viewer on Node 20, which has
// no compile cache. One pre-bundled file loads in ~90 ms. So:
//   1. Ink and everything it depends on, except React, go into dist/vendor/ink.js. React stays external so
//      the views and Ink's reconciler share the one React instance from node_modules.
//   2. The compiled views' `from 'ink'` imports are pointed at that file.
// Sources and tests keep importing 'ink' as usual (vitest and ink-testing-library use the package itself).
import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

// Paths, not URL pathnames: a checkout under a directory with a space in its name must build too.
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const viewsDir = join(dist, 'views');

await build({
	stdin: {contents: "export * from 'ink';", resolveDir: root, sourcefile: 'ink-entry.js'},
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	outfile: join(dist, 'vendor', 'ink.js'),
	external: ['react'],
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
