import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {pathToFileURL} from 'node:url';
import {MessageChannel, receiveMessageOnPort, Worker} from 'node:worker_threads';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {modelSnapshot} from '../helpers/model-snapshot.js';
import {root} from '../helpers/fixture-files.js';
import {fileInput, type InputPlan} from '../../source/input/inputs.js';
import type {Model} from '../../source/model/state.js';
import type {LoadWorkerMessage} from '../../source/load/protocol.js';
import {reducerIndexes} from '../../source/load/viewer/model-changes.js';
import type {LoadTuning} from '../../source/load/tuning.js';
import type {Loading} from '../../source/load/loader.js';
import {expectSame} from '../helpers/expect-same.js';
import {manualScheduler} from '../helpers/manual-scheduler.js';

/*
 * How the viewer loads (source/load/start-load.ts): a large plain file in a worker, which loads it the
 * headless way and posts its model, each replacing the one the views draw; should the worker fail, the viewer
 * starts again on its own thread; a small file on the viewer's own thread. Whatever happens, the viewer must
 * end with the plain path's model, and no model it was handed may change its revision afterwards (the count
 * of events read moves in place, with the progress). Workers run compiled
 * code, so this drives the built modules (npm test builds).
 */

type Modules = {
	ingest: typeof import('../../source/load/ingest.js');
	inWorker: typeof import('../../source/load/viewer/load-in-worker.js');
	start: typeof import('../../source/load/start-load.js');
	plain: typeof import('../../source/input/run-sources.js');
	accumulator: typeof import('../../source/model/text-accumulator.js');
	sourceState: typeof import('../../source/input/source-state.js');
};

let built: Modules;
let directory = '';
let large = '';

async function importBuilt<T>(path: string): Promise<T> {
	return import(pathToFileURL(join(root, 'dist', path)).href);
}

function plan(path: string): InputPlan {
	return {inputs: [fileInput(path, relative(root, path))], label: path, demo: false, follow: false, jobsRoot: undefined};
}

const maxLineBytes = 64 * 1024 * 1024;

/** The reducer's own indexes stay in a load worker (load/model-changes.ts): the viewer's model is compared without them. */
function snapshot(model: Model): unknown {
	const copy: Model = {...model};
	for (const key of reducerIndexes) Object.assign(copy, {[key]: undefined});
	return modelSnapshot(copy, built.accumulator.TextAccumulator);
}

/**
 * Loads the large file in a worker for a viewer slower than the worker: its turns run only as this says, one piece
 * of a post at a time, while the worker's progress keeps coming (what changed posted every 30 ms, the progress
 * after every other chunk). Resolves once the load is done, with its exit code.
 */
async function loadOnSlowViewer(hooks: {onModel?: (model: Model) => void; onChange: (loading: Loading) => void}) {
	const viewer = manualScheduler({tick: 1000});
	const loading: Loading = await built.start.startLoad(plan(large), {
		maxLineBytes,
		scheduler: viewer,
		tuning: {chunkBytes: 128 * 1024, progressIntervalMs: 0, changesIntervalMs: 30},
		...(hooks.onModel ? {onModel: hooks.onModel} : {}),
		hooks: {onChange: () => hooks.onChange(loading)},
	});
	let ended = false;
	const done = loading.done.then(code => {
		ended = true;
		return code;
	});
	while (!ended) {
		await new Promise(resolve => setTimeout(resolve, 5));
		viewer.runOne();
	}

	return {loading, code: await done};
}

const plainSnapshots = new Map<string, Promise<unknown>>();

/** The plain path's model of `path`, as a snapshot: made once for each file (none is written after it is made). */
function plainSnapshot(path: string): Promise<unknown> {
	let made = plainSnapshots.get(path);
	if (made === undefined) {
		made = (async () => {
			const ingest = new built.ingest.Ingest({maxLineBytes});
			expect(await built.plain.runSources(plan(path), ingest).done).toBe(0);
			return snapshot(ingest.model);
		})();
		plainSnapshots.set(path, made);
	}

	return made;
}

/** Loads the plan the viewer's way; the snapshot of the model it ends with, and what the views were shown on the way. */
async function viewerLoad(planned: InputPlan, tuning: LoadTuning = {}) {
	// Each model the views were handed, with its snapshot then, and the count of events they showed at each change.
	const handed: Array<{model: Model; rev: number}> = [];
	const eventsSeen: number[] = [];
	// Chunks read on this (the viewer's) thread: none while the worker does its job.
	let chunksOnViewerThread = 0;
	const loading = await built.start.startLoad(planned, {
		maxLineBytes,
		tuning,
		onModel: model => handed.push({model, rev: model.rev}),
		hooks: {
			onChange() {
				eventsSeen.push(loading.model.events);
			},
			afterChunk: () => void chunksOnViewerThread++,
		},
	});
	expect(await loading.done).toBe(0);
	expect(handed.at(-1)?.model, 'the last model handed to the views is the load’s').toBe(loading.model);
	// Replaced, never given a new revision behind the views’ backs: each model handed over before the last (which a
	// load on this thread goes on changing) keeps the rev it came with.
	for (const {model, rev} of handed.slice(0, -1)) expect(model.rev).toBe(rev);
	return {snapshot: snapshot(loading.model), models: handed.length, bytesRead: loading.states[0]?.bytesRead, chunksOnViewerThread, eventsSeen};
}

beforeAll(async () => {
	built = {
		ingest: await importBuilt('load/ingest.js'),
		inWorker: await importBuilt('load/viewer/load-in-worker.js'),
		start: await importBuilt('load/start-load.js'),
		plain: await importBuilt('input/run-sources.js'),
		accumulator: await importBuilt('model/text-accumulator.js'),
		sourceState: await importBuilt('input/source-state.js'),
	};
	directory = mkdtempSync(join(tmpdir(), 'perscope-viewer-load-'));
	// Over the size from which the viewer loads in a worker (load-in-worker.ts: 8 MB).
	large = join(directory, 'large.ndjson');
	const generated = spawnSync(
		process.execPath,
		[
			'build/tools/generate-log.js',
			'--seed',
			'7',
			'--jobs',
			'5',
			'--steps',
			'30',
			'--children',
			'2',
			'--deltas',
			'20',
			'--message-bytes',
			'420',
			'--out',
			large,
		],
		{cwd: root, encoding: 'utf8'},
	);
	expect(generated.status, generated.stderr).toBe(0);
	expect(statSync(large).size).toBeGreaterThanOrEqual(built.inWorker.minWorkerLoadBytes);
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

describe('the viewer’s load of a large file in a worker', () => {
	it('ends with the plain path’s model, handed to the views, and the whole file read', async () => {
		expect(built.inWorker.worthAWorker(plan(large))).toBe(true);
		const loaded = await viewerLoad(plan(large));
		expectSame(loaded.snapshot, await plainSnapshot(large));
		expect(loaded.bytesRead).toBe(statSync(large).size);
		// The worker did the reading (a worker that cannot start would fail over to this thread).
		expect(loaded.chunksOnViewerThread).toBe(0);
	});

	it('posts its progress while it reads, and its changes at the end, in pieces on a port of their own', async () => {
		const tuning: LoadTuning = {chunkBytes: 1000 * 1000, progressIntervalMs: 0};
		const {port1, port2} = new MessageChannel();
		const {kinds, announced} = await new Promise<{kinds: string[]; announced: number}>((resolve, reject) => {
			const worker = new Worker(join(root, 'dist/load/viewer/load-worker.js'), {
				workerData: {plan: plan(large), maxLineBytes, tuning, changes: port2},
				transferList: [port2],
			});
			const seen: string[] = [];
			let pieces = 0;
			worker.on('error', reject);
			worker.on('message', (message: LoadWorkerMessage) => {
				seen.push(message.kind);
				if (message.kind === 'changes' || message.kind === 'done') pieces += message.pieces;
				if (message.kind === 'done') void worker.terminate().then(() => resolve({kinds: seen, announced: pieces}));
			});
		});
		expect(kinds.filter(kind => kind === 'progress').length).toBeGreaterThan(2);
		expect(kinds.at(-1)).toBe('done');
		// Every piece announced is there to be taken, the last of them marked so.
		const pieces: unknown[] = [];
		for (let received = receiveMessageOnPort(port1); received; received = receiveMessageOnPort(port1)) pieces.push(received.message);
		port1.close();
		expect(pieces.length).toBe(announced);
		expect(pieces.map(piece => typeof piece === 'object' && piece !== null && 'last' in piece && piece.last).at(-1)).toBe(true);

		const loaded = await viewerLoad(plan(large), tuning);
		expectSame(loaded.snapshot, await plainSnapshot(large));
		expect(loaded.chunksOnViewerThread).toBe(0);
		// The count of events moved while the file loaded, before its model came.
		const total = loaded.eventsSeen.at(-1) ?? 0;
		expect(loaded.eventsSeen.filter(events => events > 0 && events < total).length).toBeGreaterThan(2);
	});

	it('regression: starts no worker and reads nothing until the viewer’s first frame is drawn (mainThreadFrom), then loads the whole file (the worker’s start took the CPU of the first frame)', async () => {
		let drawFirstFrame = () => {};
		const drawn = new Promise<void>(resolve => (drawFirstFrame = resolve));
		let changes = 0;
		// Each thread of a process gets the next id: a worker of the load started meanwhile would take one.
		const threadIdNow = async () => {
			const probe = new Worker('', {eval: true});
			const id = probe.threadId;
			await new Promise(resolve => probe.once('exit', resolve));
			return id;
		};

		const before = await threadIdNow();
		const loading = await built.start.startLoad(plan(large), {
			maxLineBytes,
			tuning: {progressIntervalMs: 0},
			mainThreadFrom: drawn,
			hooks: {onChange: () => void changes++},
		});
		// Nothing to wait for on screen here: the worker is given the time it takes to start and read a few chunks.
		await new Promise(resolve => setTimeout(resolve, 400));
		expect([changes, loading.states[0]?.bytesRead ?? 0]).toEqual([0, 0]);
		expect(await threadIdNow()).toBe(before + 1);
		drawFirstFrame();
		expect(await loading.done).toBe(0);
		expectSame(snapshot(loading.model), await plainSnapshot(large));
		expect(changes).toBeGreaterThan(0);
	});

	it('regression: the sources said `ended` while the worker’s last pieces were still to go into the model (a search typed on seeing it ended without the log’s last match, and the selection never went to it)', async () => {
		// Each time the views are told of a change: whether the source has ended, and the model they then have.
		let handed: Model | undefined;
		const ended: Model[] = [];
		const loading = await built.start.startLoad(plan(large), {
			maxLineBytes,
			tuning: {progressIntervalMs: 0},
			onModel(model) {
				handed = model;
			},
			hooks: {
				onChange() {
					if (loading.states.every(state => !state.live)) ended.push(handed!);
				},
			},
		});
		expect(await loading.done).toBe(0);
		expect(ended.length).toBeGreaterThan(0);
		// The worker's last message says the source ended before its pieces go in, on turns of their own.
		for (const model of ended) expect(model).toBe(loading.model);
	});

	it('regression: the header said `live` (not `loading`) while the file was read whole and the worker’s last pieces were still going into the model', async () => {
		const seen: Array<{model: Model; loading: boolean; live: boolean; note: string}> = [];
		let handed: Model | undefined;
		const {loading, code} = await loadOnSlowViewer({
			onModel(model) {
				handed = model;
			},
			onChange(loading) {
				const state = loading.states[0]!;
				seen.push({
					model: handed!,
					loading: built.sourceState.isLoading(state),
					live: state.live,
					note: `${state.bytesRead}/${state.bytesTotal} live=${state.live} f=${state.following} events=${handed?.events}`,
				});
			},
		});
		expect(code).toBe(0);
		const whole = loading.model;
		// Before the model is whole the views are told the file loads; once it is, that it ended.
		const notWhole = seen.filter(change => change.model !== whole);
		expect(notWhole.length).toBeGreaterThan(10);
		expect(notWhole.filter(change => !change.loading).map(change => change.note)).toEqual([]);
		expect(seen.at(-1)).toMatchObject({model: whole, loading: false, live: false});
	});

	it('regression: the count of events went back (57k after 94k, and the rate below zero) when a post went in behind the progress', async () => {
		const counts: number[] = [];
		const {code} = await loadOnSlowViewer({onChange: loading => void counts.push(loading.model.events)});
		expect(code).toBe(0);
		expect(counts.length).toBeGreaterThan(10);
		const back = counts.findIndex((count, index) => index > 0 && count < counts[index - 1]!);
		expect(back, `the count went back: ${counts.join(', ')}`).toBe(-1);
	});

	it('starts again on the viewer’s thread when the worker fails part way', async () => {
		const failing = pathToFileURL(join(root, 'test/helpers/failing-load-worker.mjs')).href;
		const loaded = await viewerLoad(plan(large), {loadWorkerModule: failing, chunkBytes: 512 * 1024, progressIntervalMs: 0});
		expectSame(loaded.snapshot, await plainSnapshot(large));
		// The viewer's progress is that of the load that took over.
		expect(loaded.bytesRead).toBe(statSync(large).size);
		expect(loaded.chunksOnViewerThread).toBeGreaterThan(0);
	});
});

describe('the viewer’s load of a small file', () => {
	it('is left to the viewer’s thread, and ends with the plain path’s model', async () => {
		const demo = join(root, 'fixtures/demo.ndjson');
		expect(built.inWorker.worthAWorker(plan(demo))).toBe(false);
		const loaded = await viewerLoad(plan(demo));
		expectSame(loaded.snapshot, await plainSnapshot(demo));
		expect(loaded.models).toBe(1);
		expect(loaded.chunksOnViewerThread).toBeGreaterThan(0);
	});
});
