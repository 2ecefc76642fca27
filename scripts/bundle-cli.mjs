// Runs in `npm run build` after bundle-views.mjs, whose bundle it takes in. tsc writes the CLI as ~150 modules, and
// Node 20 (no compile cache) resolves, reads, compiles and links each of them on every start: ~0.1 s of CPU, a third
// of what a short `--summary` costs, and a part of every first screen. So the command (`bin`: dist/bin/perscope.js)
// is those modules bundled by esbuild into dist/bin/:
//   - perscope.js (cli/main.js), load-worker.js, parse-chunk-worker.js and conversation-worker.js: the entry points, in one folder, so that
//     `new URL('load-worker.js', import.meta.url)` in the bundled loaders finds its worker beside them, and
//     `../../package.json`, `../../fixtures/demo.ndjson` resolve as they do from dist/cli/;
//   - chunk-*.js: what the entries share, and what is imported only when needed (the views bundle of
//     bundle-views.mjs with Ink and React, the job-directory, gzip and FIFO readers, the OTLP export), each its own
//     file that a start which does not need it does not read. One build, so every module has one instance in the
//     process, the views included.
// Packages stay in node_modules (OpenTelemetry's is loaded only for --otlp: test/api/loads.test.ts). dist/cli/ and the
// rest of dist/ stay as tsc wrote them: the library (`perscope`'s exports) and the tests' in-process runs use them.
import {chmodSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {splitViewsChunk} from './views-script.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const bin = join(dist, 'bin');

const result = await build({
	entryPoints: {
		perscope: join(dist, 'cli', 'main.js'),
		'load-worker': join(dist, 'load', 'viewer', 'load-worker.js'),
		'parse-chunk-worker': join(dist, 'load', 'parallel', 'parse-chunk-worker.js'),
		'conversation-worker': join(dist, 'input', 'reread', 'conversation-worker.js'),
	},
	outdir: bin,
	bundle: true,
	splitting: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	// The views bundle's dynamic import of Ink's development tools, which never runs (bundle-views.mjs).
	external: ['./devtools.js'],
	metafile: true,
	sourcemap: true,
	logLevel: 'warning',
	legalComments: 'none',
});

// The loaders find their workers beside them by name: test/api/bin.test.ts checks that every such path in dist/bin/
// is there (a worker renamed in source/ without its entry here fails esbuild above, a path changed fails the test).

const inputs = Object.keys(result.metafile.inputs);
if (!inputs.some(input => input.endsWith('show-app.bundle.js')))
	throw new Error('bundle-cli: the CLI no longer reaches the views bundle; review the order of the build steps');

// The chunk that holds the views bundle becomes a script compiled with V8's code cache (scripts/views-script.mjs).
const viewsChunks = Object.entries(result.metafile.outputs).filter(
	([output, {inputs: parts}]) => output.endsWith('.js') && Object.keys(parts).some(input => input.endsWith('show-app.bundle.js')),
);
if (viewsChunks.length !== 1) throw new Error(`bundle-cli: the views bundle is in ${viewsChunks.length} chunks, not one`);
splitViewsChunk(join(root, viewsChunks[0][0]), root);

// esbuild keeps the entry's `#!/usr/bin/env node`; npm link and a global install need the executable bit.
chmodSync(join(bin, 'perscope.js'), 0o755);
