import {runStatuses, type Dialect, type RunStatus, type Usage} from './events.js';
import {sharedEmptyList, sharedStreams} from './run-collections.js';
import type {Pane, ResumedFrom, Run, StepRecord, StepStream} from './state.js';

/*
 * Where a model that keeps figures only (`Model.figuresOnly`) keeps its runs and panes. A wide job has hundreds of
 * thousands of runs that closed long ago: each as a `Run` object with its step record and its `Pane` cost several
 * times what its figures do. Here a run that closed (and waits for nothing: see `compactable`) is kept as a row
 * of numbered columns, its pane and its one step record folded into it, and strings that repeat (job ids, parent
 * ids) kept once. `model.runs` and `model.panes` stay Maps to their readers: `get` of a compact run or pane gives
 * a view of its row (a small object whose fields read the columns), and iteration gives the same in the same
 * order as a Map of objects would. The reducer takes a run or a pane out of its row as a whole object again with
 * `liveRun`/`livePane` before changing it (the same object each time, exactly what it would have been), and
 * `compactTouched` puts whatever it touched back in rows after each event.
 *
 * Runs and panes share their numbering: a pane is made with the run of its id (reduce.ts, `newRun`), and is only
 * ever deleted, never made again, so the panes' order is the runs' order without the panes deleted.
 */

/** What a slot holds: nothing (deleted), a whole object, or a row of the columns. */
const absent = 0;
const whole = 1;
const row = 2;

const dialects: readonly Dialect[] = ['perstack', 'drover', 'daemon'];

/** Statuses after which a run changes only through rare events (a late delegation, a repeated log). */
const closedStatuses: ReadonlySet<RunStatus> = new Set<RunStatus>(['completed', 'stoppedByError', 'stoppedByExceededMaxSteps']);

// The bits of a row's flags.
const dialectShift = 0;
const statusShift = 2;
const closingShift = 6;
const startedBit = 1 << 8;
const closesCycleBit = 1 << 9;
const ownPaneBit = 1 << 10;
const hasStepBit = 1 << 11;
const startedAtBit = 1 << 12;
const endedAtBit = 1 << 13;
const lastEventAtBit = 1 << 14;
const currentStepBit = 1 << 15;

/** Values kept once each, by value for strings and by identity for objects; -1 stands for null or undefined. */
class Interned<T> {
	readonly #values: T[] = [];
	readonly #index = new Map<T, number>();

	of(value: T | null | undefined): number {
		if (value === null || value === undefined) return -1;
		let index = this.#index.get(value);
		if (index === undefined) {
			index = this.#values.length;
			this.#values.push(value);
			this.#index.set(value, index);
		}

		return index;
	}

	at(index: number): T | undefined {
		return index < 0 ? undefined : this.#values[index];
	}
}

function isInt32(value: number): boolean {
	return (value | 0) === value;
}

export class RunRows {
	/** Every run's slot, in the order the runs were added: the order of `model.runs`. */
	readonly slots = new Map<string, number>();
	runState = new Uint8Array(1024);
	paneState = new Uint8Array(1024);
	runCount = 0;
	paneCount = 0;
	readonly runs: Array<Run | undefined> = [];
	readonly panes: Array<Pane | undefined> = [];
	/** Slots the reducer touched during the current event: put back in rows when it ends. */
	touched: number[] = [];
	touchedFlag = new Uint8Array(1024);

	// The columns of runs kept as rows.
	flags = new Int32Array(1024);
	jobId = new Int32Array(1024);
	model = new Int32Array(1024);
	paneId = new Int32Array(1024);
	parentRunId = new Int32Array(1024);
	delegatingActivityId = new Int32Array(1024);
	delegatedBy = new Int32Array(1024);
	resumesRunId = new Int32Array(1024);
	resumedByRunId = new Int32Array(1024);
	resumedFrom = new Int32Array(1024);
	error = new Int32Array(1024);
	adoptedBy = new Int32Array(1024);
	messageSource = new Int32Array(1024);
	activityCount = new Int32Array(1024);
	rev = new Int32Array(1024);
	step = new Int32Array(1024);
	messageLine = new Int32Array(1024);
	statusStep = new Float64Array(1024);
	startedAt = new Float64Array(1024);
	endedAt = new Float64Array(1024);
	lastEventAt = new Float64Array(1024);
	currentStep = new Float64Array(1024);
	messageOffset = new Float64Array(1024);
	readonly expertKey: string[] = [];
	readonly usage: Usage[] = [];
	readonly endedSteps: number[][] = [];
	readonly childRunIds: string[][] = [];

	// The columns of panes kept as rows.
	paneJobId = new Int32Array(1024);
	paneLastActivityId = new Int32Array(1024);
	paneDepth = new Int32Array(1024);
	paneDepthEpoch = new Int32Array(1024);
	paneRev = new Int32Array(1024);

	readonly strings = new Interned<string>();
	readonly delegations = new Interned<{expertKey: string; runId: string}>();
	readonly resumes = new Interned<ResumedFrom>();
	readonly errors = new Interned<{name: string; message: string}>();

	/** The slot of a new run. */
	add(id: string): number {
		const slot = this.runs.length;
		if (slot === this.runState.length) this.#grow();
		this.slots.set(id, slot);
		this.runs.push(undefined);
		this.panes.push(undefined);
		this.expertKey.push('');
		this.usage.push(emptyUsage);
		this.endedSteps.push(sharedEmptyList());
		this.childRunIds.push(sharedEmptyList());
		return slot;
	}

	touch(slot: number): void {
		if (this.touchedFlag[slot] === 1) return;
		this.touchedFlag[slot] = 1;
		this.touched.push(slot);
	}

	/** The run of a slot as a whole object, taken out of its row if it was in one. */
	wholeRun(slot: number, id: string): Run | undefined {
		const state = this.runState[slot];
		if (state === whole) return this.runs[slot];
		if (state !== row) return undefined;
		const run = this.#runFromRow(slot, id);
		this.runs[slot] = run;
		this.runState[slot] = whole;
		// The row's references go, so that what the run lets go of later is not kept here.
		this.expertKey[slot] = '';
		this.usage[slot] = emptyUsage;
		this.endedSteps[slot] = sharedEmptyList();
		this.childRunIds[slot] = sharedEmptyList();
		return run;
	}

	wholePane(slot: number, id: string): Pane | undefined {
		const state = this.paneState[slot];
		if (state === whole) return this.panes[slot];
		if (state !== row) return undefined;
		const pane = this.#paneFromRow(slot, id);
		this.panes[slot] = pane;
		this.paneState[slot] = whole;
		return pane;
	}

	/** Puts the runs and panes touched during an event back in rows where they can be. */
	compactTouched(): void {
		for (const slot of this.touched) {
			this.touchedFlag[slot] = 0;
			if (this.runState[slot] === whole) this.#runToRow(slot);
			if (this.paneState[slot] === whole) this.#paneToRow(slot);
		}

		this.touched = [];
	}

	runView(slot: number, id: string): Run | undefined {
		const state = this.runState[slot];
		if (state === whole) return this.runs[slot];
		return state === row ? new RunView(this, slot, id) : undefined;
	}

	paneView(slot: number, id: string): Pane | undefined {
		const state = this.paneState[slot];
		if (state === whole) return this.panes[slot];
		return state === row ? new PaneView(this, slot, id) : undefined;
	}

	hasFlag(slot: number, bit: number): boolean {
		return (this.flags[slot]! & bit) !== 0;
	}

	optional(slot: number, bit: number, column: Float64Array): number | undefined {
		return this.hasFlag(slot, bit) ? column[slot] : undefined;
	}

	stepRecords(slot: number): StepRecord[] {
		if (!this.hasFlag(slot, hasStepBit)) return sharedEmptyList();
		return [stepRecordLiteral(this.step[slot]!, this.messageLine[slot]!, this.messageOffset[slot]!)];
	}

	#runFromRow(slot: number, id: string): Run {
		const flags = this.flags[slot]!;
		return {
			runId: id,
			jobId: this.strings.at(this.jobId[slot]!) ?? '',
			expertKey: this.expertKey[slot]!,
			dialect: dialects[(flags >> dialectShift) & 3] ?? 'perstack',
			model: this.strings.at(this.model[slot]!),
			paneId: (flags & ownPaneBit) === 0 ? (this.strings.at(this.paneId[slot]!) ?? id) : id,
			parentRunId: this.strings.at(this.parentRunId[slot]!) ?? null,
			delegatingActivityId: this.strings.at(this.delegatingActivityId[slot]!) ?? null,
			delegatedBy: this.delegations.at(this.delegatedBy[slot]!),
			resumesRunId: this.strings.at(this.resumesRunId[slot]!) ?? null,
			resumedByRunId: this.strings.at(this.resumedByRunId[slot]!) ?? null,
			resumedFrom: this.resumes.at(this.resumedFrom[slot]!) ?? null,
			started: (flags & startedBit) !== 0,
			status: runStatuses[(flags >> statusShift) & 15] ?? 'init',
			statusStep: this.statusStep[slot]!,
			endedSteps: this.endedSteps[slot]!,
			usage: this.usage[slot]!,
			startedAt: this.optional(slot, startedAtBit, this.startedAt),
			endedAt: this.optional(slot, endedAtBit, this.endedAt),
			lastEventAt: this.optional(slot, lastEventAtBit, this.lastEventAt),
			currentStep: this.optional(slot, currentStepBit, this.currentStep),
			activityCount: this.activityCount[slot]!,
			unsettled: sharedEmptyList(),
			closing: (flags >> closingShift) & 3,
			error: this.errors.at(this.error[slot]!),
			pendingToolCallIds: sharedEmptyList(),
			childRunIds: this.childRunIds[slot]!,
			adoptedBy: this.strings.at(this.adoptedBy[slot]!) ?? null,
			closesCycle: (flags & closesCycleBit) !== 0,
			query: undefined,
			steps: this.stepRecords(slot),
			stepIndex: undefined,
			streams: sharedStreams,
			messageSource: this.strings.at(this.messageSource[slot]!),
			rev: this.rev[slot]!,
		};
	}

	#runToRow(slot: number): void {
		const run = this.runs[slot];
		if (!run || !compactable(run) || this.slots.get(run.runId) !== slot) return;
		const record = run.steps[0];
		let flags =
			(dialects.indexOf(run.dialect) << dialectShift) |
			(runStatuses.indexOf(run.status) << statusShift) |
			(run.closing << closingShift) |
			(run.started ? startedBit : 0) |
			(run.closesCycle ? closesCycleBit : 0);
		if (run.paneId === run.runId) flags |= ownPaneBit;
		else this.paneId[slot] = this.strings.of(run.paneId);
		if (record) {
			flags |= hasStepBit;
			this.step[slot] = record.step;
			this.messageLine[slot] = record.messageLine ?? 0;
			this.messageOffset[slot] = record.messageOffset ?? 0;
		}

		flags |= this.#setOptional(slot, run.startedAt, startedAtBit, this.startedAt);
		flags |= this.#setOptional(slot, run.endedAt, endedAtBit, this.endedAt);
		flags |= this.#setOptional(slot, run.lastEventAt, lastEventAtBit, this.lastEventAt);
		flags |= this.#setOptional(slot, run.currentStep, currentStepBit, this.currentStep);
		this.flags[slot] = flags;
		this.jobId[slot] = this.strings.of(run.jobId);
		this.model[slot] = this.strings.of(run.model);
		this.parentRunId[slot] = this.strings.of(run.parentRunId);
		this.delegatingActivityId[slot] = this.strings.of(run.delegatingActivityId);
		this.delegatedBy[slot] = this.delegations.of(run.delegatedBy);
		this.resumesRunId[slot] = this.strings.of(run.resumesRunId);
		this.resumedByRunId[slot] = this.strings.of(run.resumedByRunId);
		this.resumedFrom[slot] = this.resumes.of(run.resumedFrom);
		this.error[slot] = this.errors.of(run.error);
		this.adoptedBy[slot] = this.strings.of(run.adoptedBy);
		this.messageSource[slot] = this.strings.of(run.messageSource);
		this.activityCount[slot] = run.activityCount;
		this.rev[slot] = run.rev;
		this.statusStep[slot] = run.statusStep;
		this.expertKey[slot] = run.expertKey;
		this.usage[slot] = run.usage;
		this.endedSteps[slot] = run.endedSteps;
		this.childRunIds[slot] = run.childRunIds;
		this.runs[slot] = undefined;
		this.runState[slot] = row;
	}

	#setOptional(slot: number, value: number | undefined, bit: number, column: Float64Array): number {
		if (value === undefined) return 0;
		column[slot] = value;
		return bit;
	}

	#paneFromRow(slot: number, id: string): Pane {
		return {
			paneId: id,
			jobId: this.strings.at(this.paneJobId[slot]!) ?? '',
			runIds: [id],
			activityIndices: sharedEmptyList(),
			lastActivityId: this.strings.at(this.paneLastActivityId[slot]!) ?? null,
			depth: this.paneDepth[slot]!,
			depthEpoch: this.paneDepthEpoch[slot]!,
			rev: this.paneRev[slot]!,
		};
	}

	#paneToRow(slot: number): void {
		const pane = this.panes[slot];
		if (!pane || this.slots.get(pane.paneId) !== slot) return;
		if (pane.runIds.length !== 1 || pane.runIds[0] !== pane.paneId || pane.activityIndices !== sharedEmptyList()) return;
		if (!isInt32(pane.depth) || !isInt32(pane.depthEpoch) || !isInt32(pane.rev)) return;
		this.paneJobId[slot] = this.strings.of(pane.jobId);
		this.paneLastActivityId[slot] = this.strings.of(pane.lastActivityId);
		this.paneDepth[slot] = pane.depth;
		this.paneDepthEpoch[slot] = pane.depthEpoch;
		this.paneRev[slot] = pane.rev;
		this.panes[slot] = undefined;
		this.paneState[slot] = row;
	}

	#grow(): void {
		const size = this.runState.length * 2;
		const grown = <A extends Int32Array | Float64Array | Uint8Array>(array: A, make: (length: number) => A): A => {
			const copy = make(size);
			copy.set(array);
			return copy;
		};

		const int32 = (length: number) => new Int32Array(length);
		const float64 = (length: number) => new Float64Array(length);
		const uint8 = (length: number) => new Uint8Array(length);
		this.runState = grown(this.runState, uint8);
		this.paneState = grown(this.paneState, uint8);
		this.touchedFlag = grown(this.touchedFlag, uint8);
		this.flags = grown(this.flags, int32);
		this.jobId = grown(this.jobId, int32);
		this.model = grown(this.model, int32);
		this.paneId = grown(this.paneId, int32);
		this.parentRunId = grown(this.parentRunId, int32);
		this.delegatingActivityId = grown(this.delegatingActivityId, int32);
		this.delegatedBy = grown(this.delegatedBy, int32);
		this.resumesRunId = grown(this.resumesRunId, int32);
		this.resumedByRunId = grown(this.resumedByRunId, int32);
		this.resumedFrom = grown(this.resumedFrom, int32);
		this.error = grown(this.error, int32);
		this.adoptedBy = grown(this.adoptedBy, int32);
		this.messageSource = grown(this.messageSource, int32);
		this.activityCount = grown(this.activityCount, int32);
		this.rev = grown(this.rev, int32);
		this.step = grown(this.step, int32);
		this.messageLine = grown(this.messageLine, int32);
		this.statusStep = grown(this.statusStep, float64);
		this.startedAt = grown(this.startedAt, float64);
		this.endedAt = grown(this.endedAt, float64);
		this.lastEventAt = grown(this.lastEventAt, float64);
		this.currentStep = grown(this.currentStep, float64);
		this.messageOffset = grown(this.messageOffset, float64);
		this.paneJobId = grown(this.paneJobId, int32);
		this.paneLastActivityId = grown(this.paneLastActivityId, int32);
		this.paneDepth = grown(this.paneDepth, int32);
		this.paneDepthEpoch = grown(this.paneDepthEpoch, int32);
		this.paneRev = grown(this.paneRev, int32);
	}
}

const emptyUsage: Usage = Object.freeze({inputTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 0, cachedInputTokens: 0});

/** A step record as the reducer makes it in a model that keeps figures only: where its messages are, nothing else. */
function stepRecordLiteral(step: number, messageLine: number, messageOffset: number): StepRecord {
	return {step, startedAt: undefined, finishedAt: undefined, usage: undefined, checkpointId: undefined, status: undefined, messageLine, messageOffset};
}

/**
 * Whether a run can be kept as a row: it closed, it waits for nothing and streams nothing, and every field has a
 * place in the columns. What has none (a second step record, a step record with more than where its messages
 * are) keeps the run whole: rows are a saving, never a change.
 */
function compactable(run: Run): boolean {
	if (!closedStatuses.has(run.status) || run.query !== undefined || run.stepIndex !== undefined || run.streams !== sharedStreams) return false;
	if (run.unsettled !== sharedEmptyList() || run.pendingToolCallIds !== sharedEmptyList()) return false;
	if (!isInt32(run.activityCount) || !isInt32(run.rev) || run.closing < 0 || run.closing > 3) return false;
	if (run.steps === sharedEmptyList()) return true;
	if (run.steps.length !== 1) return false;
	const record = run.steps[0]!;
	return (
		isInt32(record.step) &&
		record.messageLine !== undefined &&
		isInt32(record.messageLine) &&
		record.messageOffset !== undefined &&
		record.startedAt === undefined &&
		record.finishedAt === undefined &&
		record.usage === undefined &&
		record.checkpointId === undefined &&
		record.status === undefined
	);
}

/**
 * A reader's look at a run kept as a row: its fields read the columns, so a summary of 200,000 runs makes no
 * whole run. Only `rev` can be written (`endInput` counts on it); writing another field throws, as writing a
 * getter does.
 */
class RunView implements Run {
	readonly #rows: RunRows;
	readonly #slot: number;
	readonly runId: string;

	constructor(rows: RunRows, slot: number, runId: string) {
		this.#rows = rows;
		this.#slot = slot;
		this.runId = runId;
	}

	get jobId(): string {
		return this.#rows.strings.at(this.#rows.jobId[this.#slot]!) ?? '';
	}

	get expertKey(): string {
		return this.#rows.expertKey[this.#slot]!;
	}

	get dialect(): Dialect {
		return dialects[(this.#rows.flags[this.#slot]! >> dialectShift) & 3] ?? 'perstack';
	}

	get model(): string | undefined {
		return this.#rows.strings.at(this.#rows.model[this.#slot]!);
	}

	get paneId(): string {
		return this.#rows.hasFlag(this.#slot, ownPaneBit) ? this.runId : (this.#rows.strings.at(this.#rows.paneId[this.#slot]!) ?? this.runId);
	}

	get parentRunId(): string | null {
		return this.#rows.strings.at(this.#rows.parentRunId[this.#slot]!) ?? null;
	}

	get delegatingActivityId(): string | null {
		return this.#rows.strings.at(this.#rows.delegatingActivityId[this.#slot]!) ?? null;
	}

	get delegatedBy(): {expertKey: string; runId: string} | undefined {
		return this.#rows.delegations.at(this.#rows.delegatedBy[this.#slot]!);
	}

	get resumesRunId(): string | null {
		return this.#rows.strings.at(this.#rows.resumesRunId[this.#slot]!) ?? null;
	}

	get resumedByRunId(): string | null {
		return this.#rows.strings.at(this.#rows.resumedByRunId[this.#slot]!) ?? null;
	}

	get resumedFrom(): ResumedFrom | null {
		return this.#rows.resumes.at(this.#rows.resumedFrom[this.#slot]!) ?? null;
	}

	get started(): boolean {
		return this.#rows.hasFlag(this.#slot, startedBit);
	}

	get status(): RunStatus {
		return runStatuses[(this.#rows.flags[this.#slot]! >> statusShift) & 15] ?? 'init';
	}

	get statusStep(): number {
		return this.#rows.statusStep[this.#slot]!;
	}

	get endedSteps(): number[] {
		return this.#rows.endedSteps[this.#slot]!;
	}

	get usage(): Usage {
		return this.#rows.usage[this.#slot]!;
	}

	get startedAt(): number | undefined {
		return this.#rows.optional(this.#slot, startedAtBit, this.#rows.startedAt);
	}

	get endedAt(): number | undefined {
		return this.#rows.optional(this.#slot, endedAtBit, this.#rows.endedAt);
	}

	get lastEventAt(): number | undefined {
		return this.#rows.optional(this.#slot, lastEventAtBit, this.#rows.lastEventAt);
	}

	get currentStep(): number | undefined {
		return this.#rows.optional(this.#slot, currentStepBit, this.#rows.currentStep);
	}

	get activityCount(): number {
		return this.#rows.activityCount[this.#slot]!;
	}

	get error(): {name: string; message: string} | undefined {
		return this.#rows.errors.at(this.#rows.error[this.#slot]!);
	}

	get unsettled(): number[] {
		return sharedEmptyList();
	}

	get closing(): number {
		return (this.#rows.flags[this.#slot]! >> closingShift) & 3;
	}

	get pendingToolCallIds(): string[] {
		return sharedEmptyList();
	}

	get childRunIds(): string[] {
		return this.#rows.childRunIds[this.#slot]!;
	}

	get adoptedBy(): string | null {
		return this.#rows.strings.at(this.#rows.adoptedBy[this.#slot]!) ?? null;
	}

	get closesCycle(): boolean {
		return this.#rows.hasFlag(this.#slot, closesCycleBit);
	}

	get query(): string | undefined {
		return undefined;
	}

	get steps(): StepRecord[] {
		return this.#rows.stepRecords(this.#slot);
	}

	get stepIndex(): Map<number, StepRecord> | undefined {
		return undefined;
	}

	get streams(): Map<number, StepStream> {
		return sharedStreams;
	}

	get messageSource(): string | undefined {
		return this.#rows.strings.at(this.#rows.messageSource[this.#slot]!);
	}

	get rev(): number {
		return this.#rows.rev[this.#slot]!;
	}

	set rev(value: number) {
		this.#rows.rev[this.#slot] = value;
	}
}

/** A reader's look at a pane kept as a row. Its depth and revision can be written (depth.ts remembers depths). */
class PaneView implements Pane {
	readonly #rows: RunRows;
	readonly #slot: number;
	readonly paneId: string;

	constructor(rows: RunRows, slot: number, paneId: string) {
		this.#rows = rows;
		this.#slot = slot;
		this.paneId = paneId;
	}

	get jobId(): string {
		return this.#rows.strings.at(this.#rows.paneJobId[this.#slot]!) ?? '';
	}

	get runIds(): string[] {
		return [this.paneId];
	}

	get activityIndices(): number[] {
		return sharedEmptyList();
	}

	get lastActivityId(): string | null {
		return this.#rows.strings.at(this.#rows.paneLastActivityId[this.#slot]!) ?? null;
	}

	get depth(): number {
		return this.#rows.paneDepth[this.#slot]!;
	}

	set depth(value: number) {
		this.#rows.paneDepth[this.#slot] = value;
	}

	get depthEpoch(): number {
		return this.#rows.paneDepthEpoch[this.#slot]!;
	}

	set depthEpoch(value: number) {
		this.#rows.paneDepthEpoch[this.#slot] = value;
	}

	get rev(): number {
		return this.#rows.paneRev[this.#slot]!;
	}

	set rev(value: number) {
		this.#rows.paneRev[this.#slot] = value;
	}
}
