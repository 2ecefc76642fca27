// Builds the workshop's tools (tools/: the log generator) into build/tools/, one bundled file each, for the tests,
// the benchmark and `npm run gen`. They are not part of the package: dist/ holds only what perscope ships. esbuild
// strips the types (`npm run lint` and `npm run typecheck` check them, with the rest); the model code a tool uses is bundled in.
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = ['generate-log'];

await build({
	entryPoints: tools.map(name => join(root, 'tools', `${name}.ts`)),
	outdir: join(root, 'build', 'tools'),
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	logLevel: 'warning',
});
