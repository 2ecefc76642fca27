import {parentPort, workerData} from 'node:worker_threads';
import {Ingest} from '../ingest.js';
import {runToTransfer, type TransferredModel, type TransferredRun} from '../model/model-transfer.js';
import type {Activity, Model, Run} from '../model/state.js';
import type {InputPlan} from './inputs.js';
import {runSourcesFast} from './parallel-file.js';
import type {SourceState} from './source-state.js';

/*
 * The viewer's loader of large plain files (load-in-worker.ts): it loads them exactly as the headless modes
 * do, reducing into a model of its own, and posts that model to the viewer now and then and once at the
 * end. A model is small next to the log it comes from (a few MB for a 124 MB log), so posting it costs far
 * less than posting the events it was made from.
 *
 * A model's activities and runs, most of its data, go ahead of the rest, and only those the viewer does not
 * have yet: new activities and ones the reducer has replaced since (it never changes an activity in place),
 * new runs and ones whose rev moved (it moves with every change to a run). When most of the files are read
 * (`earlyChangesAt`) these go without a model: the viewer decodes them while this thread reads the rest, so
 * that at the end, when it has nothing else to do and is waited for, it decodes only the last ones. (A model
 * there would also have the viewer draw the tree early, but drawing it cold holds up the viewer's answer to a
 * key by some 40 ms.) Activities go in parts, so the viewer decodes one part while this thread encodes the
 * next.
 */

export type LoadSetup = {plan: InputPlan; maxLineBytes: number};

export type LoadMessage =
	| {kind: 'progress'; states: SourceState[]}
	/**
	 * Activities of the model, each put at its index (from `from` on, or the one in `at`) in the list the
	 * viewer keeps; the model posted next takes that list (its own `activities` are left empty).
	 */
	| {kind: 'activities'; from: number; activities: Activity[]}
	| {kind: 'changed activities'; at: number[]; activities: Activity[]}
	/** Runs of the model, new or changed; the model posted next takes them (its own `runs` are left empty). */
	| {kind: 'runs'; runs: Array<[string, TransferredRun]>}
	| {kind: 'model'; states: SourceState[]; model: TransferredModel}
	| {kind: 'done'; states: SourceState[]; model: TransferredModel; exitCode: number};

const activitiesPerPart = 500;

/** The share of the files read at which the activities and runs so far are posted, ahead of the next model. */
const earlyChangesAt = 0.8;

/** What the viewer has of a model's activities and runs, and how to post what it lacks. */
export class ModelPoster {
	/** The activities as the viewer has them, by index. */
	readonly #sentActivities: Activity[] = [];
	/** The rev of each run as the viewer has it. */
	readonly #sentRevs = new Map<string, number>();
	readonly #post: (message: LoadMessage) => void;

	constructor(post: (message: LoadMessage) => void) {
		this.#post = post;
	}

	/** Posts the activities and runs the viewer lacks. */
	postChanges(model: Model): void {
		this.#postActivities(model.activities);
		this.#postRuns(model.runs);
	}

	/** Posts what the viewer lacks, then the message `last` makes of the rest of the model. */
	postModel(model: Model, last: (rest: TransferredModel) => LoadMessage): void {
		this.postChanges(model);
		this.#post(last({...model, activities: [], runs: []}));
	}

	/** Posts the activities replaced since they were posted, then the new ones in parts. */
	#postActivities(activities: readonly Activity[]): void {
		const sent = this.#sentActivities;
		const at: number[] = [];
		const changed: Activity[] = [];
		for (let index = 0; index < sent.length; index++) {
			const activity = activities[index]!;
			if (activity === sent[index]) continue;
			at.push(index);
			changed.push(activity);
			sent[index] = activity;
		}

		if (at.length > 0) this.#post({kind: 'changed activities', at, activities: changed});
		for (let from = sent.length; from < activities.length; from += activitiesPerPart) {
			const part = activities.slice(from, from + activitiesPerPart);
			this.#post({kind: 'activities', from, activities: part});
			for (const activity of part) sent.push(activity);
		}
	}

	/** Posts the runs that are new or changed (their rev moved, model/reduce.ts) since they were posted. */
	#postRuns(runs: ReadonlyMap<string, Run>): void {
		const changed: Array<[string, TransferredRun]> = [];
		for (const [runId, run] of runs) {
			if (this.#sentRevs.get(runId) === run.rev) continue;
			changed.push([runId, runToTransfer(run)]);
			this.#sentRevs.set(runId, run.rev);
		}

		if (changed.length > 0) this.#post({kind: 'runs', runs: changed});
	}
}


/** The share of the files' bytes read so far (0 while their sizes are unknown). */
function shareRead(states: readonly SourceState[]): number {
	let read = 0;
	let total = 0;
	for (const state of states) {
		read += state.bytesRead;
		total += state.bytesTotal ?? 0;
	}

	return total > 0 ? read / total : 0;
}

/**
 * Time between models posted during a load, and at least this many times what posting the last one took.
 * Posting one holds up the load (its new activities and the rest of the model: ~25 ms for the whole model of a
 * 124 MB log), so a load of under a second posts only its final model; a longer one shows its progress as a
 * growing tree.
 */
const minModelIntervalMs = 1000;
const modelIntervalPerCost = 10;

function isSetup(value: unknown): value is LoadSetup {
	return typeof value === 'object' && value !== null && 'plan' in value && 'maxLineBytes' in value;
}

async function load(setup: LoadSetup, post: (message: LoadMessage) => void): Promise<void> {
	const ingest = new Ingest({maxLineBytes: setup.maxLineBytes});
	const posted = new ModelPoster(post);
	let lastModelAt = performance.now();
	let modelCost = 0;
	let earlyChangesPosted = false;
	const running = runSourcesFast(setup.plan, ingest, {
		afterChunk() {
			const now = performance.now();
			if (now - lastModelAt < Math.max(minModelIntervalMs, modelIntervalPerCost * modelCost)) {
				if (!earlyChangesPosted && shareRead(running.states) >= earlyChangesAt) {
					earlyChangesPosted = true;
					posted.postChanges(ingest.model);
				}

				post({kind: 'progress', states: running.states});
				return;
			}

			posted.postModel(ingest.model, model => ({kind: 'model', states: running.states, model}));
			lastModelAt = performance.now();
			modelCost = lastModelAt - now;
		},
	});
	const exitCode = await running.done;
	posted.postModel(ingest.model, model => ({kind: 'done', states: running.states, model, exitCode}));
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
