import type {MessagePort} from 'node:worker_threads';
import type {InputPlan} from '../input/inputs.js';
import type {SourceState} from '../input/source-state.js';
import type {LinePosition} from '../parse/line-splitter.js';
import type {TextKeep} from '../model/state.js';
import type {Dialect} from '../model/events.js';
import type {Chunk, ChunkItem} from './parallel/parse-chunk.js';
import type {LoadTuning} from './tuning.js';

/*
 * Everything that crosses a thread while a file loads: what each worker is started with, and the one union
 * of messages the workers post. Two kinds of worker post them:
 *
 * - a chunk worker (parallel/parse-chunk-worker.ts) parses chunks of a plain file ahead of the thread that reduces
 *   them (parallel/parallel-file.ts) and posts their lines;
 * - the viewer's load worker (load-worker.ts) loads the files the headless way, model and all, and posts its
 *   progress and what changed in its model (model-changes.ts) to the viewer (load-in-worker.ts), which puts
 *   each change into a model of its own and hands the views a new model object with it.
 *
 * Each receiver's port is typed by the messages its worker posts (ChunkWorkerMessage, LoadWorkerMessage).
 */

export type LoadMessage =
	/** Parsed lines of one chunk, in order (there may be several batches to a chunk). */
	| {kind: 'lines'; batch: Batch}
	/** How far the load is; `events`: how many events it has read, which the viewer counts before their model comes. */
	| {kind: 'progress'; states: SourceState[]; events: number}
	/**
	 * What changed in the model since the last post, during a long load: sent as `pieces` pieces on the
	 * setup's `changes` port (split-changes.ts), which the viewer takes one at a time.
	 */
	| {kind: 'changes'; states: SourceState[]; pieces: number}
	/** The last changes (as `pieces` pieces on the `changes` port), once every input has ended. */
	| {kind: 'done'; states: SourceState[]; pieces: number; exitCode: number};

export type ChunkWorkerMessage = Extract<LoadMessage, {kind: 'lines'}>;
export type LoadWorkerMessage = Exclude<LoadMessage, ChunkWorkerMessage>;

/** A worker's young generation is kept small: a load makes garbage fast, and memory is the figure held down. */
export const workerResourceLimits = {maxYoungGenerationSizeMb: 48};

/** What the viewer's load worker is started with (once the viewer's first frame is drawn: load-in-worker.ts). */
export type LoadWorkerSetup = {
	plan: InputPlan;
	maxLineBytes: number;
	tuning: LoadTuning;
	textKeep: TextKeep | undefined;
	/** `--dialect`, as the load's Ingest takes it. */
	dialect: Dialect | undefined;
	/**
	 * Where the pieces of what changed go (ChangesPiece). A port's messages are each decoded as they are taken:
	 * the viewer takes them one at a time between keys, while the worker's own port hands on every message
	 * waiting in one go, and decoding a second's worth of a large load at once kept keys waiting.
	 */
	changes: MessagePort;
};

/** What a chunk worker is started with. */
export type ChunkWorkerSetup = {
	path: string;
	source: string;
	maxLineBytes: number;
	/** `--dialect`, as the Ingest the lines go to parses them. */
	dialect: Dialect | undefined;
	chunks: Chunk[];
	/** This worker's mark in `claims` (2 and up; 1 is the main thread). */
	id: number;
	/**
	 * A worker claims chunks from `control[2]` past the last one the main thread consumed (the nearer are the
	 * main thread's) up to this many past it.
	 */
	lookahead: number;
	batchSize: number;
	/** Per chunk: 0 unclaimed, else the claimer's id. */
	claims: SharedArrayBuffer;
	/** Per chunk: 1 once its newline count is in `counts`. */
	counted: SharedArrayBuffer;
	counts: SharedArrayBuffer;
	/**
	 * [chunks consumed by the main thread, 1 to stop, the gap]: the gap is 0 while the main thread leaves
	 * every chunk to the workers and grows once it parses too.
	 */
	control: SharedArrayBuffer;
};

/**
 * Lines a chunk worker parsed. Copying an event object between threads costs the receiver several
 * microseconds (more than parsing a small line), so the streaming events that make up most of a log travel
 * as their fields (strings, once per batch, and numbers in typed arrays) and are built on arrival by the
 * parser's own function (chunk-batch.ts writes and reads them). Everything else travels as is.
 */
export type Batch = {
	chunk: number;
	/** Where the line after the batch starts. */
	next: LinePosition;
	/** Whether the batch ends its chunk. */
	done: boolean;
	/** Per line: an index into streamTypes for a streaming event, or 255 for the next of `items`. */
	kinds: Uint8Array;
	items: ChunkItem[];
	/** Per streaming event: id, expertKey, jobId, runId, text, as indexes into `strings`. */
	refs: Int32Array;
	strings: readonly string[];
	/** Per streaming event: timestamp, stepNumber, line, offset. */
	numbers: Float64Array;
};
