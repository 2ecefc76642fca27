import {statSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import {Worker} from 'node:worker_threads';
import type {InputPlan} from '../input/inputs.js';
import type {LoadMessage, LoadSetup} from './load-worker.js';
import {plainFiles} from '../input/plain-files.js';

/*
 * Starts the viewer's load worker (load-worker.ts) as soon as the CLI knows what it will read, before it
 * loads anything else: a worker takes ~60 ms to boot and load its modules, and the viewer's own thread
 * then spends ~0.2 s loading Ink. What the worker posts meanwhile is kept for load-in-worker.ts, which
 * takes the worker over. Kept apart from that module so that starting the worker costs only this one.
 */

/** The sizes (all files together) from which the viewer loads in a worker. */
export const minWorkerLoadBytes = 8 * 1024 * 1024;

export const workerResourceLimits = {maxYoungGenerationSizeMb: 48};

/** A load started early: its worker, and what it posted (or whether it failed) before it was taken over. */
export type StartedLoad = {worker: Worker; setup: LoadSetup; early: LoadMessage[]; failed: boolean};

/** The load started, and how to stop keeping what its worker posts (for whoever takes it over). */
let started: {load: StartedLoad; release: () => void} | undefined;

/** The setup of a load worker for the plan, if the plan is worth one: large plain files and a second CPU. */
export function workerLoadFor(plan: InputPlan, maxLineBytes: number): LoadSetup | undefined {
	if (availableParallelism() < 2) return undefined;
	const files = plainFiles(plan);
	if (!files) return undefined;
	let bytes = 0;
	for (const file of files) bytes += statSync(file.path).size;
	return bytes >= minWorkerLoadBytes ? {plan, maxLineBytes} : undefined;
}

/** The worker's code: load-worker.ts and what it imports, bundled into one file by the build (scripts/bundle-load-worker.mjs). */
export function loadWorkerUrl(): URL {
	return new URL('load-worker.bundle.cjs', import.meta.url);
}

/** Starts loading the plan in a worker now, if it is worth one (see workerLoadFor). */
export function startEarlyLoad(plan: InputPlan, maxLineBytes: number): void {
	if (started) return;
	const setup = workerLoadFor(plan, maxLineBytes);
	if (!setup) return;
	const worker = new Worker(loadWorkerUrl(), {workerData: setup, resourceLimits: workerResourceLimits});
	// Until it is taken over it must not keep the process alive (the viewer may give up first: no terminal).
	worker.unref();
	const early: LoadMessage[] = [];
	const keep = (message: LoadMessage) => early.push(message);
	const fail = () => {
		load.failed = true;
	};

	const load: StartedLoad = {worker, setup, early, failed: false};
	worker.on('message', keep);
	worker.on('error', fail);
	worker.on('exit', fail);
	started = {
		load,
		release() {
			worker.off('message', keep);
			worker.off('error', fail);
			worker.off('exit', fail);
			worker.ref();
		},
	};
}

/**
 * The load started for this very plan, taken over by the caller: from now on the worker's messages and
 * failure are the caller's to listen to (in the same tick, so none is missed). A load started for another
 * plan (the viewer went on to read a job chosen from a list, say) is stopped.
 */
export function takeEarlyLoad(plan: InputPlan): StartedLoad | undefined {
	if (started?.load.setup.plan === plan) {
		const {load, release} = started;
		started = undefined;
		release();
		return load;
	}

	discardEarlyLoad();
	return undefined;
}

/** Stops a load started early that nobody took over (the viewer reads something else: a chosen job, say). */
export function discardEarlyLoad(): void {
	void started?.load.worker.terminate();
	started = undefined;
}
