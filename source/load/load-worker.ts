import {parentPort, workerData} from 'node:worker_threads';
import {Ingest} from './ingest.js';
import {runToTransfer, type TransferredRun} from './model-transfer.js';
import type {Activity, Model, Run} from '../model/state.js';
import type {InputPlan} from '../input/inputs.js';
import {envNumber, runSourcesFast} from './parallel-file.js';
import type {SourceState} from '../input/source-state.js';

/*
 * The viewer's loader of large plain files (load-in-worker.ts): it loads them exactly as the headless modes
 * do, reducing into a model of its own, and posts that model to the viewer now and then and once at the
 * end. A model is small next to the log it comes from (a few MB for a 124 MB log), so posting it costs far
 * less than posting the events it was made from.
 *
 * A model's activities and runs, most of its data, go ahead of the rest as the load goes on (every
 * `changesIntervalMs`), and only what the viewer does not have yet: new activities and ones the reducer has
 * replaced since (it never changes an activity in place), new runs and ones whose rev moved (it moves with
 * every change to a run). The viewer decodes them a little at a time while this thread reads on, answering
 * keys in between, and at the end, when it is waited for, decodes only the last ones. (Posted all at once
 * when most of the file was read, they held a key pressed then for up to ~100 ms; a model posted there would
 * also have the viewer draw the tree early and cold, which holds up keys by some 40 ms.)
 */

export type LoadSetup = {plan: InputPlan; maxLineBytes: number};

/** A model without its activities and runs, which go ahead of it. */
export type ModelRest = Omit<Model, 'activities' | 'runs'>;

export type LoadMessage =
	/** `events`: how many events the load has read so far, which the viewer counts before it has their model. */
	| {kind: 'progress'; states: SourceState[]; events: number}
	/**
	 * Activities of the model, each put at its index (from `from` on, or the one in `at`) in the list the
	 * viewer keeps; the model posted next takes that list.
	 */
	| {kind: 'activities'; from: number; activities: Activity[]}
	| {kind: 'changed activities'; at: number[]; activities: Activity[]}
	/** Runs of the model, new or changed; the model posted next takes them. */
	| {kind: 'runs'; runs: Array<[string, TransferredRun]>}
	| {kind: 'model'; states: SourceState[]; model: ModelRest}
	| {kind: 'done'; states: SourceState[]; model: ModelRest; exitCode: number};

/**
 * Activities and runs go in parts small enough for the viewer to decode one in a few milliseconds, so that
 * the viewer decodes one while this thread encodes the next (a run of the bench's log is ~5 KB with its steps).
 */
const activitiesPerPart = 500;
const runsPerPart = 25;

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
	postModel(model: Model, last: (rest: ModelRest) => LoadMessage): void {
		this.postChanges(model);
		const {activities, runs, ...rest} = model;
		this.#post(last(rest));
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

	/** Posts the runs that are new or changed (their rev moved, model/reduce.ts) since they were posted, in parts. */
	#postRuns(runs: ReadonlyMap<string, Run>): void {
		let part: Array<[string, TransferredRun]> = [];
		for (const [runId, run] of runs) {
			if (this.#sentRevs.get(runId) === run.rev) continue;
			part.push([runId, runToTransfer(run)]);
			this.#sentRevs.set(runId, run.rev);
			if (part.length === runsPerPart) {
				this.#post({kind: 'runs', runs: part});
				part = [];
			}
		}

		if (part.length > 0) this.#post({kind: 'runs', runs: part});
	}
}

/** Time between posts of what changed (activities, runs, progress) during a load; tests set 0: every chunk. */
const changesIntervalMs = envNumber('PERSCOPE_CHANGES_INTERVAL_MS') ?? 100;

/**
 * Time between models posted during a load, and at least this many times what posting the last one took.
 * A model costs this thread the rest of the model (~0.2 MB for a 124 MB log) and the viewer a frame of the
 * whole tree, so a load of under a second posts only its final model; a longer one shows its progress as a
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
	let lastChangesAt = lastModelAt;
	const running = runSourcesFast(setup.plan, ingest, {
		afterChunk() {
			const now = performance.now();
			if (now - lastModelAt < Math.max(minModelIntervalMs, modelIntervalPerCost * modelCost)) {
				// The viewer draws a load's progress a few times a second: a post per chunk (there are a hundred or
				// more) would only cost both threads.
				if (now - lastChangesAt < changesIntervalMs) return;
				posted.postChanges(ingest.model);
				post({kind: 'progress', states: running.states, events: ingest.model.events});
				lastChangesAt = now;
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
