// Runs after tsc (npm run build). The viewer's views, Ink and React are ~500 modules (Ink alone imports the
// whole es-toolkit/compat barrel for one `throttle`). Node 20 has no compile cache, and its ES module loader
// spends about a millisecond on each module it resolves, reads and links: loading them one by one took ~300 ms
// of every start of the viewer, and the views' own ~40 modules still took ~50 ms of it next to one bundled Ink.
// The viewer loads them while its worker loads a large file (sources/load-in-worker.ts), and on a machine
// with two CPUs whatever it spends there is taken from the worker. So:
//   1. The views (dist/views/show-app.js and what only it imports), Ink and React go into one file,
//      dist/views/show-app.bundle.js. Modules the rest of the CLI imports too (the model, sources, text
//      helpers) stay out and are imported from dist/ as they are, so each has one instance in the process.
//   2. Ink's output.js gets a faster `get` for rows that one text covers from column 0 (ink-output-rows.js,
//      held to Ink's own by test/views/ink-output-rows.test.ts, which imports it as InkOutputForTests).
//   3. The compiled run-app.js is pointed at the bundle instead of show-app.js.
// Sources and tests keep importing 'ink' and './show-app.js' as usual (vitest and ink-testing-library use the
// packages themselves).
import {readFileSync, writeFileSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

// Paths, not URL pathnames: a checkout under a directory with a space in its name must build too.
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const viewsDir = join(dist, 'tui');
const bundleName = 'show-app.bundle.js';
const inkOutput = join(root, 'node_modules', 'ink', 'build', 'output.js');
const rowsPatch = readFileSync(fileURLToPath(new URL('ink-output-rows.js', import.meta.url)), 'utf8');

/** Appends the rows fast path to Ink's output module; fails the build if that module is not what it expects. */
const fastRows = {
	name: 'perscope-ink-output-rows',
	setup(build) {
		build.onLoad({filter: /[\\/]ink[\\/]build[\\/]output\.js$/}, args => {
			const source = readFileSync(args.path, 'utf8');
			for (const needed of ['export default class Output', 'import sliceAnsi from', 'styledCharsToString', 'caches = new OutputCaches()']) {
				if (!source.includes(needed)) throw new Error(`bundle-views: Ink's output.js has changed (no "${needed}"); review scripts/ink-output-rows.js`);
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
				throw new Error('bundle-views: yoga-layout has changed shape; review the yoga step of scripts/bundle-views.mjs');
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
		// dist/views/show-app.bundle.js → dist/text/width.js, compiled by tsc before this runs.
		build.onResolve({filter: /[\\/]present[\\/]width\.ts$/}, args => (args.importer === stringWidthShim ? {path: '../present/width.js', external: true} : undefined));
	},
};

/**
 * Ink has a development mode, turned on by DEV=true in the environment (a name other tools use too): it reads
 * Ink's package.json next to its modules, which is not there in the bundle (the viewer died with ENOENT), and
 * connects to React DevTools. The bundled Ink never takes it, and its DevTools bridge is left out (see
 * scripts/ink-devtools-stub.mjs).
 */
const devtoolsStub = fileURLToPath(new URL('ink-devtools-stub.mjs', import.meta.url));
const inkWithoutDevMode = {
	name: 'perscope-ink-without-dev-mode',
	setup(build) {
		build.onResolve({filter: /^\.\/devtools\.js$/}, args => (/[\\/]ink[\\/]build$/.test(args.resolveDir) ? {path: devtoolsStub} : undefined));
		build.onLoad({filter: /[\\/]ink[\\/]build[\\/]utils\.js$/}, args => {
			const source = readFileSync(args.path, 'utf8');
			const devTest = "const isDev = () => process.env['DEV'] === 'true';";
			if (!source.includes(devTest)) throw new Error("bundle-views: Ink's utils.js has changed (no isDev); review the dev-mode step of scripts/bundle-views.mjs");
			return {contents: source.replace(devTest, 'const isDev = () => false;'), loader: 'js'};
		});
	},
};

/*
 * The compiled modules that the CLI loads outside the views: everything the entry points reach without going
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
if (!shared.has(join(dist, 'app', 'interactive.js'))) throw new Error('bundle-views: cli/main.js no longer reaches app/interactive.js; review scripts/bundle-views.mjs');

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

await build({
	stdin: {
		contents: `export * from './tui/show-app.js';\nexport {default as InkOutputForTests} from ${JSON.stringify(inkOutput)};`,
		resolveDir: dist,
		sourcefile: 'views-entry.js',
	},
	plugins: [sharedModules, fastRows, yogaWithoutFetch, fastStringWidth, inkWithoutDevMode],
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	outfile: join(viewsDir, bundleName),
	// The viewer always loads the views with NODE_ENV=production (cli.tsx): React and its reconciler are then
	// only their production builds. Left undecided here, the development builds (~1 MB) would be parsed on
	// every start.
	define: {'process.env.NODE_ENV': '"production"'},
	// CommonJS dependencies inside an ESM bundle still call require() for Node built-ins.
	banner: {js: "import {createRequire as createRequireForViews} from 'node:module'; const require = createRequireForViews(import.meta.url);"},
	sourcemap: true,
	logLevel: 'warning',
	legalComments: 'none',
});

const runApp = join(dist, 'app', 'interactive.js');
const wiring = readFileSync(runApp, 'utf8');
const pointed = wiring.replaceAll("import('../tui/show-app.js')", `import('../tui/${bundleName}')`);
if (pointed === wiring) throw new Error("bundle-views: app/interactive.js no longer imports '../tui/show-app.js'; has the output of tsc changed?");
writeFileSync(runApp, pointed);
