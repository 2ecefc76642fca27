import type {InputPlan} from '../input/inputs.js';
import {runSources} from '../input/run-sources.js';
import type {RunningSources} from '../input/source-state.js';
import {createModel} from '../model/state.js';
import {Ingest} from './ingest.js';
import type {Loading, LoadOptions} from './loader.js';
import {runSourcesFast} from './run-sources-fast.js';
import {ReplayIngest} from './replay.js';
import {AddedCommands} from '../input/command/added-commands.js';

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
	const added = new AddedCommands(ingest, running.states, hooks);
	return {
		...running,
		get model() {
			return ingest.model;
		},
		addCommand: replay
			? undefined
			: async request => {
					if (request.repeatsOfJob !== undefined) ingest.expectRepeats(request.repeatsOfJob);
					return added.add(request);
				},
		interrupt: () => [running.interrupt(), added.interrupt()].some(Boolean),
		childRunning: () => running.childRunning() || added.running(),
		terminateCommands: () => [running.childRunning() && running.signalCommand('SIGTERM'), added.terminate()].some(Boolean),
		stop() {
			running.stop();
			added.stop();
		},
		signalCommand: signal => [running.signalCommand(signal), added.signal(signal)].some(Boolean),
		abandon() {
			running.abandon();
			added.abandon();
		},
		// The reducer changes the model line by line, between any two slices: what reads it in slices here reads it at once.
	};
}
