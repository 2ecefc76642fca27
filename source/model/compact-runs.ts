import {runStatuses, type Dialect, type RunStatus, type Usage} from './events.js';
import {letGo} from './id-table.js';
import {sharedEmptyList, sharedFirstStepList, sharedStreams} from './run-collections.js';
import {zeroUsage} from './usage.js';
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
const hasStepBit = 1 << 10;
const startedAtBit = 1 << 11;
const endedAtBit = 1 << 12;
const lastEventAtBit = 1 << 13;
const currentStepBit = 1 << 14;
/** The run has fields most runs leave null (`RareFields`), kept beside the row. */
const rareBit = 1 << 15;
/** The run's lists are not the shared ones most runs have (`Lists`), and are kept beside the row. */
const listsBit = 1 << 16;
/** Without `listsBit`: the run ended its first step only, and has the shared list that says so. */
const firstStepBit = 1 << 17;

// The columns, by type; each holds a value per slot.
type Int32Columns = {
	flags: Int32Array;
	jobId: Int32Array;
	model: Int32Array;
	parentRunId: Int32Array;
	adoptedBy: Int32Array;
	delegatedBy: Int32Array;
	messageSource: Int32Array;
	activityCount: Int32Array;
	rev: Int32Array;
	step: Int32Array;
	messageLine: Int32Array;
	paneJobId: Int32Array;
	paneDepth: Int32Array;
	paneDepthEpoch: Int32Array;
	paneRev: Int32Array;
};
type Float64Columns = {statusStep: Float64Array; startedAt: Float64Array; endedAt: Float64Array; lastEventAt: Float64Array; currentStep: Float64Array; messageOffset: Float64Array};
type Uint8Columns = {runState: Uint8Array; paneState: Uint8Array; touched: Uint8Array; revived: Uint8Array};

/** Fields a run of a wide job leaves null: kept per run only where one is set. */
type RareFields = {
	paneId: string;
	delegatingActivityId: string | null;
	resumesRunId: string | null;
	resumedByRunId: string | null;
	resumedFrom: ResumedFrom | null;
	error: {name: string; message: string} | undefined;
};

/** A run's lists and usage, kept per run only where they are not the shared ones a new run starts with. */
type Lists = {usage: Usage; endedSteps: number[]; childRunIds: string[]};

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

const firstSlots = 1024;

/**
 * A run taken out of its row this many times stays whole: it is one that events keep coming for after it closed,
 * as to a coordinator that closed before the children it delegated to started, each of which adds itself to its
 * list. Making it and its step record again for each would be most of what a wide job's load allocates.
 */
const maxRevivals = 2;

export class RunRows {
	/** Every run's slot, in the order the runs were added: the order of `model.runs`. */
	readonly slots = new Map<string, number>();
	runCount = 0;
	paneCount = 0;
	/** Runs and panes kept whole: few at a time, those the reducer is changing or can not put in a row. */
	readonly wholeRuns = new Map<number, Run>();
	readonly wholePanes = new Map<number, Pane>();
	/** Slots the reducer touched during the current event: put back in rows when it ends. */
	touched: number[] = [];

	int32: Int32Columns = int32Of(() => new Int32Array(firstSlots));
	float64: Float64Columns = float64Of(() => new Float64Array(firstSlots));
	uint8: Uint8Columns = uint8Of(() => new Uint8Array(firstSlots));
	/** Per slot, the run's expert key: most runs of a wide job have one of their own. */
	readonly expertKey: string[] = [];
	readonly rare = new Map<number, RareFields>();
	readonly lists = new Map<number, Lists>();
	readonly lastActivityId = new Map<number, string>();

	readonly strings = new Interned<string>();
	readonly delegations = new Interned<{expertKey: string; runId: string}>();

	/** The slot of a new run. */
	add(id: string): number {
		const slot = this.expertKey.length;
		if (slot === this.uint8.runState.length) this.#grow();
		this.slots.set(id, slot);
		this.expertKey.push('');
		return slot;
	}

	setRun(slot: number, run: Run): void {
		if (this.uint8.runState[slot] === absent) this.runCount++;
		this.#leaveRunRow(slot);
		this.wholeRuns.set(slot, run);
		this.uint8.runState[slot] = whole;
		this.touch(slot);
	}

	deleteRun(slot: number): boolean {
		if (this.uint8.runState[slot] === absent) return false;
		this.#leaveRunRow(slot);
		this.wholeRuns.delete(slot);
		this.uint8.runState[slot] = absent;
		this.runCount--;
		return true;
	}

	setPane(slot: number, pane: Pane): void {
		if (this.uint8.paneState[slot] === absent) this.paneCount++;
		this.lastActivityId.delete(slot);
		this.wholePanes.set(slot, pane);
		this.uint8.paneState[slot] = whole;
		this.touch(slot);
	}

	deletePane(slot: number): boolean {
		if (this.uint8.paneState[slot] === absent) return false;
		this.lastActivityId.delete(slot);
		this.wholePanes.delete(slot);
		this.uint8.paneState[slot] = absent;
		this.paneCount--;
		return true;
	}

	hasRun(slot: number): boolean {
		return this.uint8.runState[slot] !== absent;
	}

	hasPane(slot: number): boolean {
		return this.uint8.paneState[slot] !== absent;
	}

	touch(slot: number): void {
		if (this.uint8.touched[slot] === 1) return;
		this.uint8.touched[slot] = 1;
		this.touched.push(slot);
	}

	/** The run of a slot as a whole object, taken out of its row if it was in one. */
	wholeRun(slot: number, id: string): Run | undefined {
		const state = this.uint8.runState[slot];
		if (state === whole) return this.wholeRuns.get(slot);
		if (state !== row) return undefined;
		const run = this.#runFromRow(slot, id);
		this.#leaveRunRow(slot);
		this.wholeRuns.set(slot, run);
		this.uint8.runState[slot] = whole;
		if (this.uint8.revived[slot]! < maxRevivals) this.uint8.revived[slot]!++;
		return run;
	}

	wholePane(slot: number, id: string): Pane | undefined {
		const state = this.uint8.paneState[slot];
		if (state === whole) return this.wholePanes.get(slot);
		if (state !== row) return undefined;
		const pane = this.#paneFromRow(slot, id);
		this.lastActivityId.delete(slot);
		this.wholePanes.set(slot, pane);
		this.uint8.paneState[slot] = whole;
		return pane;
	}

	/** Puts the runs and panes touched during an event back in rows where they can be. */
	compactTouched(): void {
		for (const slot of this.touched) {
			this.uint8.touched[slot] = 0;
			if (this.uint8.runState[slot] === whole) this.#runToRow(slot);
			if (this.uint8.paneState[slot] === whole) this.#paneToRow(slot);
		}

		this.touched = [];
	}

	runView(slot: number, id: string): Run | undefined {
		const state = this.uint8.runState[slot];
		if (state === whole) return this.wholeRuns.get(slot);
		return state === row ? new RunView(this, slot, id) : undefined;
	}

	paneView(slot: number, id: string): Pane | undefined {
		const state = this.uint8.paneState[slot];
		if (state === whole) return this.wholePanes.get(slot);
		return state === row ? new PaneView(this, slot, id) : undefined;
	}

	hasFlag(slot: number, bit: number): boolean {
		return (this.int32.flags[slot]! & bit) !== 0;
	}

	optional(slot: number, bit: number, column: Float64Array): number | undefined {
		return this.hasFlag(slot, bit) ? column[slot] : undefined;
	}

	rareOf(slot: number): RareFields | undefined {
		return this.hasFlag(slot, rareBit) ? this.rare.get(slot) : undefined;
	}

	listsOf(slot: number): Lists {
		if (this.hasFlag(slot, listsBit)) return this.lists.get(slot) ?? sharedLists;
		return this.hasFlag(slot, firstStepBit) ? firstStepLists : sharedLists;
	}

	stepRecords(slot: number): StepRecord[] {
		if (!this.hasFlag(slot, hasStepBit)) return sharedEmptyList();
		return [stepRecordLiteral(this.int32.step[slot]!, this.int32.messageLine[slot]!, this.float64.messageOffset[slot]!)];
	}

	#leaveRunRow(slot: number): void {
		// What the row held beside it goes, so that what the run lets go of later is not kept here.
		this.expertKey[slot] = '';
		this.rare.delete(slot);
		this.lists.delete(slot);
	}

	#runFromRow(slot: number, id: string): Run {
		const flags = this.int32.flags[slot]!;
		const rare = this.rareOf(slot);
		const lists = this.listsOf(slot);
		return {
			runId: id,
			jobId: this.strings.at(this.int32.jobId[slot]!) ?? '',
			expertKey: this.expertKey[slot]!,
			dialect: dialects[(flags >> dialectShift) & 3] ?? 'perstack',
			model: this.strings.at(this.int32.model[slot]!),
			paneId: rare?.paneId ?? id,
			parentRunId: this.strings.at(this.int32.parentRunId[slot]!) ?? null,
			delegatingActivityId: rare?.delegatingActivityId ?? null,
			delegatedBy: this.delegations.at(this.int32.delegatedBy[slot]!),
			resumesRunId: rare?.resumesRunId ?? null,
			resumedByRunId: rare?.resumedByRunId ?? null,
			resumedFrom: rare?.resumedFrom ?? null,
			started: (flags & startedBit) !== 0,
			status: runStatuses[(flags >> statusShift) & 15] ?? 'init',
			statusStep: this.float64.statusStep[slot]!,
			endedSteps: lists.endedSteps,
			usage: lists.usage,
			startedAt: this.optional(slot, startedAtBit, this.float64.startedAt),
			endedAt: this.optional(slot, endedAtBit, this.float64.endedAt),
			lastEventAt: this.optional(slot, lastEventAtBit, this.float64.lastEventAt),
			currentStep: this.optional(slot, currentStepBit, this.float64.currentStep),
			activityCount: this.int32.activityCount[slot]!,
			unsettled: sharedEmptyList(),
			closing: (flags >> closingShift) & 3,
			error: rare?.error,
			pendingToolCallIds: sharedEmptyList(),
			childRunIds: lists.childRunIds,
			adoptedBy: this.strings.at(this.int32.adoptedBy[slot]!) ?? null,
			closesCycle: (flags & closesCycleBit) !== 0,
			query: undefined,
			steps: this.stepRecords(slot),
			stepIndex: undefined,
			streams: sharedStreams,
			messageSource: this.strings.at(this.int32.messageSource[slot]!),
			rev: this.int32.rev[slot]!,
		};
	}

	#runToRow(slot: number): void {
		const run = this.wholeRuns.get(slot);
		if (!run || this.uint8.revived[slot] === maxRevivals || !compactable(run) || this.slots.get(run.runId) !== slot) return;
		const record = run.steps[0];
		let flags =
			(dialects.indexOf(run.dialect) << dialectShift) |
			(runStatuses.indexOf(run.status) << statusShift) |
			(run.closing << closingShift) |
			(run.started ? startedBit : 0) |
			(run.closesCycle ? closesCycleBit : 0);
		if (record) {
			flags |= hasStepBit;
			this.int32.step[slot] = record.step;
			this.int32.messageLine[slot] = record.messageLine ?? 0;
			this.float64.messageOffset[slot] = record.messageOffset ?? 0;
		}

		flags |= setOptional(slot, run.startedAt, startedAtBit, this.float64.startedAt);
		flags |= setOptional(slot, run.endedAt, endedAtBit, this.float64.endedAt);
		flags |= setOptional(slot, run.lastEventAt, lastEventAtBit, this.float64.lastEventAt);
		flags |= setOptional(slot, run.currentStep, currentStepBit, this.float64.currentStep);
		if (run.paneId !== run.runId || run.delegatingActivityId !== null || run.resumesRunId !== null || run.resumedByRunId !== null || run.resumedFrom !== null || run.error !== undefined) {
			flags |= rareBit;
			const {paneId, delegatingActivityId, resumesRunId, resumedByRunId, resumedFrom, error} = run;
			this.rare.set(slot, {paneId, delegatingActivityId, resumesRunId, resumedByRunId, resumedFrom, error});
		}

		if (run.usage === sharedLists.usage && run.childRunIds === sharedLists.childRunIds && run.endedSteps === firstStepLists.endedSteps) {
			flags |= firstStepBit;
		} else if (run.usage !== sharedLists.usage || run.endedSteps !== sharedLists.endedSteps || run.childRunIds !== sharedLists.childRunIds) {
			flags |= listsBit;
			this.lists.set(slot, {usage: run.usage, endedSteps: run.endedSteps, childRunIds: run.childRunIds});
		}

		this.int32.flags[slot] = flags;
		this.int32.jobId[slot] = this.strings.of(run.jobId);
		this.int32.model[slot] = this.strings.of(run.model);
		this.int32.parentRunId[slot] = this.strings.of(run.parentRunId);
		this.int32.adoptedBy[slot] = this.strings.of(run.adoptedBy);
		this.int32.delegatedBy[slot] = this.delegations.of(run.delegatedBy);
		this.int32.messageSource[slot] = this.strings.of(run.messageSource);
		this.int32.activityCount[slot] = run.activityCount;
		this.int32.rev[slot] = run.rev;
		this.float64.statusStep[slot] = run.statusStep;
		this.expertKey[slot] = run.expertKey;
		this.wholeRuns.delete(slot);
		this.uint8.runState[slot] = row;
	}

	#paneFromRow(slot: number, id: string): Pane {
		return {
			paneId: id,
			jobId: this.strings.at(this.int32.paneJobId[slot]!) ?? '',
			runIds: [id],
			activityIndices: sharedEmptyList(),
			lastActivityId: this.lastActivityId.get(slot) ?? null,
			depth: this.int32.paneDepth[slot]!,
			depthEpoch: this.int32.paneDepthEpoch[slot]!,
			rev: this.int32.paneRev[slot]!,
		};
	}

	#paneToRow(slot: number): void {
		const pane = this.wholePanes.get(slot);
		if (!pane || this.slots.get(pane.paneId) !== slot) return;
		if (pane.runIds.length !== 1 || pane.runIds[0] !== pane.paneId || pane.activityIndices !== sharedEmptyList()) return;
		if (!isInt32(pane.depth) || !isInt32(pane.depthEpoch) || !isInt32(pane.rev)) return;
		this.int32.paneJobId[slot] = this.strings.of(pane.jobId);
		if (pane.lastActivityId !== null) this.lastActivityId.set(slot, pane.lastActivityId);
		this.int32.paneDepth[slot] = pane.depth;
		this.int32.paneDepthEpoch[slot] = pane.depthEpoch;
		this.int32.paneRev[slot] = pane.rev;
		this.wholePanes.delete(slot);
		this.uint8.paneState[slot] = row;
	}

	#grow(): void {
		const size = this.uint8.runState.length * 2;
		const outgrown: ArrayBufferLike[] = [];
		const grown = <A extends Int32Array | Float64Array | Uint8Array>(array: A, copy: A): A => {
			copy.set(array);
			outgrown.push(array.buffer);
			return copy;
		};

		this.int32 = int32Of(name => grown(this.int32[name], new Int32Array(size)));
		this.float64 = float64Of(name => grown(this.float64[name], new Float64Array(size)));
		this.uint8 = uint8Of(name => grown(this.uint8[name], new Uint8Array(size)));
		// The collector frees outgrown arrays only at its next full collection; a long load has few (id-table.ts).
		letGo(outgrown);
	}
}

function int32Of(make: (name: keyof Int32Columns) => Int32Array): Int32Columns {
	return {
		flags: make('flags'),
		jobId: make('jobId'),
		model: make('model'),
		parentRunId: make('parentRunId'),
		adoptedBy: make('adoptedBy'),
		delegatedBy: make('delegatedBy'),
		messageSource: make('messageSource'),
		activityCount: make('activityCount'),
		rev: make('rev'),
		step: make('step'),
		messageLine: make('messageLine'),
		paneJobId: make('paneJobId'),
		paneDepth: make('paneDepth'),
		paneDepthEpoch: make('paneDepthEpoch'),
		paneRev: make('paneRev'),
	};
}

function float64Of(make: (name: keyof Float64Columns) => Float64Array): Float64Columns {
	return {
		statusStep: make('statusStep'),
		startedAt: make('startedAt'),
		endedAt: make('endedAt'),
		lastEventAt: make('lastEventAt'),
		currentStep: make('currentStep'),
		messageOffset: make('messageOffset'),
	};
}

function uint8Of(make: (name: keyof Uint8Columns) => Uint8Array): Uint8Columns {
	return {runState: make('runState'), paneState: make('paneState'), touched: make('touched'), revived: make('revived')};
}

function setOptional(slot: number, value: number | undefined, bit: number, column: Float64Array): number {
	if (value === undefined) return 0;
	column[slot] = value;
	return bit;
}

/** What a new run starts with (reduce.ts, `newRun`): the lists most runs of a wide job keep. */
const sharedLists: Lists = {usage: zeroUsage, endedSteps: sharedEmptyList(), childRunIds: sharedEmptyList()};
const firstStepLists: Lists = {...sharedLists, endedSteps: sharedFirstStepList()};

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
		return this.#rows.strings.at(this.#rows.int32.jobId[this.#slot]!) ?? '';
	}

	get expertKey(): string {
		return this.#rows.expertKey[this.#slot]!;
	}

	get dialect(): Dialect {
		return dialects[(this.#rows.int32.flags[this.#slot]! >> dialectShift) & 3] ?? 'perstack';
	}

	get model(): string | undefined {
		return this.#rows.strings.at(this.#rows.int32.model[this.#slot]!);
	}

	get paneId(): string {
		return this.#rows.rareOf(this.#slot)?.paneId ?? this.runId;
	}

	get parentRunId(): string | null {
		return this.#rows.strings.at(this.#rows.int32.parentRunId[this.#slot]!) ?? null;
	}

	get delegatingActivityId(): string | null {
		return this.#rows.rareOf(this.#slot)?.delegatingActivityId ?? null;
	}

	get delegatedBy(): {expertKey: string; runId: string} | undefined {
		return this.#rows.delegations.at(this.#rows.int32.delegatedBy[this.#slot]!);
	}

	get resumesRunId(): string | null {
		return this.#rows.rareOf(this.#slot)?.resumesRunId ?? null;
	}

	get resumedByRunId(): string | null {
		return this.#rows.rareOf(this.#slot)?.resumedByRunId ?? null;
	}

	get resumedFrom(): ResumedFrom | null {
		return this.#rows.rareOf(this.#slot)?.resumedFrom ?? null;
	}

	get started(): boolean {
		return this.#rows.hasFlag(this.#slot, startedBit);
	}

	get status(): RunStatus {
		return runStatuses[(this.#rows.int32.flags[this.#slot]! >> statusShift) & 15] ?? 'init';
	}

	get statusStep(): number {
		return this.#rows.float64.statusStep[this.#slot]!;
	}

	get endedSteps(): number[] {
		return this.#rows.listsOf(this.#slot).endedSteps;
	}

	get usage(): Usage {
		return this.#rows.listsOf(this.#slot).usage;
	}

	get startedAt(): number | undefined {
		return this.#rows.optional(this.#slot, startedAtBit, this.#rows.float64.startedAt);
	}

	get endedAt(): number | undefined {
		return this.#rows.optional(this.#slot, endedAtBit, this.#rows.float64.endedAt);
	}

	get lastEventAt(): number | undefined {
		return this.#rows.optional(this.#slot, lastEventAtBit, this.#rows.float64.lastEventAt);
	}

	get currentStep(): number | undefined {
		return this.#rows.optional(this.#slot, currentStepBit, this.#rows.float64.currentStep);
	}

	get activityCount(): number {
		return this.#rows.int32.activityCount[this.#slot]!;
	}

	get error(): {name: string; message: string} | undefined {
		return this.#rows.rareOf(this.#slot)?.error;
	}

	get unsettled(): number[] {
		return sharedEmptyList();
	}

	get closing(): number {
		return (this.#rows.int32.flags[this.#slot]! >> closingShift) & 3;
	}

	get pendingToolCallIds(): string[] {
		return sharedEmptyList();
	}

	get childRunIds(): string[] {
		return this.#rows.listsOf(this.#slot).childRunIds;
	}

	get adoptedBy(): string | null {
		return this.#rows.strings.at(this.#rows.int32.adoptedBy[this.#slot]!) ?? null;
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
		return this.#rows.strings.at(this.#rows.int32.messageSource[this.#slot]!);
	}

	get rev(): number {
		return this.#rows.int32.rev[this.#slot]!;
	}

	set rev(value: number) {
		this.#rows.int32.rev[this.#slot] = value;
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
		return this.#rows.strings.at(this.#rows.int32.paneJobId[this.#slot]!) ?? '';
	}

	get runIds(): string[] {
		return [this.paneId];
	}

	get activityIndices(): number[] {
		return sharedEmptyList();
	}

	get lastActivityId(): string | null {
		return this.#rows.lastActivityId.get(this.#slot) ?? null;
	}

	get depth(): number {
		return this.#rows.int32.paneDepth[this.#slot]!;
	}

	set depth(value: number) {
		this.#rows.int32.paneDepth[this.#slot] = value;
	}

	get depthEpoch(): number {
		return this.#rows.int32.paneDepthEpoch[this.#slot]!;
	}

	set depthEpoch(value: number) {
		this.#rows.int32.paneDepthEpoch[this.#slot] = value;
	}

	get rev(): number {
		return this.#rows.int32.paneRev[this.#slot]!;
	}

	set rev(value: number) {
		this.#rows.int32.paneRev[this.#slot] = value;
	}
}
