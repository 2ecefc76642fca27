import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/cli-process.js';

/*
 * What a user installing the package gets besides the code: the type declarations (as their compiler
 * reads them, and in the tarball) and the README's example, run as written.
 */

const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/** The declaration files the consumer's compilation read, relative to the repository. */
function consumerTypeCheck(): {status: number | null; output: string; files: string[]} {
	const result = spawnSync(process.execPath, [tsc, '-p', 'test/api/consumer/tsconfig.json', '--listFiles'], {cwd: repoRoot, encoding: 'utf8'});
	const files = result.stdout
		.split('\n')
		.filter(line => line.startsWith('/') && !line.includes('/node_modules/'))
		.map(line => relative(repoRoot, line));
	return {status: result.status, output: result.stdout + result.stderr, files};
}

describe('the type declarations', () => {
	const check = consumerTypeCheck();

	it('type-check a user’s code through the package name, strictly, with no Node types and the declarations checked too', () => {
		expect(check.output.split('\n').filter(line => line.includes('error TS'))).toEqual([]);
		expect(check.status).toBe(0);
	});

	it('are the built ones in dist/, reached from the exports’ "types"', () => {
		expect(check.files).toContain('dist/api/index.d.ts');
		expect(check.files.filter(file => !file.startsWith('dist/') && file !== 'test/api/consumer/consumer.ts')).toEqual([]);
	});

	it('are all in the package tarball, with what "exports" names', () => {
		const files = packedFiles();
		const manifest: {exports: Record<string, string | Record<string, string>>; types: string} = JSON.parse(
			readFileSync(join(repoRoot, 'package.json'), 'utf8'),
		);
		const targets = [manifest.types, ...Object.values(manifest.exports).flatMap(target => (typeof target === 'string' ? [target] : Object.values(target)))].map(
			target => target.replace(/^\.\//, ''),
		);
		expect(targets).toContain('dist/api/index.js');
		for (const file of [...targets, ...check.files.filter(file => file.startsWith('dist/'))]) expect(files).toContain(file);
	});
});

let packed: string[] | undefined;

/** The paths `npm pack` would put in the tarball (asked once: it takes seconds). */
function packedFiles(): string[] {
	packed ??= pack();
	return packed;
}

function pack(): string[] {
	const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: repoRoot, encoding: 'utf8'});
	expect(packed.status).toBe(0);
	const [pack]: Array<{files: Array<{path: string}>}> = JSON.parse(packed.stdout);
	return pack?.files.map(file => file.path) ?? [];
}

describe('the package tarball', () => {
	it('holds only what this source/ builds: no module a moved or removed source left in dist/ (the build cleans it first)', () => {
		const built = packedFiles().filter(file => file.startsWith('dist/'));
		expect(built).toContain('dist/cli/main.js');
		expect(built).toContain('dist/bin/perscope.js');
		// What the bundle steps write besides tsc's output: the views bundle, and the command's bundle (dist/bin/, made
		// from nothing by each build: its entries and esbuild's chunks, the views' chunk as a script and its code cache).
		const bundle = ['dist/views/show-app.bundle.js', 'dist/views/show-app.bundle.js.map'];
		const binFile =
			/^dist\/bin\/(perscope|load-worker|parse-chunk-worker|conversation-worker|chunk-[A-Z0-9]+|[a-z][a-z.-]*-[A-Z0-9]{8})\.js(\.map)?$|^dist\/bin\/show-app\.bundle-[A-Z0-9]{8}\.(script|cache)$/;
		expect(built.filter(file => file.startsWith('dist/bin/') && !binFile.test(file))).toEqual([]);
		const stale = built.filter(file => {
			if (bundle.includes(file) || file.startsWith('dist/bin/')) return false;
			const module = file.replace(/^dist\//, 'source/').replace(/(\.d\.ts|\.js)(\.map)?$/, '');
			return !existsSync(join(repoRoot, `${module}.ts`)) && !existsSync(join(repoRoot, `${module}.tsx`));
		});
		expect(stale).toEqual([]);
	});
});

describe('the README’s library example', () => {
	const example = readFileSync(join(repoRoot, 'examples/ci-check.mjs'), 'utf8');
	const run = (fixture: string) =>
		spawnSync(process.execPath, ['examples/ci-check.mjs'], {cwd: repoRoot, encoding: 'utf8', input: readFileSync(join(repoRoot, fixture))});

	it('is examples/ci-check.mjs, quoted whole', () => {
		const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
		expect(readme).toContain('```js\n' + example + '```\n');
	});

	it('runs as written: a summary of each job and its runs, exit 0 when every job completed', () => {
		const result = run('fixtures/demo.ndjson');
		expect(result.stderr).toBe('');
		expect(result.stdout).toBe(
			[
				'job nibyyurl65b4kj4hbi6jlvhk: completed, 14 steps, 43599 tokens',
				'  bugfix-lead: stoppedByDelegate',
				'  test-runner: completed',
				'  code-reader: completed',
				'  bugfix-lead: completed',
				'4 commands run, 0 bad lines',
				'',
			].join('\n'),
		);
		expect(result.status).toBe(0);
	});

	it('exits 1 when a job did not complete, and says why', () => {
		const result = run('fixtures/stop-error.ndjson');
		expect(result.stdout).toContain('log-analyst: stoppedByError (AI_APICallError: prompt is too long');
		expect(result.status).toBe(1);
	});
});
