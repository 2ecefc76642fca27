import {parentPort, workerData} from 'node:worker_threads';
import {Ingest} from '../ingest.js';
import {modelToTransfer, type TransferredModel} from '../model/model-transfer.js';
import type {Activity, Model} from '../model/state.js';
import type {InputPlan} from './inputs.js';
import {runSourcesFast} from './parallel-file.js';
import type {SourceState} from './run-sources.js';

/*
 * The viewer's loader of large plain files (load-in-worker.ts): it loads them exactly as the headless modes
 * do, reducing into a model of its own, and posts that model to the viewer now and then and once at the
 * end. A model is small next to the log it comes from (a few MB for a 124 MB log), so posting it costs far
 * less than posting the events it was made from.
 *
 * Its activities, most of its data, go ahead of the rest in parts: the viewer decodes one part while this
 * thread encodes the next, instead of waiting for the whole model to be encoded before it starts decoding
 * (at the end of a load the viewer has nothing else to do, and is waited for).
 */

export type LoadSetup = {plan: InputPlan; maxLineBytes: number};

export type LoadMessage =
	| {kind: 'progress'; states: SourceState[]}
	/** The next activities of the model posted next (whose own `activities` are left empty). */
	| {kind: 'activities'; activities: Activity[]}
	| {kind: 'model'; states: SourceState[]; model: TransferredModel}
	| {kind: 'done'; states: SourceState[]; model: TransferredModel; exitCode: number};

const activitiesPerPart = 500;

/** Posts the model's activities in parts, then the message `last` makes of the rest of the model. */
function postModel(post: (message: LoadMessage) => void, model: Model, last: (rest: TransferredModel) => LoadMessage): void {
	for (let from = 0; from < model.activities.length; from += activitiesPerPart) {
		post({kind: 'activities', activities: model.activities.slice(from, from + activitiesPerPart)});
	}

	post(last({...modelToTransfer(model), activities: []}));
}

/**
 * Time between models posted during a load, and at least this many times what posting the last one took.
 * Posting one holds up the load (~25 ms for the model of a 124 MB log), so a load of under a second posts
 * only its final model; a longer one shows its progress as a growing tree.
 */
const minModelIntervalMs = 1000;
const modelIntervalPerCost = 10;

function isSetup(value: unknown): value is LoadSetup {
	return typeof value === 'object' && value !== null && 'plan' in value && 'maxLineBytes' in value;
}

async function load(setup: LoadSetup, post: (message: LoadMessage) => void): Promise<void> {
	const ingest = new Ingest({maxLineBytes: setup.maxLineBytes});
	let lastModelAt = performance.now();
	let modelCost = 0;
	const running = runSourcesFast(setup.plan, ingest, {
		afterChunk() {
			const now = performance.now();
			if (now - lastModelAt < Math.max(minModelIntervalMs, modelIntervalPerCost * modelCost)) {
				post({kind: 'progress', states: running.states});
				return;
			}

			postModel(post, ingest.model, model => ({kind: 'model', states: running.states, model}));
			lastModelAt = performance.now();
			modelCost = lastModelAt - now;
		},
	});
	const exitCode = await running.done;
	postModel(post, ingest.model, model => ({kind: 'done', states: running.states, model, exitCode}));
}

// PERSCOPE_LOAD_WORKER_FAIL_AFTER=N (for tests of the viewer taking over) makes the worker fail after N posts.
const failAfter = Number(process.env['PERSCOPE_LOAD_WORKER_FAIL_AFTER'] ?? Number.NaN);
if (parentPort && isSetup(workerData)) {
	const port = parentPort;
	let posts = 0;
	void load(workerData, message => {
		// Thrown outside the load, which would otherwise report it as the file's error.
		if (posts === failAfter) {
			setImmediate(() => {
				throw new Error(`failing after ${failAfter} posts, as PERSCOPE_LOAD_WORKER_FAIL_AFTER asks`);
			});
		}

		if (posts++ < failAfter || Number.isNaN(failAfter)) port.postMessage(message);
	});
}
