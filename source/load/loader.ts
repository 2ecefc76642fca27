import type {RunningSources, SourcesHooks} from '../input/source-state.js';
import type {AddedCommand, CommandRequest} from '../input/command/added-commands.js';
import type {Model, TextKeep} from '../model/state.js';
import type {ArrivalClock} from '../parse/stream-readers.js';
import type {Dialect} from '../model/events.js';
import type {Line} from '../parse/line-splitter.js';
import type {Scheduler} from '../slices/scheduler.js';
import type {Replay} from './replay.js';
import type {LoadTuning} from './tuning.js';

/*
 * The viewer's one way to load a plan: on its own thread or in a worker (start-load.ts decides), the caller gets
 * the same Loading and the same calls. Kept apart from the loaders themselves so that the views and the
 * viewer's wiring can name these types without loading any loading code.
 */

/** A load under way. */
export type Loading = RunningSources & {
	/**
	 * The model so far. A load on this thread reduces into one model, whose `rev` moves with every change; a
	 * load in a worker puts what the worker posts (what changed in its model) into a model of its own and
	 * replaces it with a new model object each time (and a worker's count of events read with a copy that has
	 * it). `onModel` tells of each replacement.
	 */
	readonly model: Model;
	/**
	 * Runs a command whose events join this load's model, as `-- COMMAND`'s do (the cockpit's continuations).
	 * A load that was a worker's reads its plan again on this thread first (the reducer's indexes stayed in the
	 * worker); it refuses while the worker still reads. Undefined for a replay, which holds lines back until they
	 * fall due.
	 */
	readonly addCommand: ((request: CommandRequest) => Promise<AddedCommand>) | undefined;
	/** SIGTERM to every command of the load that still runs (`K`); false when none does. */
	terminateCommands: () => boolean;
};

export type LoadOptions = {
	maxLineBytes: number;
	tuning?: LoadTuning | undefined;
	/**
	 * false (PERSCOPE_FAST=0): every line is read the plain way, one after the other, on this thread: the
	 * reference the fast ways are compared with. Default true.
	 */
	fast?: boolean | undefined;
	/** `--dialect`: every line is read as this dialect's; undefined tells each stream's from its lines. */
	dialect?: Dialect | undefined;
	/** Which sources are live, by the clock that stamps their timeless events as they arrive (Ingest). */
	arrivalClock?: ArrivalClock | undefined;
	hooks?: SourcesHooks | undefined;
	/** The model the views are to draw from now on: the first one, then each that replaces it. */
	onModel?: ((model: Model) => void) | undefined;
	/**
	 * Each line read on this thread as it is read (the inspector keeps what it cannot read again). Lines a
	 * worker or the fast path of plain files reads do not pass here: such files are read again by offset.
	 */
	onLine?: ((line: Line) => void) | undefined;
	/**
	 * The load reads nothing until this settles (the viewer passes its first frame), so that the first frame
	 * does not share the CPUs with it: on this thread it takes no chunk in; a worker is started then.
	 */
	mainThreadFrom?: Promise<void> | undefined;
	/** How much of tool results the model keeps (`Model.textKeep`); undefined keeps them whole. */
	textKeep?: TextKeep | undefined;
	/** Hand lines to the model as their events fall due (`--replay`): such a load stays on this thread. */
	replay?: Replay | undefined;
	/**
	 * The viewer's scheduler (slices/): a load in a worker puts what it is posted into the viewer's model on its
	 * timers, a part at a time, and takes turns with the views' work that reads the model in slices (the tree's
	 * layout, a job's figures): a post waits while such work is under way, and such work waits to begin while a
	 * post is part way in (held-posts.ts). Without it, posts go in on timers of their own.
	 */
	scheduler?: Scheduler | undefined;
};
