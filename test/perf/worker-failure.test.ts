import {copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {fileInput, type InputPlan} from '../../source/input/inputs.js';
import type {LoadTuning} from '../../source/load/tuning.js';
import {root} from '../helpers/fixture-files.js';
import {modelSnapshot} from '../helpers/model-snapshot.js';
import {hostileMaxLineBytes} from './hostile-log.js';
import {fixturesOfEachKind, writeGeneratedLog, writeHostileLog} from './worker-inputs.js';

/*
 * A chunk worker of the fast path that fails part way: the main thread takes over the chunks it claimed and
 * did not deliver, and the model comes out exactly as the plain path's. The worker is the test's own
 * (test/helpers/failing-chunk-worker.mjs, named in LoadTuning.chunkWorkerModule): the product has no switch
 * that makes its workers fail. Workers run built code, so this drives the built loaders (npm test builds).
 */

type Modules = {
	ingest: typeof import('../../source/load/ingest.js');
	fast: typeof import('../../source/load/run-sources-fast.js');
	plain: typeof import('../../source/input/run-sources.js');
	accumulator: typeof import('../../source/model/text-accumulator.js');
};

let built: Modules;
let directory = '';

async function importBuilt<T>(path: string): Promise<T> {
	return import(pathToFileURL(join(root, 'dist', path)).href);
}

/** One worker, which the main thread leaves every chunk to while it lives, and which fails after two batches. */
const failing: LoadTuning = {
	chunkWorkers: 1,
	chunkBytes: 2500,
	mainThreadParses: false,
	chunkWorkerModule: pathToFileURL(join(root, 'test/helpers/failing-chunk-worker.mjs')).href,
};

function planOf(paths: string[], labels: string[]): InputPlan {
	return {inputs: paths.map((path, index) => fileInput(path, labels[index])), label: labels.join(', '), demo: false, follow: false, jobsRoot: undefined};
}

async function load(plan: InputPlan, fast: boolean, maxLineBytes: number): Promise<{code: number; snapshot: unknown}> {
	const ingest = new built.ingest.Ingest({maxLineBytes});
	const running = fast ? built.fast.runSourcesFast(plan, ingest, {}, {tuning: failing}) : built.plain.runSources(plan, ingest);
	return {code: await running.done, snapshot: modelSnapshot(ingest.model, built.accumulator.TextAccumulator)};
}

async function expectTakenOver(paths: string[], labels: string[], maxLineBytes = 64 * 1024 * 1024): Promise<void> {
	const plan = planOf(paths, labels);
	const plain = await load(plan, false, maxLineBytes);
	const fast = await load(plan, true, maxLineBytes);
	expect(fast.code).toBe(plain.code);
	expect(fast.snapshot).toStrictEqual(plain.snapshot);
	// The test's worker ran, and failed, in at least one of the files.
	expect(paths.some(path => existsSync(`${path}.worker-failed`))).toBe(true);
}

beforeAll(async () => {
	built = {
		ingest: await importBuilt('load/ingest.js'),
		fast: await importBuilt('load/run-sources-fast.js'),
		plain: await importBuilt('input/run-sources.js'),
		accumulator: await importBuilt('model/text-accumulator.js'),
	};
	directory = mkdtempSync(join(tmpdir(), 'perscope-worker-failure-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe('a chunk worker that fails part way', () => {
	// A worker starts for each file: the largest fixture of each folder (worker-inputs.ts).
	it('leaves a fixture of each kind (read together) as the plain path reads it', async () => {
		// Copies: the failing worker leaves its mark beside the file it read.
		const labels = fixturesOfEachKind();
		const paths = labels.map(label => join(directory, label));
		for (const [index, path] of paths.entries()) {
			mkdirSync(dirname(path), {recursive: true});
			copyFileSync(join(root, labels[index]!), path);
		}

		await expectTakenOver(paths, labels);
	});

	it('leaves a generated log as the plain path reads it', async () => {
		const path = join(directory, 'generated.ndjson');
		writeGeneratedLog(path);
		await expectTakenOver([path], ['generated.ndjson']);
	});

	it('leaves a log made to trip it up as the plain path reads it', async () => {
		await expectTakenOver([writeHostileLog(directory)], ['hostile.ndjson'], hostileMaxLineBytes);
	});
});
