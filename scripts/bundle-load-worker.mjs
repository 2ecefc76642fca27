// Runs after tsc (npm run build). The viewer's load worker (dist/load/load-worker.js) imports ~40 modules;
// a worker resolves and compiles them on its own, and on a 2-vCPU machine that put its first chunk ~25 ms
// later than one pre-bundled file does, while the viewer's own thread is loading Ink next to it. So the worker
// runs dist/load/load-worker.bundle.cjs (load/early-load.ts names it), built here from the compiled
// modules. It stays next to them: the chunk parsers it may start are found relative to it, and zod, which the
// modules load lazily with createRequire, is left to Node to find in node_modules.
//
// The bundle is CommonJS: a worker started on an ES module first sets up Node's ES module loader, and that
// put the bundle's first line ~10 ms later (a median of 15 starts: ~46 ms against ~57 ms). The modules' one
// use of `import.meta` (to find files next to them) becomes the bundle's own URL, which is in the same folder.
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const loadDir = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'load');

await build({
	entryPoints: [join(loadDir, 'load-worker.js')],
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	outfile: join(loadDir, 'load-worker.bundle.cjs'),
	define: {'import.meta.url': 'bundleUrl'},
	banner: {js: "const bundleUrl = require('node:url').pathToFileURL(__filename).href;"},
	// Nothing in node_modules is imported statically by the worker's modules; should that change, it stays out.
	packages: 'external',
	sourcemap: true,
	logLevel: 'warning',
	legalComments: 'none',
});
