// The project's lint rules (run by `npm run lint`, and inside `npm test`). They hold what the compiler does not:
// - the layers: each folder of source/ imports only the layers below it (docs/architecture.md draws them), and the
//   pure layers (model, parse, query, text, view-model) do no I/O and read no environment; the workshop's tools
//   (tools/, not shipped) use the model only, and nothing shipped imports them;
// - the build and bench scripts (scripts/, bench/) are JavaScript: eslint's recommended rules, and no promise left
//   unawaited;
// - a switch over a discriminated union names every kind (a kind added later must be handled, not dropped by a
//   `default`) and, in source/, ends in `default: assertNever(x)` (eslint-rules/require-assert-never.js); no `any`; no promise left unawaited; no import cycle (type-only cycles are caught by dpdm in
//   `npm run lint`, since import-x's rule ignores type imports).
import {createTypeScriptImportResolver} from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import {requireAssertNever} from './eslint-rules/require-assert-never.js';

/** Each layer, and the layers it may import (besides itself). Anything not listed is out of bounds. */
const layers = {
	model: [],
	// The one scheduler of work in slices (soon / later / now, budgets, turns on the model): below the load and the views.
	slices: [],
	parse: ['model'],
	text: ['model'],
	query: ['model', 'text'],
	input: ['parse', 'model'],
	load: ['slices', 'input', 'parse', 'model', 'query'],
	output: ['text', 'query', 'model'],
	// The viewer's state without React (pure), and the Ink views that draw it.
	'view-model': ['slices', 'query', 'text', 'model'],
	views: ['view-model', 'slices', 'load', 'input', 'query', 'text', 'model'],
	// OpenTelemetry export: export/otlp/map/ is pure (the model as spans); the rest sends them.
	export: ['model', 'query', 'text'],
	app: ['cli', 'views', 'view-model', 'slices', 'output', 'export', 'load', 'input', 'parse', 'query', 'text', 'model'],
	cli: ['app', 'views', 'view-model', 'slices', 'output', 'export', 'load', 'input', 'parse', 'query', 'text', 'model'],
	// The library's public entry (package.json "exports"): the model and its summary, no terminal, no files.
	api: ['load', 'parse', 'model', 'query', 'output', 'text'],
};
const pure = ['model', 'parse', 'query', 'text', 'view-model', 'export/otlp/map'];
const all = Object.keys(layers);
const zones = Object.entries(layers).map(([layer, allowed]) => ({
	target: `./source/${layer}`,
	from: all.filter(other => other !== layer && !allowed.includes(other)).map(other => `./source/${other}`),
	message: `source/${layer}/ may import only ${allowed.length > 0 ? allowed.join(', ') : 'itself'} (see docs/architecture.md)`,
}));
/** The workshop (tools/: the log generator) stands beside the house: it uses the model, and nothing shipped uses it. */
const toolsZone = {
	target: './tools',
	from: all.filter(layer => layer !== 'model').map(layer => `./source/${layer}`),
	message: 'tools/ may import only source/model/ (see docs/architecture.md)',
};
const notTools = {target: './source', from: './tools', message: 'source/ is shipped and tools/ is not: only tests may import tools/'};
/** Node's globals, as the node that runs eslint has them: the scripts run on it. */
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map(name => [name, 'readonly']));
/** The core rules that catch mistakes in plain JavaScript (most of eslint's recommended set), for scripts/ and bench/. */
const scriptRules = Object.fromEntries(
	[
		'no-undef',
		'no-unused-vars',
		'no-unreachable',
		'no-dupe-keys',
		'no-dupe-args',
		'no-duplicate-case',
		'no-empty',
		'no-constant-condition',
		'no-self-assign',
		'no-fallthrough',
		'no-redeclare',
		'no-func-assign',
		'no-const-assign',
		'no-class-assign',
		'no-unsafe-finally',
		'no-unsafe-negation',
		'no-cond-assign',
		'use-isnan',
		'valid-typeof',
		'no-useless-escape',
		'getter-return',
		'no-async-promise-executor',
		'no-import-assign',
		'no-shadow-restricted-names',
		'no-sparse-arrays',
		'no-unused-labels',
		'require-yield',
		'for-direction',
	].map(rule => [rule, 'error']),
);
/** node: modules that do I/O or reach the process: not for the pure layers. */
const ioModules = [
	'fs',
	'fs/promises',
	'child_process',
	'net',
	'http',
	'https',
	'http2',
	'dgram',
	'dns',
	'tls',
	'worker_threads',
	'tty',
	'readline',
	'process',
	'cluster',
	'os',
	'zlib',
	'stream',
	'perf_hooks',
];

export default tseslint.config(
	{ignores: ['dist/**', 'build/**', 'node_modules/**', 'fixtures/**', '*.config.*', '**/*.d.mts']},
	{
		files: ['source/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}', 'tools/**/*.ts'],
		languageOptions: {parser: tseslint.parser, parserOptions: {project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname}},
		plugins: {'@typescript-eslint': tseslint.plugin, 'import-x': importX, perscope: {rules: {'require-assert-never': requireAssertNever}}},
		settings: {'import-x/resolver-next': [createTypeScriptImportResolver({project: './tsconfig.test.json'})]},
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/switch-exhaustiveness-check': ['error', {considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false}],
			'import-x/no-cycle': 'error',
		},
	},
	{
		files: ['source/**/*.{ts,tsx}'],
		ignores: ['source/**/*.test.{ts,tsx}'],
		rules: {'import-x/no-restricted-paths': ['error', {zones: [...zones, notTools]}], 'perscope/require-assert-never': 'error'},
	},
	{
		// No module-level state outside slices/ (#35): what a viewer, a load or an export keeps is an object its owner
		// makes. A `let` at the top of a module, or a Map or Set there that is not read-only, is such state; the few
		// caches that are kept per process say why where they are (docs/architecture.md, "No module-level state").
		files: ['source/**/*.{ts,tsx}'],
		ignores: ['source/**/*.test.{ts,tsx}', 'source/slices/**'],
		rules: {
			'no-restricted-syntax': [
				'error',
				...['Program > VariableDeclaration', 'Program > ExportNamedDeclaration > VariableDeclaration'].flatMap(declaration => [
					{
						selector: `${declaration}[kind='let']`,
						message: 'no module-level state outside slices/: keep it in an object its owner makes (docs/architecture.md)',
					},
					{
						selector: `${declaration} > VariableDeclarator:not([id.typeAnnotation.typeAnnotation.typeName.name=/^Readonly/]) > NewExpression.init[callee.name=/^(Weak)?(Map|Set)$/]`,
						message:
							'no module-level state outside slices/: a constant table is a ReadonlyMap or ReadonlySet; a cache belongs to an object its owner makes (docs/architecture.md)',
					},
				]),
			],
		},
	},
	{
		files: ['tools/**/*.ts'],
		rules: {'import-x/no-restricted-paths': ['error', {zones: [toolsZone]}]},
	},
	{
		files: ['scripts/**/*.mjs', 'bench/**/*.mjs'],
		languageOptions: {
			globals: nodeGlobals,
			parser: tseslint.parser,
			parserOptions: {project: ['./tsconfig.scripts.json'], tsconfigRootDir: import.meta.dirname},
		},
		plugins: {'@typescript-eslint': tseslint.plugin},
		rules: {...scriptRules, '@typescript-eslint/no-floating-promises': 'error'},
	},
	{
		files: pure.map(layer => `source/${layer}/**/*.{ts,tsx}`),
		ignores: ['source/**/*.test.{ts,tsx}'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: ioModules
						.flatMap(name => [name, `node:${name}`])
						.map(name => ({name, message: 'the pure layers do no I/O: take what you need as an argument'})),
				},
			],
			'no-restricted-properties': [
				'error',
				{object: 'process', property: 'env', message: 'the pure layers read no environment: take an option (read in source/cli/)'},
			],
		},
	},
	{
		// Each key layer (app, overlays, tree) handles its own subset of the named commands and passes the rest on
		// to the next layer: there, a `default` is the passing on, not a kind that is dropped.
		files: ['source/views/app.tsx', 'source/views/overlays.tsx', 'source/views/tree-view.tsx'],
		rules: {
			'@typescript-eslint/switch-exhaustiveness-check': ['error', {considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false}],
			'perscope/require-assert-never': 'off',
		},
	},
);
