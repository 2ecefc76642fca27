// Runs after tsc (npm run build). Every start of the CLI reads its arguments with meow, which with its
// dependencies is dozens of modules; Node 20 resolves and links each on its own. So meow goes into one minified
// file, dist/cli/meow.bundle.js, as it is (no change to its code: a patched dependency under an open version
// range breaks silently on an update), and the compiled parse-args.js is pointed at the bundle instead of 'meow'.
// Sources and tests import 'meow' as usual.
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliDir = join(root, 'dist', 'cli');
const bundleName = 'meow.bundle.js';

await build({
	entryPoints: [join(root, 'node_modules', 'meow', 'build', 'index.js')],
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	minify: true,
	outfile: join(cliDir, bundleName),
	logLevel: 'warning',
});

const parseArgs = join(cliDir, 'parse-args.js');
const compiled = readFileSync(parseArgs, 'utf8');
const importMeow = "from 'meow';";
if (compiled.split(importMeow).length !== 2) throw new Error(`bundle-meow: ${parseArgs} does not import meow once as expected`);
writeFileSync(parseArgs, compiled.replace(importMeow, `from './${bundleName}';`));
