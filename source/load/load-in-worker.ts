import {Worker} from 'node:worker_threads';
import {runFromTransfer} from './model-transfer.js';
import {createModel, type Activity, type Model, type Run} from '../model/state.js';
import type {InputPlan} from '../input/inputs.js';
import type {LoadMessage, ModelRest} from './load-worker.js';
import {initialSourceState, type RunningSources, type SourcesHooks, type SourceState} from '../input/source-state.js';
import {loadWorkerUrl, takeEarlyLoad, workerLoadFor, workerResourceLimits} from './early-load.js';

/*
 * How the viewer loads large plain files: a worker loads them the headless way, model and all
 * (load-worker.ts), and the viewer takes over each model it posts. The viewer's own thread meanwhile loads
 * Ink, draws and answers keys, and neither waits for the other: the load takes about as long as the
 * headless one instead of sharing a thread with the drawing. Should the worker fail, the viewer starts
 * again on its own thread, and only then loads the loading code (parsers, reducer).
 */

/** The model's activities and runs as a worker has posted them so far; each model it posts takes them. */
export type PostedParts = {activities: Activity[]; runs: Map<string, Run>};

/** Takes activities or runs a worker posted ahead of a model (load-worker.ts). */
export function putParts(parts: PostedParts, message: Extract<LoadMessage, {kind: 'activities' | 'changed activities' | 'runs'}>): void {
	switch (message.kind) {
		case 'activities':
			for (const [offset, activity] of message.activities.entries()) parts.activities[message.from + offset] = activity;
			return;
		case 'changed activities':
			for (const [offset, index] of message.at.entries()) parts.activities[index] = message.activities[offset]!;
			return;
		case 'runs':
			for (const [runId, run] of message.runs) parts.runs.set(runId, runFromTransfer(run));
	}
}

/** The model a worker posted: the rest of it, with the activities and runs that went ahead of it. */
export function modelFromParts(parts: PostedParts, rest: ModelRest): Model {
	// Copies: the views may draw this model before the next one comes, and the parts go on changing.
	return {...rest, activities: parts.activities.slice(), runs: new Map(parts.runs)};
}

/**
 * Loads the plan into `target.model` in a worker when that is worth it (large plain files, a second CPU); else
 * undefined. The views hold that model object: its contents are replaced as the worker posts models.
 */
export function loadInWorker(plan: InputPlan, target: {model: Model; maxLineBytes: number}, hooks: SourcesHooks = {}): RunningSources | undefined {
	// The CLI may have started it already (early-load.ts).
	const early = takeEarlyLoad(plan);
	const setup = early ? undefined : workerLoadFor(plan, target.maxLineBytes);
	const worker = early?.worker ?? (setup ? new Worker(loadWorkerUrl(), {workerData: setup, resourceLimits: workerResourceLimits}) : undefined);
	if (!worker) return undefined;

	const states = plan.inputs.map(input => initialSourceState(input));
	// The views hold these state objects: what a load reports is copied into them.
	const mirror = (from: SourceState[]) => {
		for (const [index, state] of from.entries()) if (states[index]) Object.assign(states[index], state);
	};

	const parts: PostedParts = {activities: [], runs: new Map()};
	const take = (message: LoadMessage) => {
		switch (message.kind) {
			case 'activities':
			case 'changed activities':
			case 'runs':
				putParts(parts, message);
				return;
			case 'progress':
				mirror(message.states);
				// The header's count and rate of events move while the load goes; the next model brings the rest.
				target.model.events = message.events;
				break;
			case 'model':
			case 'done':
				mirror(message.states);
				Object.assign(target.model, modelFromParts(parts, message.model));
				break;
		}

		hooks.onChange?.();
	};

	let stopped = false;
	let onMainThread: RunningSources | undefined;
	const done = new Promise<number>(resolve => {
		let settled = false;
		const fail = () => {
			if (settled) return;
			settled = true;
			void worker.terminate();
			if (stopped) {
				resolve(0);
				return;
			}

			// Start over on this thread, from an empty model.
			Object.assign(target.model, createModel());
			for (const [index, input] of plan.inputs.entries()) Object.assign(states[index]!, initialSourceState(input));
			resolve(
				Promise.all([import('./ingest.js'), import('./parallel-file.js')]).then(([{Ingest}, {runSourcesFast}]) => {
					if (stopped) return 0;
					const restarted = runSourcesFast(plan, new Ingest({model: target.model, maxLineBytes: target.maxLineBytes}), {
						...hooks,
						onChange() {
							mirror(restarted.states);
							hooks.onChange?.();
						},
					});
					onMainThread = restarted;
					return restarted.done;
				}),
			);
		};

		const receive = (message: LoadMessage) => {
			if (settled) return;
			take(message);
			if (message.kind !== 'done') return;
			settled = true;
			void worker.terminate();
			resolve(message.exitCode);
		};

		worker.on('message', receive);
		worker.on('error', fail);
		worker.on('exit', fail);
		for (const message of early?.early ?? []) receive(message);
		if (early?.failed) fail();
	});

	return {
		states,
		done,
		interrupt: () => false,
		childRunning: () => false,
		stop() {
			stopped = true;
			onMainThread?.stop();
			void worker.terminate();
		},
	};
}
