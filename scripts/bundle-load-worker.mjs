// Runs after tsc (npm run build). The viewer's load worker (dist/sources/load-worker.js) imports ~40 modules;
// a worker resolves and compiles them on its own, and on a 2-vCPU machine that put its first chunk ~25 ms
// later than one pre-bundled file does, while the viewer's own thread is loading Ink next to it. So the worker
// runs dist/sources/load-worker.bundle.js (sources/early-load.ts names it), built here from the compiled
// modules. It stays next to them: the chunk parsers it may start are found relative to it, and zod, which the
// modules load lazily with createRequire, is left to Node to find in node_modules.
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const sources = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'sources');

await build({
	entryPoints: [join(sources, 'load-worker.js')],
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	outfile: join(sources, 'load-worker.bundle.js'),
	// Nothing in node_modules is imported statically by the worker's modules; should that change, it stays out.
	packages: 'external',
	sourcemap: true,
	logLevel: 'warning',
	legalComments: 'none',
});
