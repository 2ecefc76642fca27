import type {Activity, Job, Model, Pane, RuntimeInfo, Run, StepRecord} from '../../model/state.js';
import type {TextState} from '../../model/text-accumulator.js';

/*
 * What the viewer's load worker posts of its model: only what changed since its last post (change-tracker.ts
 * makes it, apply-changes.ts puts it into the viewer's own model). A whole model posted by structured clone
 * copies every string and map key again each time, and the viewer's thread decodes all of it; a change costs
 * what changed.
 */

/**
 * The reducer's own indexes: what it looks events up in to link them (event ids to drop repeats, tool calls,
 * runs and children waiting for their parents, id collisions, the daemon's agents). The views read none of
 * them and the viewer's thread never reduces into a posted model, so they stay in the worker: they are the
 * largest part of a large model (every event id of a log).
 */
export const reducerIndexes = [
	'eventIds',
	'toolCalls',
	'orphanChildren',
	'runsAwaitingParent',
	'runSegments',
	'openStepUsage',
	'idRepeats',
	'daemonAgents',
	'daemonStepCounts',
] as const satisfies ReadonlyArray<keyof Model>;
export type ReducerIndex = (typeof reducerIndexes)[number];

/** The parts of a model posted by what changed in them; the rest of it (ModelRest) is small and posts whole. */
type Tracked = 'jobs' | 'runs' | 'panes' | 'activities' | 'activityIndexById' | 'runtime' | 'diagnostics';
export type ModelRest = Omit<Model, Tracked | ReducerIndex>;

/**
 * A list as posted: whole, or as what changed since it was last posted: its first `keep` items stay as the
 * viewer has them and `tail` follows them. Long lists (a run's steps, a pane's activities) mostly grow at
 * their end, so they post their new end rather than again whole.
 */
export type PostedList<T> = T[] | {keep: number; tail: T[]};

export type PostedStream = {step: number; reasoning: TextState; result: TextState; callReasoning: string | undefined; resultGeneration: boolean};

/**
 * A run as posted: its streamed text as the state of its accumulators (their private fields do not clone), its
 * lists by what changed, and its steps-by-number index not at all (the viewer rebuilds it from the steps). It
 * has the run's fields and no others, so that each side makes the other's by one spread: copying an object
 * less some fields (a rest pattern) is many times slower, and a load posts hundreds of thousands of runs.
 */
export type PostedRun = Omit<Run, 'streams' | 'steps' | 'stepIndex' | 'endedSteps' | 'unsettled' | 'pendingToolCallIds' | 'childRunIds'> & {
	streams: Array<[number, PostedStream]>;
	steps: PostedList<StepRecord>;
	/** Whether the run has one (the viewer makes its own from the steps). */
	stepIndex: true | undefined;
	endedSteps: PostedList<number>;
	unsettled: PostedList<number>;
	pendingToolCallIds: PostedList<string>;
	childRunIds: PostedList<string>;
};

export type PostedPane = Omit<Pane, 'runIds' | 'activityIndices'> & {runIds: PostedList<string>; activityIndices: PostedList<number>};
export type PostedJob = Omit<Job, 'runIds'> & {runIds: PostedList<string>};

/** What changed in a model since the last post. */
export type ModelChanges = {
	/** New activities and replaced ones (the reducer never changes one in place), by index. */
	activityAt: number[];
	activities: Activity[];
	/** Runs that are new or whose `rev` moved (it moves with every change to a run). */
	runs: PostedRun[];
	/** Panes that are new or whose `rev` moved, and the ids of panes merged away since. */
	panes: PostedPane[];
	removedPanes: string[];
	jobs: PostedJob[];
	runtime: Array<[string, RuntimeInfo]>;
	diagnostics: PostedList<Model['diagnostics'][number]>;
	rest: ModelRest;
};
