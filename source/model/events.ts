/*
 * The one internal event shape. Each wire format is validated and normalised into this at the edge
 * (normalise.ts); the reducer and everything after it see nothing else.
 */

/**
 * The wire formats perscope reads, each by a reader of its own under parse/dialects/ (parse/dialects/registry.ts
 * says which are read). The order is the rows' (row-columns.ts): a name is only ever added at the end.
 */
export const dialects = ['perstack', 'drover', 'daemon', 'claude-code', 'codex', 'gemini', 'opencode', 'amp'] as const;

export type Dialect = (typeof dialects)[number];

export const runStatuses = [
	'init',
	'proceeding',
	'completed',
	'stoppedByInteractiveTool',
	'stoppedByDelegate',
	'stoppedByExceededMaxSteps',
	'stoppedByError',
] as const;

export type RunStatus = (typeof runStatuses)[number];

/** The statuses a run ends in: nothing of the run is still to come but what a late or repeated event brings. */
export const closedRunStatuses: ReadonlySet<RunStatus> = new Set<RunStatus>(['completed', 'stoppedByError', 'stoppedByExceededMaxSteps']);

export type Usage = {
	inputTokens: number;
	outputTokens: number;
	reasoningTokens: number;
	totalTokens: number;
	cachedInputTokens: number;
};

export type ToolCall = {
	id: string;
	skillName: string;
	toolName: string;
	args: unknown;
};

export type ToolResult = {
	id: string;
	skillName: string;
	toolName: string;
	text: string;
	/** The runtime does not flag tool errors: a result whose text is JSON with an `error` field is one. */
	error: string | undefined;
	/** The tool's own result, structured, where the runtime gives one beside the text (Claude Code's `tool_use_result`). */
	detail?: unknown;
};

/** Where an event came from, so its raw JSON can be read again on demand instead of being kept. */
export type EventRef = {
	source: string;
	line: number;
	offset: number;
};

export type CheckpointInfo = {
	id: string | undefined;
	runId: string | undefined;
	status: RunStatus;
	step: number | undefined;
	/** Tool call ids the checkpoint is waiting for or holds results of; they link a resumed run to the stopped one. */
	pendingToolCallIds: string[];
	partialResults: ToolResult[];
	delegateTo: Array<{toolCallId: string; expertKey: string; query: string | undefined}>;
	/**
	 * `runId` is absent in the released CLI (0.0.54): the parent is then the run that stopped at `checkpointId`
	 * (docs/model-rules.md, "Run segments").
	 */
	delegatedBy: {runId: string | undefined; expertKey: string | undefined; toolCallId: string | undefined; checkpointId: string | undefined} | undefined;
	/** Cumulative over the whole job, not per run. */
	usage: Usage | undefined;
};

export type StepEnding = 'continue' | 'stopByDelegate' | 'stopByInteractiveTool' | 'stopByExceededMaxSteps' | 'stopByError' | 'complete';

type Payload =
	| {
			kind: 'runtimeInit';
			expertName?: string;
			model?: string;
			runtimeVersion?: string;
			/** Where it runs (`local`, `docker`). */
			runtime?: string;
			maxSteps?: number;
			query?: string;
			answer?: {toolCallId: string; text: string};
	  }
	| {kind: 'runStart'; checkpoint: CheckpointInfo; query: string | undefined}
	/**
	 * `counted`: the step counts among the run's steps from its start, for runtimes whose steps have no end of
	 * their own (drover's turns, an agent CLI's model responses); Perstack's count when their checkpoint ends them.
	 * `messagesInLines`: what the model was given at the step is the lines of its run before this one, and what it
	 * added the lines after it (a Claude Code transcript's), not one line as Perstack's step end.
	 */
	| {kind: 'stepStart'; counted?: boolean; messagesInLines?: boolean}
	| {
			kind: 'toolCalls';
			as: 'tool' | 'delegate' | 'interactive';
			calls: ToolCall[];
			text: string | undefined;
			thinking: string | undefined;
			/** Perstack: what the generation that made the calls used; the step's end gives the step's whole usage. */
			generationUsage?: Usage;
	  }
	| {kind: 'toolResults'; results: ToolResult[]}
	| {
			kind: 'stepEnd';
			ending: StepEnding;
			checkpoint: CheckpointInfo;
			stepUsage: Usage | undefined;
			startedAt: number | undefined;
			finishedAt: number | undefined;
			text: string | undefined;
			error: {name: string; message: string} | undefined;
	  }
	| {kind: 'retry'; reason: string}
	| {kind: 'stream'; channel: 'reasoning' | 'result'; phase: 'start' | 'delta' | 'complete'; text: string}
	| {kind: 'usage'; usage: Usage}
	/**
	 * A run that starts outside Perstack's checkpoint protocol (drover, daemon, the agent CLIs): the event's run
	 * itself when `childRunId` is its `runId` (of the event's job, else of a job named after it), else a child of
	 * it, delegated by the call `viaToolCallId` when given (else by its latest delegation without a child). A
	 * `query` is the run's first activity.
	 */
	| {kind: 'childRunStart'; childRunId: string; childExpertKey: string; query: string | undefined; viaToolName: string | undefined; viaToolCallId?: string}
	/** What a person (or the runtime for them) asked the run, after it started. */
	| {kind: 'query'; text: string}
	/**
	 * What the runtime itself says some work cost, in US dollars, and the runs that work was: the job's cost is
	 * then these reports plus the price table's cost of its other runs (query/cost.ts).
	 */
	| {kind: 'reportedCost'; usd: number; runIds: string[]}
	/**
	 * The end of a run (drover's, the daemon's, an agent CLI's); `usage`, when present, is the run's whole usage;
	 * `durationMs`, how long the run took by its runtime's own count (Claude Code's and Amp's `result.duration_ms`),
	 * its duration where the stream gives it no times. A run it stops with no error before it has `errorName` as its
	 * error's name (`interrupted`; drover's `run_end` where it gives none).
	 */
	| {
			kind: 'runEnd';
			status: RunStatus;
			text: string | undefined;
			message: string | undefined;
			usage: Usage | undefined;
			durationMs?: number;
			errorName?: string;
	  }
	/** An error of the run; a `warning` (an agent CLI's notice that the run goes on after) is shown and does not fail it. */
	| {kind: 'runError'; name: string; message: string; warning?: boolean}
	| {kind: 'skill'; skillName: string; state: 'starting' | 'connected' | 'disconnected'; detail: SkillDetail}
	| {kind: 'skillStderr'; skillName: string; message: string}
	| {kind: 'docker'; service: string; stage: string | undefined; status: string | undefined; message: string | undefined; progress: number | undefined}
	| {kind: 'proxy'; action: string; domain: string; port: number | undefined; reason: string | undefined}
	/** Known, valid, and with nothing to show (finishToolCall, llm_call, …). */
	| {kind: 'marker'}
	/** Well-formed but of a type this version does not know: kept and counted, never fatal. */
	| {kind: 'unknown'};

export type SkillDetail = {
	command?: string;
	args?: string[];
	serverName?: string;
	serverVersion?: string;
	totalDurationMs?: number;
	connectDurationMs?: number;
};

export type AgentEvent = Payload & {
	dialect: Dialect;
	/** The event's type on the wire (`callTools`, `tool_call_start`, …). */
	wireType: string;
	id: string;
	jobId: string;
	runId: string;
	expertKey: string | undefined;
	step: number | undefined;
	timestamp: number | undefined;
	/**
	 * For the strategy daemon, which names agents rather than runs: the agent this event belongs to.
	 * The reducer resolves it to the agent's current child run.
	 */
	agent: string | undefined;
	ref: EventRef;
	/**
	 * Another event of a line that made an event before it (an agent CLI's line can say several things: a
	 * response's usage, its text and its tool calls): the model counts events as the lines that made them.
	 */
	continuesLine?: true;
};

export type Diagnostic = {
	line: number;
	source: string;
	reason: string;
};

/**
 * What one line is: an event, or a diagnostic. An event may carry a `note` too: something wrong with the line
 * that did not cost the event (a step number that is not one, read as none), reported like a bad line.
 */
export type ParsedLine = {kind: 'event'; event: AgentEvent; note?: Diagnostic} | {kind: 'diagnostic'; diagnostic: Diagnostic};
