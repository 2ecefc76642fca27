import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {pathToFileURL} from 'node:url';
import {gzipSync} from 'node:zlib';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {withEnv} from '../helpers/env.js';
import {modelSnapshot} from '../helpers/model-snapshot.js';
import {fixtureFiles, root} from '../helpers/fixture-files.js';
import type {InputPlan} from '../../source/sources/inputs.js';

/*
 * How the viewer loads a plain file (source/views/run-app.ts): a worker, started as the CLI starts, parses
 * from the first chunk while Ink loads; the main thread stays off the chunks until the first frame is drawn
 * and, while the worker lives, only reduces what it delivers. Whatever the order of that work, the model
 * must be the plain path's. Workers run compiled code, so this drives the built modules (npm test builds).
 */

type Modules = {
	ingest: typeof import('../../source/ingest.js');
	parallel: typeof import('../../source/sources/parallel-file.js');
	plain: typeof import('../../source/sources/run-sources.js');
	spare: typeof import('../../source/sources/spare-worker.js');
	accumulator: typeof import('../../source/model/text-accumulator.js');
};

let built: Modules;
let directory = '';
let large = '';

async function importBuilt<T>(path: string): Promise<T> {
	return import(pathToFileURL(join(root, 'dist', path)).href);
}

function plan(path: string): InputPlan {
	return {inputs: [{kind: 'file', path, label: relative(root, path)}], label: path, demo: false, follow: false, jobsRoot: undefined};
}

function newIngest() {
	return new built.ingest.Ingest({maxLineBytes: 64 * 1024 * 1024});
}

async function plainSnapshot(path: string): Promise<unknown> {
	const ingest = newIngest();
	expect(await built.plain.runSources(plan(path), ingest).done).toBe(0);
	return modelSnapshot(ingest.model, built.accumulator.TextAccumulator);
}

/**
 * Loads `path` the viewer's way. The first frame is drawn `firstFrameMs` after the load starts, whatever the
 * load has done by then, as Ink's loading is.
 */
async function viewerSnapshot(path: string, firstFrameMs = 30): Promise<unknown> {
	const ingest = newIngest();
	const drawn = new Promise<void>(resolve => setTimeout(resolve, firstFrameMs));
	const running = built.parallel.runSourcesFast(plan(path), ingest, {}, {mainThreadFrom: drawn, leaveToWorkers: true});
	expect(await running.done).toBe(0);
	return modelSnapshot(ingest.model, built.accumulator.TextAccumulator);
}

beforeAll(async () => {
	built = {
		ingest: await importBuilt('ingest.js'),
		parallel: await importBuilt('sources/parallel-file.js'),
		plain: await importBuilt('sources/run-sources.js'),
		spare: await importBuilt('sources/spare-worker.js'),
		accumulator: await importBuilt('model/text-accumulator.js'),
	};
	directory = mkdtempSync(join(tmpdir(), 'perscope-viewer-load-'));
	// Over the size from which the viewer has a worker parse (spare-worker.ts: 8 MB).
	large = join(directory, 'large.ndjson');
	const generated = spawnSync(process.execPath, ['dist/tools/generate-log.js', '--seed', '7', '--jobs', '5', '--steps', '30', '--children', '2', '--deltas', '20', '--message-bytes', '420', '--out', large], {cwd: root, encoding: 'utf8'});
	expect(generated.status, generated.stderr).toBe(0);
	expect(statSync(large).size).toBeGreaterThanOrEqual(built.spare.minBusyMainBytes);
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe('the viewer’s load builds the plain path’s model', () => {
	it('with a worker parsing every chunk, over every fixture in small chunks', async () => {
		await withEnv({PERSCOPE_WORKERS: '1', PERSCOPE_CHUNK_BYTES: '1500'}, async () => {
			for (const path of fixtureFiles()) expect(await viewerSnapshot(path), relative(root, path)).toStrictEqual(await plainSnapshot(path));
		});
	});

	it('with a worker chosen by size, over a large generated log', async () => {
		expect(await viewerSnapshot(large)).toStrictEqual(await plainSnapshot(large));
	});

	it('with a worker that fails part way, while the main thread is still held', async () => {
		await withEnv({PERSCOPE_WORKERS: '1', PERSCOPE_CHUNK_BYTES: '2500', PERSCOPE_WORKER_FAIL_AFTER: '2'}, async () => {
			const path = join(root, 'fixtures/demo.ndjson');
			expect(await viewerSnapshot(path, 300)).toStrictEqual(await plainSnapshot(path));
		});
	});

	it('with the worker started before the load, which the load then takes', async () => {
		built.spare.prestartParseWorker(plan(large));
		expect(await viewerSnapshot(large)).toStrictEqual(await plainSnapshot(large));
		// Taken by the load, not left running beside it.
		expect(built.spare.takeSpareWorker()).toBeUndefined();
	});
});

describe('the viewer’s load keeps the main thread free for the first frame', () => {
	it('with no worker to parse, reads nothing until the first frame is drawn, then everything', async () => {
		await withEnv({PERSCOPE_WORKERS: '0'}, async () => {
			const path = join(root, 'fixtures/demo.ndjson');
			const ingest = newIngest();
			let drawFirstFrame = () => {};
			const drawn = new Promise<void>(resolve => (drawFirstFrame = resolve));
			const running = built.parallel.runSourcesFast(plan(path), ingest, {}, {mainThreadFrom: drawn, leaveToWorkers: true});
			await new Promise(resolve => setTimeout(resolve, 100));
			expect(ingest.model.events).toBe(0);
			expect(running.states[0]?.bytesRead).toBe(0);
			drawFirstFrame();
			expect(await running.done).toBe(0);
			expect(modelSnapshot(ingest.model, built.accumulator.TextAccumulator)).toStrictEqual(await plainSnapshot(path));
		});
	});

	it('a worker started for a file the load cannot read the fast way is ended, not kept', async () => {
		built.spare.prestartParseWorker(plan(large));
		const compressed = join(directory, 'log.gz');
		writeFileSync(compressed, gzipSync(readFileSync(join(root, 'fixtures/demo.ndjson'))));
		const ingest = newIngest();
		expect(await built.parallel.runSourcesFast(plan(compressed), ingest).done).toBe(0);
		expect(ingest.model.events).toBeGreaterThan(0);
		expect(built.spare.takeSpareWorker()).toBeUndefined();
	});
});
