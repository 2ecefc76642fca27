import type {Job, Model, Pane, RuntimeInfo, Run, StepRecord} from '../../model/state.js';
import type {TextState} from '../../model/text-accumulator.js';
import type {PostedActivity} from './posted-activities.js';

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
/** `stepChanges` is the worker's note of what it has to post (change-tracker.ts). */
export type ModelRest = Omit<Model, Tracked | ReducerIndex | 'stepChanges'>;

/**
 * A list as posted: whole, or as what changed since it was last posted: its first `keep` items stay as the
 * viewer has them and `tail` follows them. Long lists (a run's steps, a pane's activities) mostly grow at
 * their end, so they post their new end rather than again whole.
 */
export type PostedList<T> = T[] | {keep: number; tail: T[]};

export type PostedStream = {step: number; reasoning: TextState; result: TextState; callReasoning: string | undefined; resultGeneration: boolean};

/**
 * Usage as posted: its counts in the order of `Usage`'s fields. Runs, panes and step records post as tuples rather
 * than objects: a structured clone writes every field's name with every object, which made most of a post of a
 * wide job (~900 bytes a run, ~370 as a tuple: docs/performance.md), and what is posted and not yet taken waits on
 * the port, encoded, in the process's memory.
 */
export type PostedUsage = [inputTokens: number, outputTokens: number, reasoningTokens: number, totalTokens: number, cachedInputTokens: number];

/** A step record as posted (see PostedUsage). */
export type PostedStep = [
	step: StepRecord['step'],
	startedAt: StepRecord['startedAt'],
	finishedAt: StepRecord['finishedAt'],
	usage: PostedUsage | undefined,
	checkpointId: StepRecord['checkpointId'],
	status: StepRecord['status'],
	messageLine: StepRecord['messageLine'],
	messageOffset: StepRecord['messageOffset'],
];

/**
 * A run as posted, a tuple of its fields (see PostedUsage): its streamed text as the state of its accumulators
 * (their private fields do not clone), its lists by what changed, and its steps-by-number index not at all (the
 * viewer rebuilds it from the steps, told only whether the run has one). The viewer writes a `Run` literal from
 * it, so a field added to `Run` is missed by neither side: the literal does not compile without it.
 */
export type PostedRun = [
	runId: Run['runId'],
	jobId: Run['jobId'],
	expertKey: Run['expertKey'],
	dialect: Run['dialect'],
	model: Run['model'],
	paneId: Run['paneId'],
	parentRunId: Run['parentRunId'],
	delegatingActivityId: Run['delegatingActivityId'],
	delegatedBy: Run['delegatedBy'],
	resumesRunId: Run['resumesRunId'],
	resumedByRunId: Run['resumedByRunId'],
	resumedFrom: Run['resumedFrom'],
	started: Run['started'],
	status: Run['status'],
	statusStep: Run['statusStep'],
	endedSteps: PostedList<number>,
	usage: PostedUsage,
	startedAt: Run['startedAt'],
	endedAt: Run['endedAt'],
	lastEventAt: Run['lastEventAt'],
	reportedDurationMs: Run['reportedDurationMs'],
	currentStep: Run['currentStep'],
	activityCount: Run['activityCount'],
	error: Run['error'],
	unsettled: PostedList<number>,
	closing: Run['closing'],
	pendingToolCallIds: PostedList<string>,
	childRunIds: PostedList<string>,
	adoptedBy: Run['adoptedBy'],
	closesCycle: Run['closesCycle'],
	query: Run['query'],
	steps: PostedList<PostedStep>,
	stepIndex: boolean,
	streams: Array<[number, PostedStream]>,
	messageSource: Run['messageSource'],
	rev: Run['rev'],
];

/** A pane as posted, a tuple of its fields (see PostedRun). */
export type PostedPane = [
	paneId: Pane['paneId'],
	jobId: Pane['jobId'],
	runIds: PostedList<string>,
	activityIndices: PostedList<number>,
	lastActivityId: Pane['lastActivityId'],
	depth: Pane['depth'],
	depthEpoch: Pane['depthEpoch'],
	rev: Pane['rev'],
];

export type PostedJob = Omit<Job, 'runIds'> & {runIds: PostedList<string>};

/** What changed in a model since the last post. */
export type ModelChanges = {
	/** New activities and replaced ones (the reducer never changes one in place), by index. */
	activityAt: number[];
	activities: PostedActivity[];
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
