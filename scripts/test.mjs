// `npm test`: the build (when what it is made from changed), then the lint (Biome's format check, the type check and
// eslint on one TypeScript program, dpdm) and the tests at once, failing if either fails. The tests spend much of
// their time waiting for processes they started (terminals, exits, timeouts), time in which the lint (~50 s of CPU
// on a clean checkout) fits. It runs at a lower priority, so that what the tests time stays what it was.
// Each one's output is kept whole: the tests' as it comes, the lint's once it ends, under its name.
import {spawn} from 'node:child_process';
import {readdirSync, statSync} from 'node:fs';
import {setPriority} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Where NODE_EXTRA_CA_CERTS is set (this project's CI machine sets it for its registry proxy), Node 20 reads and
// parses that file and its own root certificates as every process starts, which takes longer than the rest of a
// bare `node -e 0`. A run of the suite starts some hundreds of Node processes (the CLI under test, tmux's viewers,
// the workers, the lint's tools), and none of them opens a TLS connection (the OTLP tests export over plain HTTP on
// loopback), so they start without it (the figures are in docs/performance.md, "Node's own start").
const env = {...process.env};
delete env.NODE_EXTRA_CA_CERTS;

/** Runs `npm run NAME`; resolves with its exit code, and its output when `collect` (else the output is this process's). */
function run(name, {collect = false, nice = 0} = {}) {
	const started = Date.now();
	const child = spawn(npm, ['run', '--silent', name], {cwd: root, env, stdio: collect ? ['ignore', 'pipe', 'pipe'] : 'inherit'});
	if (nice !== 0) {
		try {
			setPriority(child.pid, nice);
		} catch {
			// Not allowed here: it runs at the same priority, which is only slower.
		}
	}

	let output = '';
	if (collect) {
		child.stdout.setEncoding('utf8').on('data', text => (output += text));
		child.stderr.setEncoding('utf8').on('data', text => (output += text));
	}

	return new Promise(resolve => {
		child.on('error', error => resolve({name, code: 1, output: `${output}${error.message}\n`, seconds: 0}));
		child.on('close', (code, signal) => resolve({name, code: code ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000}));
	});
}

function report({name, code, output, seconds}) {
	const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
	process.stdout.write(`\n── npm run ${name}: ${verdict} in ${seconds.toFixed(0)} s${output.trim() === '' ? '' : '\n'}${output}`);
}

/** When `path` (a file, or a folder and everything in it but tests) last changed; 0 when it is not there. */
function changedAt(path) {
	let stat;
	try {
		stat = statSync(path);
	} catch {
		return 0;
	}

	// A folder's own time moves when a file in it is added, removed or renamed.
	let latest = stat.mtimeMs;
	if (stat.isDirectory()) for (const entry of readdirSync(path)) if (!/\.test\.tsx?$/.test(entry)) latest = Math.max(latest, changedAt(join(path, entry)));
	return latest;
}

// The build is made again only when something it is made from changed since it was last made: a clean clone's
// install has just built it (`prepare`), and a run of the tests after editing only tests needs no build. The
// build's last step writes build/tools/generate-log.js, so that file's time is when the last whole build ended.
const builtAt = changedAt(join(root, 'build', 'tools', 'generate-log.js'));
const madeFrom = ['source', 'tools', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json'].map(path => changedAt(join(root, path)));
const build = builtAt > Math.max(...madeFrom) ? {name: 'build', code: 0, skipped: true} : await run('build');
if (build.skipped) process.stdout.write('npm test: the build is newer than everything it is made from; not built again\n');
if (build.code !== 0) {
	process.stdout.write(`\nnpm test: the build failed (exit ${build.code})\n`);
	process.exit(build.code);
}

// The checks' output is printed as each ends, between the tests' lines; the summary at the end repeats a failure.
// The lint includes the type check (scripts/types-and-lint.mjs: one TypeScript program for both).
const checks = ['lint'].map(name =>
	run(name, {collect: true, nice: 10}).then(result => {
		report(result);
		return result;
	}),
);
const tests = run('test:vitest').then(result => ({...result, name: 'test:vitest'}));
const results = await Promise.all([...checks, tests]);
const failed = results.filter(result => result.code !== 0);
for (const result of failed) if (result.name !== 'test:vitest') report(result);
process.stdout.write(`\nnpm test: ${failed.length === 0 ? 'everything passed' : `failed: ${failed.map(result => result.name).join(', ')}`}\n`);
process.exit(failed.length === 0 ? 0 : 1);
