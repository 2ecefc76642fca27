// The project's lint rules (run by `npm run lint`, and inside `npm test`). They hold what the compiler does not:
// a switch over a discriminated union names every kind (a kind added later must be handled, not dropped by a
// `default`), no `any`, no promise left unawaited, no import cycle between modules.
import {createTypeScriptImportResolver} from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ignores: ['dist/**', 'node_modules/**', 'scripts/**', 'fixtures/**', '*.config.*']},
	{
		files: ['source/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
		languageOptions: {parser: tseslint.parser, parserOptions: {project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname}},
		plugins: {'@typescript-eslint': tseslint.plugin, 'import-x': importX},
		settings: {'import-x/resolver-next': [createTypeScriptImportResolver({project: './tsconfig.test.json'})]},
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/switch-exhaustiveness-check': ['error', {considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false}],
			'import-x/no-cycle': 'error',
		},
	},
	{
		// Each key layer (app, overlays, tree) handles its own subset of the named commands and passes the rest on
		// to the next layer: there, a `default` is the passing on, not a kind that is dropped.
		files: ['source/views/app.tsx', 'source/views/overlays.tsx', 'source/views/tree-view.tsx'],
		rules: {'@typescript-eslint/switch-exhaustiveness-check': ['error', {considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false}]},
	},
);
