// The type check and eslint on one TypeScript program (`npm run lint`, and so `npm test`).
// eslint's typed rules (no unawaited promise, exhaustive switches) need the program of tsconfig.test.json, types and
// all, which is what `tsc --noEmit` builds and checks: run apart, the two built and checked it twice, ~60 s of CPU
// together on a clean checkout against ~37 s with one program (measured 2026-11-28 on the 2-core machine). The
// program is made here as tsc makes it (tsconfig.test.json as it is: typescript-eslint's own `createProgram` turns on
// options of its own, such as noUnusedLocals), its errors are tsc's, then eslint reads its types from it.
// The build and bench scripts (tsconfig.scripts.json: the same options, and JavaScript allowed but not checked) are
// in the same program: a program of their own parsed @types/node, TypeScript's and eslint's types again, ~5 s of
// CPU.
// `npm run typecheck` stays for the type check alone, incremental. `npm run lint` runs this with a larger young
// generation (--max-semi-space-size=64): TypeScript and eslint allocate a great many short-lived objects, and with
// Node's default the collector took ~15 % of a profiled run; with it, ~3 s of CPU less (~6 %, A/B twice).
import {ESLint} from 'eslint';
import {fileURLToPath} from 'node:url';
import ts from 'typescript';

// Paths, not URL pathnames: a checkout under a directory with a space in its name must lint too.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const host = {
	getCanonicalFileName: name => name,
	getCurrentDirectory: () => process.cwd(),
	getNewLine: () => '\n',
};
const config = ts.getParsedCommandLineOfConfigFile('tsconfig.test.json', undefined, {
	...ts.sys,
	onUnRecoverableConfigFileDiagnostic(diagnostic) {
		process.stderr.write(ts.formatDiagnostics([diagnostic], host));
		process.exit(2);
	},
});
const scripts = ts.getParsedCommandLineOfConfigFile('tsconfig.scripts.json', undefined, {
	...ts.sys,
	onUnRecoverableConfigFileDiagnostic(diagnostic) {
		process.stderr.write(ts.formatDiagnostics([diagnostic], host));
		process.exit(2);
	},
});
// Both extend tsconfig.json: the scripts' options are the tests' with JavaScript allowed and not checked
// (checkJs: false), which changes nothing for a TypeScript file. Any other difference is a mistake here.
const {allowJs, checkJs, ...scriptOptions} = scripts.options;
const differing = Object.keys({...scriptOptions, ...config.options}).filter(
	key => key !== 'configFilePath' && JSON.stringify(scriptOptions[key]) !== JSON.stringify(config.options[key]),
);
if (allowJs !== true || checkJs !== false || differing.length > 0)
	throw new Error(`types-and-lint: tsconfig.scripts.json differs from tsconfig.test.json in more than allowJs/checkJs (${differing.join(', ')}); review`);
const program = ts.createProgram({
	rootNames: [...config.fileNames, ...scripts.fileNames],
	options: {...config.options, allowJs, checkJs},
	projectReferences: config.projectReferences,
	configFileParsingDiagnostics: [...ts.getConfigFileParsingDiagnostics(config), ...ts.getConfigFileParsingDiagnostics(scripts)],
});
const typeErrors = ts.getPreEmitDiagnostics(program);
if (typeErrors.length > 0) process.stdout.write(ts.formatDiagnosticsWithColorAndContext(typeErrors, host));

// Every file linted with types gets this program (eslint.config.js names a tsconfig for each, for eslint run alone).
const eslint = new ESLint({
	overrideConfig: [
		{
			files: ['source/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}', 'tools/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.mjs'],
			languageOptions: {parserOptions: {project: false, programs: [program]}},
		},
	],
});
const results = await eslint.lintFiles(['source', 'test', 'tools', 'scripts', 'bench']);
const formatter = await eslint.loadFormatter('stylish');
process.stdout.write(await formatter.format(results));
const lintErrors = results.reduce((count, result) => count + result.errorCount + result.fatalErrorCount, 0);
if (typeErrors.length > 0) process.stdout.write(`types-and-lint: ${typeErrors.length} type error${typeErrors.length === 1 ? '' : 's'}\n`);
process.exitCode = typeErrors.length > 0 || lintErrors > 0 ? 1 : 0;
