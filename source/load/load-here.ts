import type {InputPlan} from '../input/inputs.js';
import {runSources} from '../input/run-sources.js';
import type {RunningSources} from '../input/source-state.js';
import {createModel} from '../model/state.js';
import {Ingest} from './ingest.js';
import type {Loading, LoadOptions} from './loader.js';
import {runSourcesFast} from './parallel/parallel-file.js';
import {ReplayIngest} from './replay.js';

/**
 * Loads the plan on this thread, into one model that the reducer changes as lines arrive (its `rev` moves with
 * each change). Plain files load the fast way (parallel-file.ts) unless `fast` is false; a replay holds lines
 * back until they are due.
 */
export function loadHere(plan: InputPlan, options: LoadOptions): Loading {
	const {hooks = {}, replay, tuning} = options;
	const fast = options.fast !== false;
	const model = createModel();
	model.textKeep = options.textKeep;
	const ingestOptions = {maxLineBytes: options.maxLineBytes, onLine: options.onLine, fast, dialect: options.dialect, arrivalClock: options.arrivalClock, model};
	let ingest: Ingest;
	let running: RunningSources;
	if (replay) {
		const replaying = new ReplayIngest({...ingestOptions, replay});
		ingest = replaying;
		// What is due is handed to the model after each chunk, before the next is read.
		const afterChunk = async () => {
			await replaying.drain(() => hooks.onChange?.());
			await hooks.afterChunk?.();
		};

		running = fast ? runSourcesFast(plan, replaying, {...hooks, afterChunk}, {tuning}) : runSources(plan, replaying, {...hooks, afterChunk});
	} else {
		ingest = new Ingest(ingestOptions);
		running = fast ? runSourcesFast(plan, ingest, hooks, {mainThreadFrom: options.mainThreadFrom, tuning}) : runSources(plan, ingest, hooks);
	}

	options.onModel?.(ingest.model);
	return {
		...running,
		get model() {
			return ingest.model;
		},
		// The reducer changes the model line by line, between any two slices: what reads it in slices here reads it at once.
	};
}
