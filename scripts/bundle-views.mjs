// Runs after tsc (npm run build). The viewer's views, Ink and React are ~500 modules (Ink alone imports the
// whole es-toolkit/compat barrel for one `throttle`). Node 20 has no compile cache, and its ES module loader
// spends time on each module it resolves, reads and links; the viewer loads them while its worker loads a
// large file (load/load-in-worker.ts), and on a machine with two CPUs whatever it spends there is taken from
// the worker (docs/performance.md has the figures). So:
//   1. The views (dist/views/show-app.js and what only it imports), Ink and React go into one file,
//      dist/views/show-app.bundle.js. Modules the rest of the CLI imports too (the model, text/, query/)
//      stay out and are imported from dist/, so each has one instance in the process.
//   2. Ink's files get the reviewed patches of scripts/ink-patches.mjs (Ink's version is pinned, and a file
//      that is not the one a patch was written for fails the build). Nothing else is rewritten.
//   3. The compiled app/interactive.js is pointed at the bundle instead of show-app.js.
// Sources and tests keep importing 'ink' and './show-app.js' as usual (vitest and ink-testing-library use the
// packages themselves).
import {readFileSync, writeFileSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {inkPatches, inkPatchPlugin} from './ink-patches.mjs';

// Paths, not URL pathnames: a checkout under a directory with a space in its name must build too.
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const viewsDir = join(dist, 'views');
const bundleName = 'show-app.bundle.js';

/*
 * The compiled modules that the CLI loads outside the views: everything the entry point reaches without going
 * through show-app.js. The bundle imports these from dist/ rather than carrying copies of its own: a second
 * instance of a module would have its own state (the width tables, a load started early) and its own classes.
 */
const cutAtViews = {
	name: 'perscope-cut-at-views',
	setup(build) {
		build.onResolve({filter: /[\\/]show-app\.js$/}, args => ({path: args.path, external: true}));
	},
};
const outside = await build({
	entryPoints: [join(dist, 'cli', 'main.js')],
	plugins: [cutAtViews],
	bundle: true,
	splitting: true,
	write: false,
	metafile: true,
	platform: 'node',
	format: 'esm',
	outdir: join(dist, 'unused'),
	packages: 'external',
	logLevel: 'warning',
});
const shared = new Set(Object.keys(outside.metafile.inputs).map(input => join(root, input)));
if (!shared.has(join(dist, 'app', 'interactive.js')))
	throw new Error('bundle-views: cli/main.js no longer reaches app/interactive.js; review scripts/bundle-views.mjs');

/** Leaves the modules in `shared` out of the bundle, imported by their path relative to dist/views/. */
const sharedModules = {
	name: 'perscope-shared-modules',
	setup(build) {
		build.onResolve({filter: /^\.\.?\//}, args => {
			if (!args.resolveDir.startsWith(dist)) return undefined;
			const path = join(args.resolveDir, args.path);
			if (!shared.has(path)) return undefined;
			const fromViews = relative(viewsDir, path).split(sep).join('/');
			return {path: fromViews.startsWith('.') ? fromViews : `./${fromViews}`, external: true};
		});
	},
};

/*
 * Ink and the packages it measures with (widest-line, cli-truncate) get text/width/ink-string-width.js in place of
 * string-width 8: the same answer on any text (its test), without a grapheme-by-grapheme walk of every row it
 * lays out. Other copies of string-width (wrap-ansi's older one) are left as they are.
 */
const stringWidthPackage = join(root, 'node_modules', 'string-width', 'index.js');
let stringWidthRedirected = 0;
const inkStringWidth = {
	name: 'perscope-ink-string-width',
	setup(build) {
		build.onResolve({filter: /^string-width$/}, async args => {
			if (args.pluginData?.plain) return undefined;
			const resolved = await build.resolve(args.path, {kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: {plain: true}});
			if (resolved.path !== stringWidthPackage || !args.importer.includes(`${sep}node_modules${sep}`)) return resolved;
			stringWidthRedirected++;
			return {path: join(dist, 'text', 'width', 'ink-string-width.js')};
		});
	},
};

const patches = inkPatchPlugin(join(root, 'node_modules', 'ink'));
await build({
	entryPoints: [join(viewsDir, 'show-app.js')],
	plugins: [inkStringWidth, sharedModules, patches.plugin],
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	outfile: join(viewsDir, bundleName),
	// Ink's development mode (DEV=true) imports ./devtools.js, which needs react-devtools-core (not installed);
	// bundled, its static import would be hoisted to the top of the bundle and fail every start. Left out, it
	// stays a dynamic import that never runs: the CLI hides DEV while Ink loads, as it hides CI.
	external: ['./devtools.js'],
	// The viewer always loads the views with NODE_ENV=production (set by the CLI): React and its reconciler are
	// then only their production builds. Left undecided here, the development builds (~1 MB) would be parsed
	// on every start.
	define: {'process.env.NODE_ENV': '"production"'},
	// CommonJS dependencies inside an ESM bundle still call require() for Node built-ins.
	banner: {js: "import {createRequire as createRequireForViews} from 'node:module'; const require = createRequireForViews(import.meta.url);"},
	sourcemap: true,
	logLevel: 'warning',
	legalComments: 'none',
});

if (stringWidthRedirected === 0)
	throw new Error('bundle-views: nothing in the views imports string-width 8 any more; review the perscope-ink-string-width plugin');

const unused = inkPatches.filter(each => !patches.applied().includes(each.file));
if (unused.length > 0)
	throw new Error(`bundle-views: the bundle no longer loads Ink's ${unused.map(each => each.file).join(', ')}; review scripts/ink-patches.mjs`);

const interactive = join(dist, 'app', 'interactive.js');
const wiring = readFileSync(interactive, 'utf8');
const pointed = wiring.replaceAll("import('../views/show-app.js')", `import('../views/${bundleName}')`);
if (pointed === wiring) throw new Error("bundle-views: app/interactive.js no longer imports '../views/show-app.js'; has the output of tsc changed?");
writeFileSync(interactive, pointed);
