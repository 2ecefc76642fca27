import {createModel} from '../../model/state.js';
import {Ingest} from '../ingest.js';
import {runSourcesFast} from '../run-sources-fast.js';
import {YoungGenerationCap} from '../young-generation.js';
import {holdHeapGrowth, viewerHeapGrowingPercent} from '../heap-growth.js';
import {ChangeTracker} from './change-tracker.js';
import {splitChanges} from './split-changes.js';
import type {ModelChanges} from './model-changes.js';
import type {LoadWorkerMessage, LoadWorkerSetup} from '../protocol.js';

/*
 * What the viewer's load worker (started by load-in-worker.ts; its module is load-worker.ts) does: it loads large
 * plain files exactly as the headless modes do, reducing into a model of its own, and posts what changed in that model (model-changes.ts) to the
 * viewer now and then and once at the end, with its progress in between. What changed is small next to the
 * log it comes from, and next to the whole model, which the viewer then never decodes again. Once posted, the
 * activities the reducer will not change again leave the worker's model (`ChangeTracker.letGo`): the process
 * holds them once, in the viewer's model.
 */

/** Time between progress posts when the tuning sets none: the viewer draws a load's progress a few times a second. */
const defaultProgressIntervalMs = 100;

/**
 * Time between changes posted during a load. A post costs this thread and the viewer's in proportion to what
 * changed since the last, so posts come at a steady pace rather than further apart as they cost more (which
 * made each one larger still, and the last one of a long load the whole model at once).
 */
const defaultChangesIntervalMs = 1000;

export function isLoadWorkerSetup(value: unknown): value is LoadWorkerSetup {
	return typeof value === 'object' && value !== null && 'plan' in value && 'maxLineBytes' in value && 'tuning' in value && 'changes' in value;
}

/** Sends what changed as pieces on the setup's `changes` port; how many. */
function sendPieces(setup: LoadWorkerSetup, changes: ModelChanges): number {
	const pieces = splitChanges(changes);
	for (const piece of pieces) setup.changes.postMessage(piece);
	return pieces.length;
}

async function load(setup: LoadWorkerSetup, post: (message: LoadWorkerMessage) => void): Promise<void> {
	holdHeapGrowth(viewerHeapGrowingPercent);
	const model = createModel();
	model.textKeep = setup.textKeep;
	const ingest = new Ingest({maxLineBytes: setup.maxLineBytes, dialect: setup.dialect, model});
	const progressIntervalMs = setup.tuning.progressIntervalMs ?? defaultProgressIntervalMs;
	const changesIntervalMs = setup.tuning.changesIntervalMs ?? defaultChangesIntervalMs;
	const tracker = new ChangeTracker();
	const youngGeneration = new YoungGenerationCap();
	let lastChangesAt = performance.now();
	let lastProgressAt = lastChangesAt;
	const running = runSourcesFast(
		setup.plan,
		ingest,
		{
			afterChunk() {
				youngGeneration.afterChunk();
				const now = performance.now();
				if (now - lastChangesAt >= changesIntervalMs && tracker.changed(ingest.model)) {
					post({kind: 'changes', states: running.states, pieces: sendPieces(setup, tracker.changes(ingest.model))});
					// Posted: what the reducer will not change again is the viewer's alone from now on.
					tracker.letGo(ingest.model);
					lastChangesAt = performance.now();
				} else if (now - lastProgressAt >= progressIntervalMs) {
					post({kind: 'progress', states: running.states, events: ingest.model.events});
					lastProgressAt = now;
				}
			},
		},
		{tuning: setup.tuning},
	);
	const exitCode = await running.done;
	post({kind: 'done', states: running.states, pieces: sendPieces(setup, tracker.changes(ingest.model)), exitCode});
	// The cap is the process's: the viewer's thread, with the work after the load ahead of it, is let off it too.
	youngGeneration.release();
}

/** Loads the setup's plan and hands each message to `post` (the worker's port, in load-worker.ts). */
export function serveLoad(setup: LoadWorkerSetup, post: (message: LoadWorkerMessage) => void): void {
	void load(setup, post);
}
