import {statSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import {Worker} from 'node:worker_threads';
import type {InputPlan} from './inputs.js';

/*
 * A parse worker started before anything else loads. A worker takes ~60 ms to boot and load its modules;
 * the viewer starts one as soon as it knows it will read a large plain file, so the worker is ready by the
 * time the loader wants it (sources/parallel-file.ts) instead of starting then. Kept apart from the loader
 * so that starting it costs only this small module.
 */

/** The file sizes from which the viewer has a worker parse while it loads Ink (see parallel-file.ts). */
export const minBusyMainBytes = 8 * 1024 * 1024;

export const workerResourceLimits = {maxYoungGenerationSizeMb: 48};

let spare: Worker | undefined;

/** The worker's module, which parse-chunk-worker.ts is compiled to. */
export function parseWorkerUrl(): URL {
	return new URL('parse-chunk-worker.js', import.meta.url);
}

/** Starts a spare worker if the plan is files only, large enough together, and there is a second CPU. */
export function prestartParseWorker(plan: InputPlan): void {
	if (spare || plan.follow || plan.inputs.length === 0 || availableParallelism() < 2 || process.env['PERSCOPE_FAST'] === '0') return;
	let bytes = 0;
	for (const input of plan.inputs) {
		if (input.kind !== 'file') return;
		try {
			bytes += statSync(input.path).size;
		} catch {
			return;
		}
	}

	if (bytes < minBusyMainBytes) return;
	spare = new Worker(parseWorkerUrl(), {resourceLimits: workerResourceLimits});
	// Waiting for its setup, it must not keep the process alive; nor must its failure go unhandled.
	spare.unref();
	spare.on('error', () => undefined);
}

/** The spare worker, if one was started and not taken yet; it then waits for its setup message. */
export function takeSpareWorker(): Worker | undefined {
	const worker = spare;
	spare = undefined;
	worker?.ref();
	return worker;
}

/** Ends a spare worker nobody took (the file turned out to be compressed, say). */
export function discardSpareWorker(): void {
	void takeSpareWorker()?.terminate();
}
