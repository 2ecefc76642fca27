import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtPerscopeInProcess, type Output} from '../helpers/cli-in-process.js';
import {fixtureFiles, root} from '../helpers/fixture-files.js';
import {hostileMaxLineBytes} from './hostile-log.js';
import {fixturesOfEachKind, writeGeneratedLog, writeHostileLog} from './worker-inputs.js';

/*
 * The summaries the built CLI prints must be byte-identical with and without the fast path, also when
 * workers parse the file (every chunk, or a share of them). The environment variables are the fast path's
 * switches for tests and measurements (read by source/cli/environment.ts, passed to
 * source/load/parallel/parallel-file.ts); tiny chunks make even the fixtures span many of them. A worker that
 * fails part way is no switch of the CLI: worker-failure.test.ts runs the loader in-process with one.
 * The built CLI runs in this process (its workers are real threads running built code): a spawned CLI only
 * added a Node start to each run, and the built CLI as a process is held to the in-process runs' output by
 * test/output/headless-outputs.ts.
 */

const plainPath = {PERSCOPE_FAST: '0'};

/** The fast path as the product runs it: the fixtures are far too small for workers. */
const fastDefaults: Record<string, Record<string, string>> = {'the fast path (defaults)': {}};

const withWorkers: Record<string, Record<string, string>> = {
	'workers parsing every chunk': {PERSCOPE_WORKERS: '2', PERSCOPE_CHUNK_BYTES: '1500', PERSCOPE_MAIN_CLAIMS: '0'},
	'a worker sharing the chunks': {PERSCOPE_WORKERS: '1', PERSCOPE_CHUNK_BYTES: '4000'},
};

const everyConfiguration = {...fastDefaults, ...withWorkers};

let directory = '';
let generated = '';
let hostile = '';

async function expectSameEverywhere(args: string[], configurations: Record<string, Record<string, string>>): Promise<void> {
	const plain: Output = await builtPerscopeInProcess(args, plainPath);
	expect(plain.code, plain.stderr).toBe(0);
	expect(plain.stdout).not.toBe('');
	for (const [name, env] of Object.entries(configurations)) expect(await builtPerscopeInProcess(args, env), name).toEqual(plain);
}

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-fast-cli-'));
	generated = join(directory, 'generated.ndjson');
	writeGeneratedLog(generated);
	hostile = writeHostileLog(directory);
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe.each([
	{name: '--summary --json', mode: ['--summary', '--json']},
	{name: '--summary', mode: ['--summary']},
])('$name is the same with and without the fast path', ({mode}) => {
	it('over every fixture (read together)', async () => {
		await expectSameEverywhere([...mode, ...fixtureFiles().map(path => relative(root, path))], fastDefaults);
	});

	// A worker starts for each file of a run: workers read the largest fixture of each folder (worker-inputs.ts).
	it('over a fixture of each kind (read together), with workers', async () => {
		await expectSameEverywhere([...mode, ...fixturesOfEachKind()], withWorkers);
	});

	it('over a generated log', async () => {
		await expectSameEverywhere([...mode, generated], everyConfiguration);
	});

	it('over a log made to trip it up', async () => {
		await expectSameEverywhere([...mode, '--max-line-bytes', String(hostileMaxLineBytes), hostile], everyConfiguration);
	});
});
