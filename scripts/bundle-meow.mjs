// Runs after tsc (npm run build). Every start of the CLI reads its arguments with meow, and meow 14 is one
// ES module of ~250 KB that also builds, as it loads, what only reading and checking a package.json needs:
// normalize-package-data (whose spdx-correct sorts its table of licence misspellings at load) and Babel's
// code frame (for a package.json that is not JSON). For a small log that was most of what meow cost,
// a share of the whole run that the hand-written fast path it replaces used to avoid (docs/performance.md).
// So:
//   1. meow goes into one minified file, dist/cli/meow.bundle.js, with those two built on first use instead
//      of at load (meow reads perscope's package.json without normalising it; only `--version` normalises).
//   2. The compiled parse-args.js is pointed at the bundle instead of 'meow'.
// Sources and tests import 'meow' as usual.
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliDir = join(root, 'dist', 'cli');
const bundleName = 'meow.bundle.js';

/** Each replacement must be found exactly once, or the build fails: meow has changed shape. */
const lazyReplacements = [
	['var normalizeExports = requireNormalize();\nconst normalizePackageData = getDefaultExportFromCjs(normalizeExports);', 'const normalizePackageData = json => getDefaultExportFromCjs(requireNormalize())(json);'],
	['var libExports = requireLib$1();\n', ''],
	['libExports.codeFrameColumns(', 'requireLib$1().codeFrameColumns('],
];

const lazyLoad = {
	name: 'perscope-meow-lazy-load',
	setup(build) {
		build.onLoad({filter: /[\\/]meow[\\/]build[\\/]dependencies\.js$/}, args => {
			let source = readFileSync(args.path, 'utf8');
			for (const [from, to] of lazyReplacements) {
				if (source.split(from).length !== 2) throw new Error(`bundle-meow: meow's dependencies.js has changed (not once: ${JSON.stringify(from.slice(0, 50))}); review scripts/bundle-meow.mjs`);
				source = source.replace(from, to);
			}

			if (/\blibExports\b|\bnormalizeExports\b/.test(source)) throw new Error('bundle-meow: meow still uses what was made lazy; review scripts/bundle-meow.mjs');
			return {contents: source, loader: 'js'};
		});
	},
};

await build({
	entryPoints: [join(root, 'node_modules', 'meow', 'build', 'index.js')],
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	minify: true,
	outfile: join(cliDir, bundleName),
	plugins: [lazyLoad],
	logLevel: 'warning',
});

const parseArgs = join(cliDir, 'parse-args.js');
const compiled = readFileSync(parseArgs, 'utf8');
const importMeow = "from 'meow';";
if (compiled.split(importMeow).length !== 2) throw new Error(`bundle-meow: ${parseArgs} does not import meow once as expected`);
writeFileSync(parseArgs, compiled.replace(importMeow, `from './${bundleName}';`));
