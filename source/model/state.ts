import type {Dialect, Diagnostic, EventRef, RunStatus, Usage} from './events.js';
import {TextAccumulator} from './text-accumulator.js';
import {createIdTable, type IdTable} from './id-table.js';
import type {PaneCalls} from './call-index.js';
import {SegmentIndex} from './run-segments.js';
import type {Store} from './storage/store.js';
import {SharedValuesById} from './storage/shared-values-by-id.js';

export const baseToolTypes = [
	'readTextFile',
	'readImageFile',
	'readPdfFile',
	'writeTextFile',
	'editTextFile',
	'appendTextFile',
	'deleteFile',
	'moveFile',
	'getFileInfo',
	'listDirectory',
	'createDirectory',
	'deleteDirectory',
	'exec',
	'todo',
	'clearTodo',
	'attemptCompletion',
] as const;

export type BaseToolType = (typeof baseToolTypes)[number];
export type ToolActivityType = BaseToolType | 'interactiveTool' | 'generalTool';
export type ActivityType = 'query' | 'complete' | 'error' | 'retry' | 'delegate' | 'delegationComplete' | ToolActivityType;

export const activityTypes: readonly ActivityType[] = [
	'query',
	'complete',
	'error',
	'retry',
	'delegate',
	'delegationComplete',
	'interactiveTool',
	'generalTool',
	...baseToolTypes,
];

export type ToolOutcome = {
	/** The result's text, or only its start when the model keeps no more (`Model.textKeep`): see `fullLength`. */
	readonly text: string;
	readonly error: string | undefined;
	/** The event that carried the result: where the whole text is read again from (load/result-text.ts). */
	readonly ref: EventRef;
	/** Set when `text` is only the start of the result: the whole text's length. */
	readonly fullLength?: number;
	/**
	 * The tool's own result, structured, for the inspector (`ToolResult.detail`); not kept with a result cut to its
	 * start (`Model.textKeep`).
	 */
	readonly detail?: unknown;
};

/*
 * Activities are immutable: a change makes a new object in its place (reduce/activities.ts, `updateActivity`), so
 * whatever is kept per activity object (search's folded text, say) never goes stale.
 */
type ActivityCommon = {
	readonly id: string;
	readonly expertKey: string;
	readonly runId: string;
	/** Previous activity of the same pane: a resumed run continues the chain of the run it resumes. */
	readonly previousActivityId: string | null;
	readonly delegatedBy: {expertKey: string; runId: string} | undefined;
	readonly reasoning: string | undefined;
	readonly step: number | undefined;
	readonly timestamp: number | undefined;
	/** The event that created the activity; its raw JSON is re-read from here for the inspector. */
	readonly ref: EventRef;
	/** Position in arrival order. */
	readonly seq: number;
	/**
	 * Whether the activity will not change its one-line form any more (a tool call has its result, or its
	 * step ended). Streaming printers hold back output until the oldest activity settles.
	 */
	readonly settled: boolean;
};

export type ToolActivity = ActivityCommon & {
	readonly type: ToolActivityType;
	readonly toolCallId: string;
	readonly skillName: string;
	readonly toolName: string;
	readonly args: unknown;
	/** Text the model wrote alongside the call (never streamed by the runtime). */
	readonly message: string | undefined;
	readonly result: ToolOutcome | undefined;
	/**
	 * An interactive call's answer that the runtime gave to another call of the step: a plain `-i` answer goes to
	 * the stopped step's first tool call, and the question is then asked again (docs/model-rules.md).
	 */
	readonly misroutedAnswer?: {readonly text: string; readonly toolName: string};
};

export type DelegateActivity = ActivityCommon & {
	readonly type: 'delegate';
	readonly toolCallId: string;
	readonly delegateExpertKey: string;
	readonly query: string;
	readonly message: string | undefined;
	readonly childRunIds: readonly string[];
	readonly result: ToolOutcome | undefined;
};

export type Activity =
	| (ActivityCommon & {readonly type: 'query'; readonly text: string})
	| (ActivityCommon & {readonly type: 'complete'; readonly text: string})
	| (ActivityCommon & {readonly type: 'error'; readonly errorName: string; readonly message: string})
	| (ActivityCommon & {readonly type: 'retry'; readonly reason: string})
	| (ActivityCommon & {
			readonly type: 'delegationComplete';
			readonly results: ReadonlyArray<{readonly toolCallId: string; readonly expertKey: string; readonly text: string}>;
	  })
	| ToolActivity
	| DelegateActivity;

export type StepRecord = {
	step: number;
	startedAt: number | undefined;
	finishedAt: number | undefined;
	usage: Usage | undefined;
	checkpointId: string | undefined;
	status: RunStatus | undefined;
	/**
	 * Where the step's messages can be read again (they are never kept): the line, 0 when none was seen, and its
	 * byte offset in the run's `messageSource`. See message-lines.ts. Set in the literal that makes a record
	 * (reduce/steps.ts, `stepRecord`), so they cost two fields and no object.
	 */
	messageLine?: number;
	messageOffset?: number;
};

export type StepStream = {
	step: number;
	reasoning: TextAccumulator;
	result: TextAccumulator;
	/**
	 * Perstack: the thinking of the step's tool-call generation, as its `callTools` message holds it. A step
	 * that ends in `attemptCompletion` has a second generation (the run result) whose reasoning streams later;
	 * only that one is the `complete` activity's.
	 */
	callReasoning: string | undefined;
	/** The step's `attemptCompletion` was accepted: what reasoning completes from now on is the run result's. */
	resultGeneration: boolean;
};

export type Run = {
	runId: string;
	jobId: string;
	expertKey: string;
	dialect: Dialect;
	/**
	 * The model its `initializeRuntime` named (Perstack gives every run one, resumed runs included), for what
	 * the run cost; undefined when none was seen (a job directory, drover, the daemon).
	 */
	model: string | undefined;
	/** The first run of its resume chain; all runs of a chain are shown as one pane. */
	paneId: string;
	parentRunId: string | null;
	delegatingActivityId: string | null;
	/** Shared by the children of one parent (see `delegatedByOf` in reduce/runs.ts): never changed in place. */
	delegatedBy: {expertKey: string; runId: string} | undefined;
	resumesRunId: string | null;
	resumedByRunId: string | null;
	/**
	 * A new run that started from a checkpoint of an earlier run (`--resume-from <checkpoint>` branches off a
	 * mid-run checkpoint; a `--continue-job` follow-up starts from the last one): where it started.
	 */
	resumedFrom: ResumedFrom | null;
	/** Whether a start event (startRun, run_start, …) was seen, as opposed to a run made up from a stray event. */
	started: boolean;
	status: RunStatus;
	/** Step of the checkpoint that set `status`; an older checkpoint arriving late does not override it. */
	statusStep: number;
	/** The steps it ended, sorted, each once: change it only through `addEndedStep` (run-collections.ts). */
	endedSteps: number[];
	usage: Usage;
	startedAt: number | undefined;
	endedAt: number | undefined;
	lastEventAt: number | undefined;
	/**
	 * How long the run took by its runtime's own count (`runEnd`'s `durationMs`): a stream whose lines carry no time
	 * (Claude Code 2.0, Amp) still says how long each turn took. Its duration where it has no times (`runDurationMs`).
	 */
	reportedDurationMs: number | undefined;
	currentStep: number | undefined;
	activityCount: number;
	error: {name: string; message: string} | undefined;
	/** Indices of this run's activities not yet settled: kept so settling a step does not rescan the run. */
	unsettled: number[];
	/**
	 * Which closing activities the run has made: `complete` (`closingComplete`), `error` (`closingError`). A run's
	 * end adds neither twice, and asks here rather than scanning its pane, which may have let them go
	 * (`Model.figuresOnly`).
	 */
	closing: number;
	/** Tool calls the run stopped on (delegations, interactive tools); they identify the run that resumes it. */
	pendingToolCallIds: string[];
	childRunIds: string[];
	/** The run whose `childRunIds` lists this one (see `adoptChild` in reduce/runs.ts), so adopting it again costs nothing. */
	adoptedBy: string | null;
	/**
	 * Its parent link would close a delegation cycle (a malformed log: A delegated by B, B by A): `parentRunId`
	 * still names the parent, but the link is not followed, and the run's pane is shown as a root, marked as a
	 * cycle (docs/model-rules.md).
	 */
	closesCycle: boolean;
	/** Its user query; not kept by a model that keeps figures only (`Model.figuresOnly`). */
	query: string | undefined;
	/** Its step records in the order they were made; find one by number with `stepRecordOf` (run-collections.ts). */
	steps: StepRecord[];
	/** The same records by step number, made only once a step came out of order (see `stepRecordOf`). */
	stepIndex: Map<number, StepRecord> | undefined;
	/** Streams of the latest few steps, by step; older ones are dropped once their text is in activities. */
	streams: Map<number, StepStream>;
	/**
	 * The source of the lines its step records point to for their messages (`StepRecord.messageLine`): a run's
	 * events come from one input (in a job directory, from one folder of event files).
	 */
	messageSource: string | undefined;
	/** Changes whenever anything about the run changes, so views can skip unchanged panes. */
	rev: number;
};

/** What is known when the input ends: with `-- command`, how the command exited and the last line it wrote to stderr. */
export type InputEnd = {exitCode: number | undefined; lastStderr: string | undefined};

export type ResumedFrom = {runId: string; checkpointId: string | null; stepNumber: number | null};

export type Pane = {
	paneId: string;
	jobId: string;
	runIds: string[];
	/** Indices into `Model.activities`, in chain order. */
	activityIndices: number[];
	lastActivityId: string | null;
	/**
	 * Delegation depth as last worked out (0 for a root: see `paneDepth` in depth.ts), valid while `depthEpoch`
	 * equals the model's. Read it through `paneDepth`.
	 */
	depth: number;
	depthEpoch: number;
	rev: number;
};

export type Job = {
	jobId: string;
	/** Runs in the order they started. */
	runIds: string[];
	firstSeenAt: number | undefined;
	lastEventAt: number | undefined;
	model: string | undefined;
	maxSteps: number | undefined;
	runtimeVersion: string | undefined;
	/** Where the runtime ran the job (`local`, `docker`), as its last `initializeRuntime` said: a continuation runs there too. */
	runtimeName: string | undefined;
	/**
	 * What the runtime reported the job's work cost (`reportedCost` events, added up), and the runs it covers;
	 * `byRun`, what the reports that named one run alone said of it, added up (opencode reports each step's cost for
	 * its run): that run's own cost where the price table has none (query/cost.ts). Undefined when it reported
	 * none. Replaced, never changed in place.
	 */
	reportedCost: {usd: number; runIds: ReadonlySet<string>; byRun: ReadonlyMap<string, number>} | undefined;
};

export type SkillState = {
	skillName: string;
	state: 'starting' | 'connected' | 'disconnected';
	command: string | undefined;
	args: string[] | undefined;
	serverName: string | undefined;
	serverVersion: string | undefined;
	connectMs: number | undefined;
	stderr: string[];
	stderrCount: number;
	updatedAt: number | undefined;
	/** The states it went through, oldest first: the last `maxSkillTransitions` of them. */
	transitions: SkillTransition[];
	/** How many states it went through in all, kept or not. */
	transitionCount: number;
};

export type SkillTransition = {
	state: SkillState['state'];
	at: number | undefined;
	/** For `connected`: how long connecting took. */
	connectMs: number | undefined;
};

export type DockerState = {
	service: string;
	stage: string | undefined;
	status: string | undefined;
	message: string | undefined;
	progress: number | undefined;
	updatedAt: number | undefined;
};

export type ProxyState = {
	allowed: number;
	blocked: number;
	last: {action: string; domain: string; port: number | undefined; reason: string | undefined} | undefined;
};

export type RuntimeInfo = {
	expertName: string | undefined;
	model: string | undefined;
	query: string | undefined;
	answer: {toolCallId: string; text: string} | undefined;
};

/** `Model.runtime`: a Map reads as one. The reducer alone writes. */
export type RuntimeStore = ReadonlyMap<string, RuntimeInfo> & {set(id: string, info: RuntimeInfo): void};

export const maxStoredDiagnostics = 10_000;
export const maxSkillStderrLines = 50;
/** A skill that reconnects again and again keeps its last this many states, not all of them. */
export const maxSkillTransitions = 20;
/** A kept stderr line is cut to this many characters: the count of lines is bounded, so must their length be. */
export const maxSkillStderrLineLength = 4000;
/** Distinct unknown event types counted by name; beyond this they are counted together under `otherUnknownTypes`. */
export const maxUnknownTypes = 1000;
export const maxUnknownTypeLength = 200;
export const otherUnknownTypes = '(other types)';

export type Model = {
	jobs: Map<string, Job>;
	/** Runs by id, in the order they were first seen: whole objects, or views of records (see `Store`). */
	runs: Store<Run>;
	/** Panes by id, as `runs`. */
	panes: Store<Pane>;
	/** Every activity in arrival order. */
	activities: Activity[];
	activityIndexById: Map<string, number>;
	/** Tool calls' activity indices by pane, then by tool call id (see `callIndex` in reduce/activities.ts): ids repeat across a job's runs. */
	toolCalls: Map<string, PaneCalls>;
	skills: Map<string, SkillState>;
	docker: Map<string, DockerState>;
	proxy: ProxyState;
	/**
	 * Per run, what its initializeRuntime said (it arrives before the run's startRun): a Map, or in a model that
	 * keeps figures only, where most runs' say the same, a table that keeps each such value once (`keepFiguresOnly`).
	 */
	runtime: RuntimeStore;
	/**
	 * Child runs that started before the activity that delegated them was seen, by parent run and tool call id:
	 * one child's id, or a list of them. Most wait alone, and a list of one would cost more than the id.
	 */
	orphanChildren: Map<string, Map<string, string | string[]>>;
	/**
	 * Runs whose parent run was not seen yet, by the parent's runId: the parent adopts them when it
	 * appears. Indexed so that adopting costs nothing per run (a scan of all runs made loading quadratic).
	 */
	runsAwaitingParent: Map<string, string[]>;
	/**
	 * Per run whose step has not ended: what that step's generation used so far (`callTools.usage`), counted in
	 * the run's usage until the step's end gives the step's whole usage. A run killed mid-step keeps it counted.
	 */
	openStepUsage: Map<string, {step: number; usage: Usage}>;
	/** Run ids the released Perstack CLI used for several runs, and how its children find their parents (run-segments.ts). */
	runSegments: SegmentIndex;
	/** For activity ids that collided: the last `#n` suffix given, so the next collision does not count up from 2. */
	idRepeats: Map<string, number>;
	/** strategy daemon: `${runId}\u0000${agent}` → the agent's current child run. */
	daemonAgents: Map<string, string>;
	daemonStepCounts: Map<string, number>;
	events: number;
	unknownEvents: Map<string, number>;
	diagnostics: Diagnostic[];
	diagnosticCount: number;
	firstTimestamp: number | undefined;
	lastTimestamp: number | undefined;
	rev: number;
	/**
	 * Where a reader asked for it (the headless transcripts): the seq of every activity changed after it was
	 * made, in the order of the changes. A transcript writes an activity once it is final, and learns here
	 * which ones became final with the event just reduced. The reader empties it; nobody else keeps it.
	 */
	changes: number[] | undefined;
	/** Where a reader asked for it (`--print`): the runs whose status changed, in the order of the changes. The reader empties it. */
	statusChanges: string[] | undefined;
	/**
	 * Where a reader asked for it (the viewer's load worker: load/viewer/change-tracker.ts): per run, where in its
	 * `steps` the first step record is that the reducer handed out to change since the reader last emptied it. Step
	 * records are changed in place (reduce/steps.ts, `stepRecord`), and the reader posts a long list of them from
	 * there on rather than comparing every record with a copy of itself. The reader empties it; nobody else keeps it.
	 */
	stepChanges: Map<string, number> | undefined;
	/** Ids of the Perstack events reduced so far, streaming events aside (see `isRepeatedEvent`). */
	eventIds: IdTable;
	/** Set once every input has ended (see `endInput`): what still waits then will wait for ever. */
	inputEnd: InputEnd | undefined;
	/** Moves whenever a run gets a parent (linked, or adopted once its parent appears) or joins a pane: what is derived from the tree's shape is stale then. */
	treeRev: number;
	/** Moves when a link changes the depth of panes already in the tree: every `Pane.depth` is stale then. */
	depthEpoch: number;
	/**
	 * How much of a tool result's text the model keeps; undefined keeps it whole. A reader that has the input
	 * at hand to read a result again by its event (the viewer) or shows none (the summaries) sets it before the
	 * first event, so a log of a million tool calls does not hold every output (docs/performance.md). At a
	 * limit of 0 a tool call's arguments are not kept either (`args` is undefined): only the summaries, which
	 * show neither, ask for that.
	 */
	textKeep: TextKeep | undefined;
	/**
	 * true where a reader shows no activity, only per-run and per-job figures (the summaries, `--conversation`),
	 * set before the first event (`keepFiguresOnly`). Such a model lets an activity go once the reducer will not
	 * consult it again: a query, a completion, an error, a retry or a delegation's completion as it is made, and a
	 * tool call once it has its result. A call's slot in `activities` then holds `releasedActivity`; those let go as
	 * they were made take no slot (`activities` and `seq`s count only the others). A pane does not
	 * list those let go as they were made, nor a call let go while it was the pane's last. What the reducer decides by stays: a call's entry in `toolCalls` (so a repeated
	 * call or a late result still finds it), delegations (their children link to them), calls that wait for a
	 * result, and each run's `activityCount` and `closing`. A step record keeps only where the step's messages are
	 * (`--conversation` reads them again), not its times, usage, checkpoint or status; a run, not its query. Past a
	 * few thousand runs, closed runs and their panes are kept as records in columns (model/storage/), which
	 * `runs` and `panes` give as views. Figures come out the same as with everything kept.
	 */
	figuresOnly: boolean;
	/**
	 * false where a model that keeps figures only is read by a summary, which never reads a step's messages again
	 * (`keepNoMessageLines`): then a run keeps the record of its first step only (reduce/steps.ts), as a
	 * figures-only record holds only where the step's messages are. One run of 500,000 calls kept ~100 bytes a
	 * step for them (docs/performance.md).
	 */
	messageLines: boolean;
	/**
	 * From how many runs on a model that keeps figures only keeps its closed runs as records (model/storage/):
	 * records cost every event a little (a run is found by its id in bytes, taken out of its record and put back),
	 * which a log of some tens of thousands of runs, whose runs cost little whole, would pay for nothing. Measured
	 * (docs/performance.md): at 32,768 the agent CLIs' streams of 6,700 (Claude Code) and 27,000 (Codex) runs take a
	 * quarter less CPU than at 4,096 for the same peak RSS, and the wide job of 200,000 runs peaks no higher; at
	 * 65,536 that job peaked ~50 MB higher (its first runs all whole when the records start).
	 */
	recordsFrom: number;
	/** Characters of tool results kept whole so far, against `textKeep.wholeBudget`. */
	keptWholeText: number;
	/** Tool results of which only the start is kept: search and filters see that start only. */
	cutResults: number;
};

/**
 * What the model keeps of tool results' text: results are kept whole until `wholeBudget` characters of them
 * are, then only their first `limit` characters. Which results are cut depends only on the order of the
 * lines, so the same bytes give the same model however they arrive.
 */
export type TextKeep = {limit: number; wholeBudget: number};

/** See `Model.recordsFrom`. */
const defaultRecordsFrom = 32_768;

/**
 * The event ids' table grows at seven eighths full (see `createIdTable`), not three quarters: 880,000 ids (20,000
 * small jobs) then fit in 1,048,576 slots instead of twice as many, 5 MB less, for probes a few tag bytes longer,
 * which sit side by side in one array (docs/performance.md).
 */
const eventIdsFill = 7;

export function createModel(): Model {
	return {
		jobs: new Map(),
		runs: new Map(),
		panes: new Map(),
		activities: [],
		activityIndexById: new Map(),
		toolCalls: new Map(),
		skills: new Map(),
		docker: new Map(),
		proxy: {allowed: 0, blocked: 0, last: undefined},
		runtime: new Map(),
		orphanChildren: new Map(),
		runsAwaitingParent: new Map(),
		openStepUsage: new Map(),
		runSegments: new SegmentIndex(),
		idRepeats: new Map(),
		daemonAgents: new Map(),
		daemonStepCounts: new Map(),
		events: 0,
		unknownEvents: new Map(),
		diagnostics: [],
		diagnosticCount: 0,
		firstTimestamp: undefined,
		lastTimestamp: undefined,
		rev: 0,
		changes: undefined,
		statusChanges: undefined,
		stepChanges: undefined,
		treeRev: 0,
		depthEpoch: 0,
		eventIds: createIdTable(false, 1024, eventIdsFill),
		inputEnd: undefined,
		textKeep: undefined,
		figuresOnly: false,
		messageLines: true,
		recordsFrom: defaultRecordsFrom,
		keptWholeText: 0,
		cutResults: 0,
	};
}

/**
 * For a reader that shows per-run and per-job figures only (the summaries, `--conversation`), before the first
 * event: the model keeps no tool output or arguments (`textKeep`) and lets activities go and keeps of a step only where its messages are (`figuresOnly`).
 * `recordsFrom` (`Model.recordsFrom`) is for the tests that hold runs kept as records to runs kept whole: 0 keeps
 * them as records from the first run on, Infinity never.
 */
export function keepFiguresOnly(model: Model, recordsFrom = defaultRecordsFrom): void {
	model.textKeep = {limit: 0, wholeBudget: 0};
	model.figuresOnly = true;
	model.recordsFrom = recordsFrom;
	const runtime = new SharedValuesById<RuntimeInfo>(runtimeShareKey);
	for (const [runId, info] of model.runtime) runtime.set(runId, info);
	model.runtime = runtime;
}

/**
 * What a figures-only model's runtime infos are kept once by (`Model.runtime`): those that name no expert and carry
 * no answer, by their model and query, which there is a stand-in (reduce/runtime.ts, `runtimeInfo`).
 */
function runtimeShareKey(info: RuntimeInfo): string | undefined {
	if (info.expertName !== undefined || info.answer !== undefined) return undefined;
	return `${info.model === undefined ? '-' : `=${info.model}`}\u0000${info.query === undefined ? '-' : `=${info.query}`}`;
}

/**
 * For the summaries, after `keepFiguresOnly` and before the first event: nothing will ask where a step's messages
 * are (`--conversation` does, and keeps them), so a run keeps its first step's record only (`Model.messageLines`).
 */
export function keepNoMessageLines(model: Model): void {
	model.messageLines = false;
}

/** Whether the reducer makes a record for each step (`Run.steps`): a summary's model makes a run's first only. */
export function keepsStepRecords(model: Model): boolean {
	return !model.figuresOnly || model.messageLines;
}

export const closingComplete = 1;
export const closingError = 2;

/**
 * What stands in `Model.activities` for an activity let go (see `Model.figuresOnly`): one shared object for
 * all of them, whose fields say nothing about the activity it stands for. Only a model that lets activities go
 * holds it, and only the reducer meets it there.
 */
export const releasedActivity: Activity = Object.freeze({
	id: '',
	expertKey: '',
	runId: '',
	previousActivityId: null,
	delegatedBy: undefined,
	reasoning: undefined,
	step: undefined,
	timestamp: undefined,
	ref: Object.freeze({source: '', line: 0, offset: 0}),
	seq: -1,
	settled: true,
	type: 'generalTool',
	toolCallId: '',
	skillName: '',
	toolName: '',
	args: undefined,
	message: undefined,
	// A result, so that nothing waiting for one takes the stand-in for a call still open.
	result: Object.freeze({text: '', error: undefined, ref: Object.freeze({source: '', line: 0, offset: 0})}),
});

/**
 * Every input has ended: nothing more will come (see `endedWhileWaiting` in tree.ts). Kept beside the model's
 * shape rather than in reduce.ts, so the viewer's thread can say it without loading the reducer.
 */
export function endInput(model: Model, end: InputEnd): void {
	model.inputEnd = end;
	model.rev++;
	for (const run of model.runs.values()) if (run.status === 'stoppedByDelegate') run.rev++;
}

/**
 * A command joined the input after it had ended (the viewer carrying a job on): what waited is waiting again,
 * until `endInput` says otherwise.
 */
export function reopenInput(model: Model): void {
	if (model.inputEnd === undefined) return;
	model.inputEnd = undefined;
	model.rev++;
	for (const run of model.runs.values()) if (run.status === 'stoppedByDelegate') run.rev++;
}

/** A kind of activity added later is no tool call until it is listed here. */
const toolActivityTypes: ReadonlySet<ActivityType> = new Set<ToolActivityType>([...baseToolTypes, 'interactiveTool', 'generalTool']);

export function isToolActivity(activity: Activity): activity is ToolActivity {
	return toolActivityTypes.has(activity.type);
}
