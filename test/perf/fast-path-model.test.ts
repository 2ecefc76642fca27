import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {Ingest} from '../../source/load/ingest.js';
import type {Model} from '../../source/model/state.js';
import {fileInput, type InputPlan} from '../../source/input/inputs.js';
import {runSourcesFast} from '../../source/load/run-sources-fast.js';
import {runSources} from '../../source/input/run-sources.js';
import {modelSnapshot} from '../helpers/model-snapshot.js';
import {fixtureFiles, root} from '../helpers/fixture-files.js';
import {hostileLog, hostileMaxLineBytes} from './hostile-log.js';
import {expectSame} from '../helpers/expect-same.js';

/*
 * The fast path (source/sources/parallel-file.ts) must build exactly the model the plain path builds: the
 * same jobs, runs, activities, streams, diagnostics, line numbers and offsets. Here both run in-process on
 * the main thread (workers are exercised through the built CLI in fast-path-cli.test.ts), with the file cut
 * into chunks of several sizes so lines meet chunk boundaries everywhere.
 */

let directory = '';

function plan(path: string): InputPlan {
	return {inputs: [fileInput(path, relative(root, path))], label: path, demo: false, follow: false, jobsRoot: undefined};
}

/** `planned`: the plan, made before the file went (else made now). */
async function load(
	path: string,
	options: {fast: boolean; maxLineBytes?: number; chunkBytes?: number; planned?: InputPlan},
): Promise<{model: Model; code: number}> {
	const ingest = new Ingest({maxLineBytes: options.maxLineBytes ?? 64 * 1024 * 1024});
	const tuning = {chunkWorkers: 0, chunkBytes: options.chunkBytes};
	const planned = options.planned ?? plan(path);
	const code = await (options.fast ? runSourcesFast(planned, ingest, {}, {tuning}) : runSources(planned, ingest)).done;
	return {model: ingest.model, code};
}

async function expectSameModel(path: string, maxLineBytes?: number): Promise<void> {
	const plain = await load(path, {fast: false, maxLineBytes});
	for (const chunkBytes of [undefined, 1, 777, 65536]) {
		const fast = await load(path, {fast: true, maxLineBytes, chunkBytes});
		expect(fast.code).toBe(plain.code);
		expectSame(modelSnapshot(fast.model), modelSnapshot(plain.model));
	}
}

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-fast-model-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe('the fast path builds the same model as the plain path', () => {
	it.each(fixtureFiles().map(path => relative(root, path)))('%s', async fixture => {
		await expectSameModel(join(root, fixture));
	});

	it('a generated log', async () => {
		const path = join(directory, 'generated.ndjson');
		const generated = spawnSync(
			process.execPath,
			[
				'build/tools/generate-log.js',
				'--seed',
				'3',
				'--jobs',
				'2',
				'--steps',
				'9',
				'--children',
				'2',
				'--deltas',
				'12',
				'--message-bytes',
				'300',
				'--out',
				path,
			],
			{cwd: root, encoding: 'utf8'},
		);
		expect(generated.status, generated.stderr).toBe(0);
		await expectSameModel(path);
	});

	it('a log made to trip it up (and one of its lines over --max-line-bytes)', async () => {
		const path = join(directory, 'hostile.ndjson');
		writeFileSync(path, hostileLog());
		await expectSameModel(path, hostileMaxLineBytes);
		const {model} = await load(path, {fast: true, maxLineBytes: hostileMaxLineBytes});
		// The log does what it claims: bad lines, an overlong one, and pruned and streamed ones.
		expect(model.diagnostics.some(diagnostic => diagnostic.reason.startsWith('not JSON'))).toBe(true);
		expect(model.diagnostics.some(diagnostic => diagnostic.reason.includes('--max-line-bytes'))).toBe(true);
		expect(model.runs.get('hostilerun00000000000000')?.query).toMatch(/^The real query/);
	});

	it('stopped part way (with the next piece being read), it ends cleanly with what it read', async () => {
		const path = join(root, 'fixtures/demo.ndjson');
		const whole = await load(path, {fast: true});
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
		const running = runSourcesFast(
			plan(path),
			ingest,
			{
				afterChunk: async () => {
					running.stop();
				},
			},
			{tuning: {chunkWorkers: 0, chunkBytes: 2000}},
		);
		expect(await running.done).toBe(0);
		expect(ingest.model.events).toBeGreaterThan(0);
		expect(ingest.model.events).toBeLessThan(whole.model.events);
		expect(ingest.model.diagnostics).toEqual([]);
	});

	it('a file gone since the plan was made fails the same way', async () => {
		const path = join(directory, 'missing.ndjson');
		writeFileSync(path, '{}\n');
		const planned = plan(path);
		rmSync(path);
		const plain = await load(path, {fast: false, planned});
		const fast = await load(path, {fast: true, planned});
		expect(fast.code).toBe(plain.code);
		expectSame(modelSnapshot(fast.model), modelSnapshot(plain.model));
	});
});
