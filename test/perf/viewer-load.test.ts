import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {pathToFileURL} from 'node:url';
import {Worker} from 'node:worker_threads';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {withEnv} from '../helpers/env.js';
import {modelSnapshot} from '../helpers/model-snapshot.js';
import {root} from '../helpers/fixture-files.js';
import type {InputPlan} from '../../source/input/inputs.js';
import type {LoadMessage} from '../../source/load/load-worker.js';

/*
 * How the viewer loads a large plain file (source/sources/load-in-worker.ts): a worker, started as the CLI
 * starts, loads it the headless way and posts its model; the viewer takes each model over, and starts again
 * on its own thread should the worker fail. Whatever happens, the viewer must end with the plain path's
 * model. Workers run compiled code, so this drives the built modules (npm test builds).
 */

type Modules = {
	ingest: typeof import('../../source/load/ingest.js');
	inWorker: typeof import('../../source/load/load-in-worker.js');
	early: typeof import('../../source/load/early-load.js');
	plain: typeof import('../../source/input/run-sources.js');
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

const maxLineBytes = 64 * 1024 * 1024;

function newIngest() {
	return new built.ingest.Ingest({maxLineBytes});
}

async function plainSnapshot(path: string): Promise<unknown> {
	const ingest = newIngest();
	expect(await built.plain.runSources(plan(path), ingest).done).toBe(0);
	return modelSnapshot(ingest.model, built.accumulator.TextAccumulator);
}

/** Loads the plan the viewer's way, into a model the views already hold; the snapshot of that same model object. */
async function viewerSnapshot(
	planned: InputPlan,
): Promise<{snapshot: unknown; changes: number; bytesRead: number | undefined; chunksOnViewerThread: number; eventsSeen: number[]}> {
	const ingest = newIngest();
	const model = ingest.model;
	let changes = 0;
	// The count of events the views showed at each change.
	const eventsSeen: number[] = [];
	// Chunks read on this (the viewer's) thread: none while the worker does its job.
	let chunksOnViewerThread = 0;
	const running = built.inWorker.loadInWorker(planned, ingest, {
		onChange() {
			changes++;
			eventsSeen.push(model.events);
		},
		afterChunk: () => void chunksOnViewerThread++,
	});
	expect(running, 'loaded in a worker').toBeDefined();
	expect(await running?.done).toBe(0);
	expect(ingest.model).toBe(model);
	return {snapshot: modelSnapshot(model, built.accumulator.TextAccumulator), changes, bytesRead: running?.states[0]?.bytesRead, chunksOnViewerThread, eventsSeen};
}

beforeAll(async () => {
	built = {
		ingest: await importBuilt('load/ingest.js'),
		inWorker: await importBuilt('load/load-in-worker.js'),
		early: await importBuilt('load/early-load.js'),
		plain: await importBuilt('input/run-sources.js'),
		accumulator: await importBuilt('model/text-accumulator.js'),
	};
	directory = mkdtempSync(join(tmpdir(), 'perscope-viewer-load-'));
	// Over the size from which the viewer loads in a worker (early-load.ts: 8 MB).
	large = join(directory, 'large.ndjson');
	const generated = spawnSync(process.execPath, ['dist/tools/generate-log.js', '--seed', '7', '--jobs', '5', '--steps', '30', '--children', '2', '--deltas', '20', '--message-bytes', '420', '--out', large], {cwd: root, encoding: 'utf8'});
	expect(generated.status, generated.stderr).toBe(0);
	expect(statSync(large).size).toBeGreaterThanOrEqual(built.early.minWorkerLoadBytes);
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe('the viewer’s load of a large file in a worker', () => {
	it('ends with the plain path’s model, in the model object the views hold, and the whole file read', async () => {
		const loaded = await viewerSnapshot(plan(large));
		expect(loaded.snapshot).toStrictEqual(await plainSnapshot(large));
		expect(loaded.bytesRead).toBe(statSync(large).size);
		expect(loaded.changes).toBeGreaterThan(0);
		// The worker did the reading (its code is the build's bundle: a missing one would fail over to this thread).
		expect(loaded.chunksOnViewerThread).toBe(0);
	});

	it('takes over a load the CLI started early for the same plan, with what it posted meanwhile', async () => {
		const planned = plan(large);
		built.early.startEarlyLoad(planned, maxLineBytes);
		// Posts arrive while nobody has taken the load over yet: they must not be lost.
		await new Promise(resolve => setTimeout(resolve, 400));
		expect((await viewerSnapshot(planned)).snapshot).toStrictEqual(await plainSnapshot(large));
		expect(built.early.takeEarlyLoad(planned)).toBeUndefined();
	});

	it('stops a load started early for a plan the viewer did not go on to read', async () => {
		built.early.startEarlyLoad(plan(large), maxLineBytes);
		const other = plan(large);
		expect((await viewerSnapshot(other)).snapshot).toStrictEqual(await plainSnapshot(large));
		expect(built.early.takeEarlyLoad(other)).toBeUndefined();
	});

	it('ends with the plain path’s model when activities and runs came part way and some changed after', async () => {
		// The worker posts the activities and runs that changed after every chunk of 1 MB (load-worker.ts), and
		// the reducer changes some of them after they went: only those go again.
		await withEnv({PERSCOPE_CHUNK_BYTES: String(1000 * 1000), PERSCOPE_CHANGES_INTERVAL_MS: '0'}, async () => {
			const kinds = await new Promise<string[]>((resolve, reject) => {
				const worker = new Worker(built.early.loadWorkerUrl(), {workerData: {plan: plan(large), maxLineBytes}});
				const seen: string[] = [];
				worker.on('error', reject);
				worker.on('message', (message: LoadMessage) => {
					seen.push(message.kind);
					if (message.kind === 'done') void worker.terminate().then(() => resolve(seen));
				});
			});
			expect(kinds.indexOf('changed activities')).toBeGreaterThan(kinds.indexOf('activities'));
			expect(kinds.indexOf('activities')).toBeGreaterThan(-1);
			expect(kinds.filter(kind => kind === 'runs').length, 'runs part way, and the changed ones at the end').toBeGreaterThanOrEqual(2);

			const loaded = await viewerSnapshot(plan(large));
			expect(loaded.snapshot).toStrictEqual(await plainSnapshot(large));
			expect(loaded.chunksOnViewerThread).toBe(0);
			// The count of events moved while the file loaded, before its model came.
			const total = loaded.eventsSeen.at(-1) ?? 0;
			expect(loaded.eventsSeen.filter(events => events > 0 && events < total).length).toBeGreaterThan(2);
		});
	});

	it('starts again on the viewer’s thread when the worker fails part way', async () => {
		await withEnv({PERSCOPE_LOAD_WORKER_FAIL_AFTER: '3', PERSCOPE_CHUNK_BYTES: String(512 * 1024), PERSCOPE_CHANGES_INTERVAL_MS: '0'}, async () => {
			const loaded = await viewerSnapshot(plan(large));
			expect(loaded.snapshot).toStrictEqual(await plainSnapshot(large));
			// The viewer's progress is that of the load that took over.
			expect(loaded.bytesRead).toBe(statSync(large).size);
			expect(loaded.chunksOnViewerThread).toBeGreaterThan(0);
		});
	});

	it('is left to the viewer’s thread for small files', () => {
		expect(built.inWorker.loadInWorker(plan(join(root, 'fixtures/demo.ndjson')), newIngest())).toBeUndefined();
	});
});
