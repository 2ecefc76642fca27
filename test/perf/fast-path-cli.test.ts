import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {LoadTuning} from '../../source/load/tuning.js';
import {builtPerscopeInProcess, type Output} from '../helpers/cli-in-process.js';
import {fixtureFiles, root} from '../helpers/fixture-files.js';
import {hostileMaxLineBytes} from './hostile-log.js';
import {fixturesOfEachKind, writeGeneratedLog, writeHostileLog} from './worker-inputs.js';

/*
 * The summaries the built CLI prints must be byte-identical with and without the fast path, also when
 * workers parse the file (every chunk, or a share of them). The loaders' settings for tests (load/tuning.ts,
 * given to the CLI as `CliContext.tuning`) make that happen; tiny chunks make even the fixtures span many of them. A worker that
 * fails part way is no switch of the CLI: worker-failure.test.ts runs the loader in-process with one.
 * The built CLI runs in this process (its workers are real threads running built code): a spawned CLI only
 * added a Node start to each run, and the built CLI as a process is held to the in-process runs' output by
 * test/output/headless-outputs.ts.
 */

const plainPath = {PERSCOPE_FAST: '0'};

/** The fast path as the product runs it: the fixtures are far too small for workers. */
const fastDefaults: Record<string, LoadTuning> = {'the fast path (defaults)': {}};

const withWorkers: Record<string, LoadTuning> = {
	'workers parsing every chunk': {chunkWorkers: 2, chunkBytes: 1500, mainThreadParses: false},
	'a worker sharing the chunks': {chunkWorkers: 1, chunkBytes: 4000},
};

const everyConfiguration = {...fastDefaults, ...withWorkers};

let directory = '';
let generated = '';
let hostile = '';

async function expectSameEverywhere(args: string[], configurations: Record<string, LoadTuning>): Promise<void> {
	const plain: Output = await builtPerscopeInProcess(args, plainPath);
	expect(plain.code, plain.stderr).toBe(0);
	expect(plain.stdout).not.toBe('');
	for (const [name, tuning] of Object.entries(configurations)) expect(await builtPerscopeInProcess(args, {}, process.env, tuning), name).toEqual(plain);
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
