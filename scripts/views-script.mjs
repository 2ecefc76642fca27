// Runs in `npm run build` from bundle-cli.mjs, on the chunk of dist/bin/ that holds the views bundle (Ink, React and
// the views: ~1 MB). Node 20 keeps no compile cache for ES modules, so V8 parsed and compiled that megabyte at every
// start of the viewer: ~45 ms of the first frame on this machine (docs/performance.md). A classic script can be
// compiled with V8's code cache (`vm.Script`'s `cachedData`), so the chunk is split in two:
//   - NAME.script: the chunk's code as the body of one async function, its `import`s turned into lookups of what
//     the function is given, its `export` into what it returns, `import()` and `import.meta.url` into two more of
//     its arguments. Nothing else in the code changes.
//   - NAME.js (the chunk's own name, so every importer is unchanged): a module that imports what the chunk imported
//     (so each module still has one instance in the process), compiles NAME.script with NAME.cache when there is
//     one, runs it, and exports what it returns.
// NAME.cache is written here, by the built viewer drawing the bundled demo log in a pseudo-terminal, so that it holds
// the code of the first frames as well as of the views' top level (`writeCache`). V8 takes a cache only from its own
// version and flags and otherwise compiles as before (`cachedDataRejected`), so a cache from another Node costs only
// the time to read it.
//
// One difference from the module it replaces: an imported binding is read once, when the script starts, instead
// of at each use (ES modules' live bindings). Every module it imports has been evaluated by then, and a binding
// that is assigned again later would be read stale; `staleBindings` fails the build if any imported binding could be.
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {pathToFileURL} from 'node:url';
import ts from 'typescript';

/** The script function's parameters: names the bundle does not use (checked). */
const requireName = 'perscopeViewsImported$';
const metaUrlName = 'perscopeViewsUrl$';
const importName = 'perscopeViewsImport$';

/**
 * Turns `chunkPath` (an ES module written by esbuild) into NAME.script and a NAME.js that runs it, and writes
 * NAME.cache. `root` is the package's root, for dist/cli/ink-environment.js.
 */
export function splitViewsChunk(chunkPath, root) {
	const source = readFileSync(chunkPath, 'utf8');
	for (const name of [requireName, metaUrlName, importName])
		if (source.includes(name)) throw new Error(`views-script: ${basename(chunkPath)} already uses ${name}`);
	const {script, staticSpecifiers, exported} = toScript(source, basename(chunkPath));
	const chunks = staticSpecifiers.filter(specifier => specifier.startsWith('./'));
	const stale = staleBindings(source, specifier => readFileSync(join(dirname(chunkPath), specifier), 'utf8'));
	if (stale.length > 0) throw new Error(`views-script: imported bindings assigned after their declaration: ${stale.join(', ')}`);

	const name = basename(chunkPath, '.js');
	writeFileSync(join(dirname(chunkPath), `${name}.script`), script);
	writeFileSync(chunkPath, runner(name, chunks, exported));
	// The chunk's source map does not fit the script, whose import lines are gone.
	rmSync(`${chunkPath}.map`, {force: true});
	writeCache(chunkPath, join(dirname(chunkPath), `${name}.cache`), root);
}

/**
 * The module `source` as a function's body: `(async function (imported, url, dynamicImport) {…; return {…}})`,
 * where `imported(specifier)` gives a static import's module, `url` is `import.meta.url` and `dynamicImport` does
 * `import()`. Also the static imports' specifiers, and the names it exports.
 */
export function toScript(source, fileName) {
	const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
	/** Replacements of [start, end) spans of `source`, in any order. */
	const edits = [];
	const staticSpecifiers = [];
	let exported;
	for (const statement of file.statements) {
		if (ts.isImportDeclaration(statement)) {
			const specifier = /** @type {ts.StringLiteral} */ (statement.moduleSpecifier).text;
			if (!specifier.startsWith('./') && !specifier.startsWith('node:'))
				throw new Error(`views-script: the views chunk imports ${specifier}: only chunks and Node's modules are expected`);
			staticSpecifiers.push(specifier);
			edits.push({start: statement.getStart(file), end: statement.end, text: bindingsOf(statement.importClause, specifier)});
		} else if (ts.isExportDeclaration(statement)) {
			if (statement.moduleSpecifier || !statement.exportClause || !ts.isNamedExports(statement.exportClause) || exported)
				throw new Error('views-script: the views chunk has an export other than one `export {…}`');
			exported = statement.exportClause.elements.map(element => ({local: (element.propertyName ?? element.name).text, name: element.name.text}));
			edits.push({start: statement.getStart(file), end: statement.end, text: ''});
		} else if (statement.modifiers?.some(modifier => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
			throw new Error('views-script: the views chunk exports a declaration; esbuild wrote `export {…}` until now');
		}
	}

	if (!exported) throw new Error('views-script: the views chunk exports nothing');
	const visit = node => {
		if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
			edits.push({start: node.expression.getStart(file), end: node.expression.end, text: importName});
		} else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
			const parent = node.parent;
			if (!ts.isPropertyAccessExpression(parent) || parent.name.text !== 'url')
				throw new Error('views-script: the views chunk uses import.meta other than import.meta.url');
			edits.push({start: parent.getStart(file), end: parent.end, text: metaUrlName});
		}

		ts.forEachChild(node, visit);
	};

	ts.forEachChild(file, visit);
	let body = source;
	for (const edit of edits.sort((a, b) => b.start - a.start)) body = body.slice(0, edit.start) + edit.text + body.slice(edit.end);
	body = body.replace(/^\/\/# sourceMappingURL=.*$/m, '');
	const returned = exported.map(({local, name}) => (local === name ? name : `${name}: ${local}`)).join(', ');
	// "use strict": a module's code is strict, a script's is not unless it says so.
	const script = `(async function (${requireName}, ${metaUrlName}, ${importName}) {"use strict";${body}\nreturn {${returned}};\n})\n`;
	return {script, staticSpecifiers, exported: exported.map(({name}) => name)};
}

/** `import … from "x"` as declarations of the same names, read from `perscopeViewsImported$("x")`. */
function bindingsOf(clause, specifier) {
	const from = `${requireName}(${JSON.stringify(specifier)})`;
	if (!clause) return `${from};`;
	const declarations = [];
	if (clause.name) declarations.push(`const ${clause.name.text} = ${specifier.startsWith('node:') ? from : `${from}.default`};`);
	const bindings = clause.namedBindings;
	if (bindings && ts.isNamespaceImport(bindings)) declarations.push(`const ${bindings.name.text} = ${from};`);
	if (bindings && ts.isNamedImports(bindings)) {
		const names = bindings.elements.map(element => (element.propertyName ? `${element.propertyName.text}: ${element.name.text}` : element.name.text));
		declarations.push(`const {${names.join(', ')}} = ${from};`);
	}

	return declarations.join(' ');
}

/**
 * The imported bindings (chunk and name) that their own chunk assigns anywhere but in their declaration. An
 * assignment to a local of the same name in some function counts too: the check errs towards failing the build.
 */
export function staleBindings(source, readChunk) {
	const file = ts.createSourceFile('views.js', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
	const stale = [];
	for (const statement of file.statements) {
		if (!ts.isImportDeclaration(statement)) continue;
		const specifier = /** @type {ts.StringLiteral} */ (statement.moduleSpecifier).text;
		const clause = statement.importClause;
		const bindings = clause?.namedBindings;
		// Whole namespaces stay live; a default import and named ones are read once.
		const names = [
			...(clause?.name ? ['default'] : []),
			...(bindings && ts.isNamedImports(bindings) ? bindings.elements.map(element => (element.propertyName ?? element.name).text) : []),
		];
		if (!specifier.startsWith('./') || names.length === 0) continue;
		const chunk = ts.createSourceFile(specifier, readChunk(specifier), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
		const locals = exportedLocals(chunk);
		const assigned = assignedNames(chunk);
		for (const name of names) {
			const local = locals.get(name);
			if (local === undefined) throw new Error(`views-script: ${specifier} does not export ${name}`);
			if (assigned.has(local)) stale.push(`${specifier} ${local}`);
		}
	}

	return stale;
}

/** A chunk's `export {local as name}`: name → local. */
function exportedLocals(chunk) {
	const locals = new Map();
	for (const statement of chunk.statements)
		if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause))
			for (const element of statement.exportClause.elements) locals.set(element.name.text, (element.propertyName ?? element.name).text);
	return locals;
}

/** Every name that `=` (destructuring too), a compound assignment, `++` or `--` assigns anywhere in `chunk`. */
function assignedNames(chunk) {
	const names = new Set();
	const targets = node => {
		if (ts.isIdentifier(node)) names.add(node.text);
		else if (ts.isArrayLiteralExpression(node) || ts.isObjectLiteralExpression(node) || ts.isSpreadElement(node) || ts.isSpreadAssignment(node))
			ts.forEachChild(node, targets);
		else if (ts.isPropertyAssignment(node)) targets(node.initializer);
		else if (ts.isShorthandPropertyAssignment(node)) names.add(node.name.text);
		else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) targets(node.left);
	};
	const visit = node => {
		if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) targets(node.left);
		else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && ts.isIdentifier(node.operand)) {
			if (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) names.add(node.operand.text);
		}
		ts.forEachChild(node, visit);
	};

	ts.forEachChild(chunk, visit);
	return names;
}

const isAssignment = kind => kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;

/** NAME.js: imports what the chunk imported, runs NAME.script with its cache, exports what it returns. */
function runner(name, chunks, exported) {
	const imports = chunks.map((specifier, index) => `import * as chunk${index} from ${JSON.stringify(specifier)};`);
	const table = chunks.map((specifier, index) => `[${JSON.stringify(specifier)}, chunk${index}]`);
	return `// Written by scripts/views-script.mjs: the views bundle's code is in ${name}.script, compiled with the code cache in
// ${name}.cache when V8 takes it.
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';
import {Script} from 'node:vm';
${imports.join('\n')}

const chunks = new Map([${table.join(', ')}]);
const require = createRequire(import.meta.url);
const path = fileURLToPath(new URL(${JSON.stringify(`${name}.script`)}, import.meta.url));
let cachedData;
try {
	cachedData = readFileSync(new URL(${JSON.stringify(`${name}.cache`)}, import.meta.url));
} catch {
	// No cache (it is written after this module, by the build): V8 compiles the script as it would a module.
}

/** The compiled views; the build writes its cache from this (scripts/views-script.mjs). */
export const viewsScript = new Script(readFileSync(path, 'utf8'), {filename: path, cachedData});
const views = await viewsScript.runInThisContext()(
	specifier => chunks.get(specifier) ?? require(specifier),
	import.meta.url,
	specifier => import(specifier),
);
export const {${exported.join(', ')}} = views;
`;
}

/**
 * Writes NAME.cache (`cachePath`): the code V8 compiled for the views while a viewer drew its first frames
 * (`drawnCache`), or, where no viewer can be drawn here, while the views' top level ran (`topLevelCache`). V8
 * compiles most functions only when first called, and a cache holds only what was compiled: one made once the views
 * were set up left out React's rendering, Ink's layout and output and the views' components, which every start then
 * compiled as it drew its first frame (docs/performance.md). Says which it wrote, and `warn`s why when it could not
 * draw. `env` is the environment the build runs in (tests take `script` off its PATH).
 */
export function writeCache(chunkPath, cachePath, root, env = process.env, warn = text => process.stderr.write(`${text}\n`)) {
	// Without NODE_OPTIONS: V8 takes a cache only under the flags it was made with, and a plain start has none.
	const childEnv = {...env};
	delete childEnv.NODE_OPTIONS;
	rmSync(cachePath, {force: true});
	const notDrawn = drawnCache(chunkPath, cachePath, root, childEnv);
	if (notDrawn === undefined) return 'drawn';
	warn(`views-script: the views' code cache holds their top level only: ${notDrawn}`);
	topLevelCache(chunkPath, cachePath, root, childEnv);
	return 'top level';
}

/**
 * Starts the built viewer on the bundled demo log in a pseudo-terminal (util-linux's `script`), where
 * views-cache-preload.mjs writes the cache once the viewer has drawn and gone quiet. Undefined when the cache was
 * written, else why not (no `script` here; macOS's takes other arguments).
 */
function drawnCache(chunkPath, cachePath, root, env) {
	// `script` runs a shell command line: the paths go in the environment, so that none needs quoting in it.
	const command =
		'stty cols 120 rows 40 2>/dev/null; exec "$PERSCOPE_BUILD_NODE" --import "$PERSCOPE_BUILD_PRELOAD" "$PERSCOPE_BUILD_CLI" "$PERSCOPE_BUILD_LOG"';
	const result = spawnSync('script', ['-qfec', command, '/dev/null'], {
		cwd: root,
		env: {
			...env,
			PERSCOPE_BUILD_NODE: process.execPath,
			PERSCOPE_BUILD_PRELOAD: new URL('views-cache-preload.mjs', import.meta.url).href,
			PERSCOPE_BUILD_CLI: join(root, 'dist', 'bin', 'perscope.js'),
			PERSCOPE_BUILD_LOG: join(root, 'fixtures', 'demo.ndjson'),
			PERSCOPE_BUILD_VIEWS: pathToFileURL(chunkPath).href,
			PERSCOPE_BUILD_VIEWS_CACHE: cachePath,
		},
		stdio: ['ignore', 'ignore', 'pipe'],
		timeout: 60_000,
	});
	if (result.error) return `running the viewer in \`script\` failed: ${result.error.message}`;
	if (result.status !== 0 || !existsSync(cachePath)) {
		const said = result.stderr.toString().trim().split('\n').at(-1);
		return `the viewer in \`script\` ended with ${result.status ?? result.signal} and wrote no cache${said ? `: ${said}` : ''}`;
	}

	return undefined;
}

/**
 * Loads the views in a Node process of their own, with the environment the CLI gives them, and writes the code V8
 * compiled for the script while it ran (its top level: Ink, React and the views' modules set up).
 */
function topLevelCache(chunkPath, cachePath, root, env) {
	const environment = pathToFileURL(join(root, 'dist', 'cli', 'ink-environment.js')).href;
	const code = `
		const {prepareInkEnvironment} = await import(${JSON.stringify(environment)});
		prepareInkEnvironment();
		const {viewsScript} = await import(${JSON.stringify(pathToFileURL(chunkPath).href)});
		const {writeFileSync} = await import('node:fs');
		writeFileSync(${JSON.stringify(cachePath)}, viewsScript.createCachedData());
	`;
	const result = spawnSync(process.execPath, ['--input-type=module', '--eval', code], {env, stdio: ['ignore', 'inherit', 'inherit']});
	if (result.status !== 0) throw new Error(`views-script: writing the code cache failed (exit ${result.status ?? result.signal})`);
}
