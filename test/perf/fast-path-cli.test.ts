import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {fixtureFiles, root} from '../helpers/fixture-files.js';
import {hostileLog, hostileMaxLineBytes} from './hostile-log.js';

/*
 * The summaries the built CLI prints must be byte-identical with and without the fast path, also when
 * workers parse the file (every chunk, or a share of them). The environment variables are the fast path's
 * switches for tests and measurements (read by source/cli/environment.ts, passed to
 * source/load/parallel/parallel-file.ts); tiny chunks make even the fixtures span many of them. A worker that
 * fails part way is no switch of the CLI: worker-failure.test.ts runs the loader in-process with one.
 */

const plainPath = {PERSCOPE_FAST: '0'};

const fastConfigurations: Record<string, Record<string, string>> = {
	'the fast path (defaults)': {},
	'workers parsing every chunk': {PERSCOPE_WORKERS: '2', PERSCOPE_CHUNK_BYTES: '1500', PERSCOPE_MAIN_CLAIMS: '0'},
	'a worker sharing the chunks': {PERSCOPE_WORKERS: '1', PERSCOPE_CHUNK_BYTES: '4000'},
};

let directory = '';

function run(args: string[], env: Record<string, string>): {stdout: string; stderr: string; status: number | null} {
	const result = spawnSync(process.execPath, ['dist/cli/main.js', ...args], {
		cwd: root,
		encoding: 'utf8',
		env: {...process.env, ...env},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	return {stdout: result.stdout, stderr: result.stderr, status: result.status};
}

function expectSameEverywhere(args: string[]): void {
	const plain = run(args, plainPath);
	expect(plain.status, plain.stderr).toBe(0);
	for (const [name, env] of Object.entries(fastConfigurations)) expect(run(args, env), name).toEqual(plain);
}

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-fast-cli-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe.each([
	{name: '--summary --json', mode: ['--summary', '--json']},
	{name: '--summary', mode: ['--summary']},
])('$name is the same with and without the fast path', ({mode}) => {
	// Five runs of the CLI over every fixture: slow on a busy machine, so a longer bound than the default.
	it('over every fixture (read together)', {timeout: 120_000}, () => {
		expectSameEverywhere([...mode, ...fixtureFiles().map(path => relative(root, path))]);
	});

	it('over a generated log', () => {
		const path = join(directory, 'generated.ndjson');
		const generated = spawnSync(
			process.execPath,
			[
				'build/tools/generate-log.js',
				'--seed',
				'5',
				'--jobs',
				'3',
				'--steps',
				'8',
				'--children',
				'2',
				'--deltas',
				'10',
				'--message-bytes',
				'400',
				'--out',
				path,
			],
			{cwd: root, encoding: 'utf8'},
		);
		expect(generated.status, generated.stderr).toBe(0);
		expectSameEverywhere([...mode, path]);
	});

	it('over a log made to trip it up', () => {
		const path = join(directory, 'hostile.ndjson');
		writeFileSync(path, hostileLog());
		expectSameEverywhere([...mode, '--max-line-bytes', String(hostileMaxLineBytes), path]);
	});
});
