import {closedRunStatuses, runStatuses, type RunStatus} from './events.js';
import {createIdTable, getId, idAt, idOffset, placeId, setId} from './id-table.js';
import {Interned} from './interned.js';
import {
	closesCycleBit,
	closingShift,
	currentStepBit,
	dialects,
	dialectMask,
	dialectShift,
	endedAtBit,
	firstStepBit,
	float64Columns,
	hasStepBit,
	int32Columns,
	lastEventAtBit,
	listsBit,
	pageSlots,
	rareBit,
	startedAtBit,
	startedBit,
	statusShift,
	uint32Column,
	uint8Columns,
	type Column,
	type Float64Columns,
	type Int32Columns,
	type Lists,
	type RareFields,
	type Uint8Columns,
} from './row-columns.js';
import {sharedEmptyList, sharedFirstStepList, sharedStreams} from './run-collections.js';
import {PaneView, RunView, type RowReader} from './run-row-views.js';
import type {Pane, Run, StepRecord} from './state.js';
import {zeroUsage} from './usage.js';

/*
 * Where a model that keeps figures only (`Model.figuresOnly`) keeps its runs and panes. A wide job has hundreds of
 * thousands of runs that closed long ago: each as a `Run` object with its step record and its `Pane` cost several
 * times what its figures do. Here a run that closed (and waits for nothing: see `compactable`) is kept as a row
 * of numbered columns, its pane and its one step record folded into it, and strings that repeat (job ids, parent
 * ids) kept once. `model.runs` and `model.panes` stay Maps to their readers: `get` of a compact run or pane gives
 * a view of its row (a small object whose fields read the columns), and iteration gives the same in the same
 * order as a Map of objects would. The reducer takes a run or a pane out of its row as a whole object again with
 * `liveRun`/`livePane` before changing it (the same object each time, exactly what it would have been), and
 * `compactTouched` puts whatever it touched back in rows after each event. The layout of a row is in
 * row-columns.ts, its views in run-row-views.ts.
 *
 * Runs and panes share their numbering: a pane is made with the run of its id (reduce.ts, `newRun`), and is only
 * ever deleted, never made again, so the panes' order is the runs' order without the panes deleted.
 */

/** What a slot holds: nothing (deleted), a whole object, or a row of the columns. */
const absent = 0;
const whole = 1;
const row = 2;


function isInt32(value: number): boolean {
	return (value | 0) === value;
}

/**
 * The rows' id tables grow at seven eighths full, not three quarters: a wide job's 200,000 ids then fit in 262,144
 * slots instead of 524,288, for probes a few slots longer.
 */
const rowTableFill = 7;

/** How many runs' slots by id are kept at hand (`RunRows.slotOf`): a few children stream at once. */
const recentRuns = 4;

/** A call no child waits for any more (`RunRows.takeWaiting`). */
const noChild = -1;

function waitingKey(parentRunId: string, toolCallId: string): string {
	return `${parentRunId}\u0000${toolCallId}`;
}

/** An expert key the byte table does not hold (see `idOffset`). */
const inOthers = 0xff_ff_ff_ff;

/**
 * A run or pane taken out of its row this many times stays whole: it is one that events keep coming for, as to a
 * coordinator that closed before the children it delegated to started (each adds itself to its list), or to the
 * pane of a run that is still running. Making it again for each event would be most of what a load allocates.
 */
const maxRevivals = 2;

export class RunRows implements RowReader {
	/**
	 * Every run's slot by its id, and the id of each slot: slots are numbered in the order the runs were added,
	 * the order of `model.runs`. The table keeps the ids as bytes, not strings (id-table.ts).
	 */
	readonly #slots = createIdTable(true, 1024, rowTableFill);
	/** Per slot, where its id is in `#slots` (`idAt`), or `inOthers` for one kept in `idOthers`. */
	readonly #idText = uint32Column();
	readonly #idOthers = new Map<number, string>();
	/** How many slots there are. */
	slotCount = 0;
	runCount = 0;
	paneCount = 0;
	/** Runs and panes kept whole: few at a time, those the reducer is changing or can not put in a row. */
	readonly wholeRuns = new Map<number, Run>();
	readonly wholePanes = new Map<number, Pane>();
	/** Slots the reducer touched during the current event: put back in rows when it ends. */
	readonly touched: number[] = [];

	readonly int32: Int32Columns = int32Columns();
	readonly float64: Float64Columns = float64Columns();
	readonly uint8: Uint8Columns = uint8Columns();
	/**
	 * Per slot, where the run's expert key is in `#texts` (most runs of a wide job have one of their own, which as
	 * a string would be most of what a row costs), or `inOthers` for one kept in `expertKeyOthers`.
	 */
	readonly expertKey = uint32Column();
	readonly #texts = createIdTable(false, 1024, rowTableFill);
	readonly expertKeyOthers = new Map<number, string>();
	readonly rare = new Map<number, RareFields>();
	readonly lists = new Map<number, Lists>();
	readonly lastActivityId = new Map<number, string>();

	/**
	 * Children waiting for the delegation that made them (`Model.orphanChildren`, kept here as bytes: a wide job
	 * whose coordinator's delegations never show has one per child), by parent and tool call id: a child's slot,
	 * `noChild` once taken, or for a call more than one child waits on, `-2 - i` for the i-th list of slots.
	 */
	readonly #waiting = createIdTable(true, 1024, rowTableFill);
	readonly #waitingLists: number[][] = [];

	readonly strings = new Interned<string>();
	readonly delegations = new Interned<{expertKey: string; runId: string}>();

	slotOf(id: string): number | undefined {
		// Most events are of one of the few runs the events just before were of: their slots are at hand.
		const ids = this.#recentIds;
		for (let i = 0; i < ids.length; i++) if (ids[i] === id) return this.#recentSlots[i];
		const slot = getId(this.#slots, id);
		if (slot !== undefined) {
			this.#recent = (this.#recent + 1) % recentRuns;
			ids[this.#recent] = id;
			this.#recentSlots[this.#recent] = slot;
		}

		return slot;
	}

	readonly #recentIds: Array<string | undefined> = Array.from({length: recentRuns}, () => undefined);
	readonly #recentSlots = new Int32Array(recentRuns);
	#recent = 0;

	/** The slot of a new run. */
	add(id: string): number {
		const slot = this.slotCount++;
		if (slot % pageSlots === 0) this.#grow();
		const text = placeId(this.#slots, id, slot);
		this.#idText.set(slot, text ?? inOthers);
		if (text === undefined) this.#idOthers.set(slot, id);
		return slot;
	}

	/** The id of a slot's run, made again from its bytes. */
	idOf(slot: number): string {
		const text = this.#idText.get(slot);
		return text === inOthers ? (this.#idOthers.get(slot) ?? '') : idAt(this.#slots, text);
	}

	awaitDelegation(parentRunId: string, toolCallId: string, childRunId: string): void {
		const child = this.slotOf(childRunId);
		if (child === undefined) return;
		const key = waitingKey(parentRunId, toolCallId);
		const previous = getId(this.#waiting, key);
		if (previous === undefined || previous === noChild) setId(this.#waiting, key, child);
		else if (previous >= 0) {
			this.#waitingLists.push([previous, child]);
			setId(this.#waiting, key, -1 - this.#waitingLists.length);
		} else this.#waitingLists[-2 - previous]?.push(child);
	}

	/** The children that wait for the delegation, which no longer waits for them. */
	takeWaiting(parentRunId: string, toolCallId: string): string[] | undefined {
		const key = waitingKey(parentRunId, toolCallId);
		const value = getId(this.#waiting, key);
		if (value === undefined || value === noChild) return undefined;
		setId(this.#waiting, key, noChild);
		if (value >= 0) return [this.idOf(value)];
		const list = this.#waitingLists[-2 - value] ?? [];
		this.#waitingLists[-2 - value] = [];
		return list.map(slot => this.idOf(slot));
	}

	expertKeyOf(slot: number): string {
		const offset = this.expertKey.get(slot);
		return offset === inOthers ? (this.expertKeyOthers.get(slot) ?? '') : idAt(this.#texts, offset);
	}

	setRun(slot: number, run: Run): void {
		this.#forgetWhole(slot);
		if (this.uint8.runState.get(slot) === absent) this.runCount++;
		this.#leaveRunRow(slot);
		this.wholeRuns.set(slot, run);
		this.uint8.runState.set(slot, whole);
		this.touch(slot);
	}

	deleteRun(slot: number): boolean {
		this.#forgetWhole(slot);
		if (this.uint8.runState.get(slot) === absent) return false;
		this.#leaveRunRow(slot);
		this.wholeRuns.delete(slot);
		this.uint8.runState.set(slot, absent);
		this.runCount--;
		return true;
	}

	setPane(slot: number, pane: Pane): void {
		if (this.uint8.paneState.get(slot) === absent) this.paneCount++;
		this.lastActivityId.delete(slot);
		this.wholePanes.set(slot, pane);
		this.uint8.paneState.set(slot, whole);
		this.touch(slot);
	}

	deletePane(slot: number): boolean {
		if (this.uint8.paneState.get(slot) === absent) return false;
		this.lastActivityId.delete(slot);
		this.wholePanes.delete(slot);
		this.uint8.paneState.set(slot, absent);
		this.paneCount--;
		return true;
	}

	hasRun(slot: number): boolean {
		return this.uint8.runState.get(slot) !== absent;
	}

	hasPane(slot: number): boolean {
		return this.uint8.paneState.get(slot) !== absent;
	}

	touch(slot: number): void {
		if (slot === this.#lastTouched || this.uint8.touched.get(slot) === 1) return;
		this.#lastTouched = slot;
		this.uint8.touched.set(slot, 1);
		this.touched.push(slot);
	}

	/** The run of a slot as a whole object, taken out of its row if it was in one. */
	wholeRun(slot: number, id: string): Run | undefined {
		// A run's events mostly come one after the other: the last whole run asked for is at hand.
		if (slot === this.#lastWholeSlot && this.#lastWhole) return this.#lastWhole;
		const state = this.uint8.runState.get(slot);
		if (state === whole) return this.#rememberWhole(slot, this.wholeRuns.get(slot));
		if (state !== row) return undefined;
		const run = this.#runFromRow(slot, id);
		this.#leaveRunRow(slot);
		this.wholeRuns.set(slot, run);
		this.uint8.runState.set(slot, whole);
		if (this.uint8.revived.get(slot) < maxRevivals) this.uint8.revived.set(slot, this.uint8.revived.get(slot) + 1);
		return this.#rememberWhole(slot, run);
	}

	#lastWholeSlot = -1;
	#lastWhole: Run | undefined;

	#rememberWhole(slot: number, run: Run | undefined): Run | undefined {
		this.#lastWholeSlot = slot;
		this.#lastWhole = run;
		return run;
	}

	#forgetWhole(slot: number): void {
		if (slot === this.#lastWholeSlot) this.#rememberWhole(-1, undefined);
	}

	wholePane(slot: number, id: string): Pane | undefined {
		const state = this.uint8.paneState.get(slot);
		if (state === whole) return this.wholePanes.get(slot);
		if (state !== row) return undefined;
		const pane = this.#paneFromRow(slot, id);
		this.lastActivityId.delete(slot);
		this.wholePanes.set(slot, pane);
		this.uint8.paneState.set(slot, whole);
		if (this.uint8.paneRevived.get(slot) < maxRevivals) this.uint8.paneRevived.set(slot, this.uint8.paneRevived.get(slot) + 1);
		return pane;
	}

	#lastTouched = -1;

	/** Puts the runs and panes touched during an event back in rows where they can be. */
	compactTouched(): void {
		this.#lastTouched = -1;
		for (const slot of this.touched) {
			this.uint8.touched.set(slot, 0);
			if (this.uint8.runState.get(slot) === whole) this.#runToRow(slot);
			if (this.uint8.paneState.get(slot) === whole) this.#paneToRow(slot);
		}

		this.touched.length = 0;
	}

	runView(slot: number, id: string): Run | undefined {
		const state = this.uint8.runState.get(slot);
		if (state === whole) return this.wholeRuns.get(slot);
		return state === row ? new RunView(this, slot, id) : undefined;
	}

	paneView(slot: number, id: string): Pane | undefined {
		const state = this.uint8.paneState.get(slot);
		if (state === whole) return this.wholePanes.get(slot);
		return state === row ? new PaneView(this, slot, id) : undefined;
	}

	hasFlag(slot: number, bit: number): boolean {
		return (this.int32.flags.get(slot) & bit) !== 0;
	}

	optional(slot: number, bit: number, column: Column): number | undefined {
		return this.hasFlag(slot, bit) ? column.get(slot) : undefined;
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
		return [stepRecordLiteral(this.int32.step.get(slot), this.int32.messageLine.get(slot), this.float64.messageOffset.get(slot))];
	}

	#leaveRunRow(slot: number): void {
		// What the row held beside it goes, so that what the run lets go of later is not kept here.
		this.expertKeyOthers.delete(slot);
		this.rare.delete(slot);
		this.lists.delete(slot);
	}

	#runFromRow(slot: number, id: string): Run {
		const flags = this.int32.flags.get(slot);
		const rare = this.rareOf(slot);
		const lists = this.listsOf(slot);
		return {
			runId: id,
			jobId: this.strings.at(this.int32.jobId.get(slot)) ?? '',
			expertKey: this.expertKeyOf(slot),
			dialect: dialects[(flags >> dialectShift) & dialectMask] ?? 'perstack',
			model: this.strings.at(this.int32.model.get(slot)),
			paneId: rare?.paneId ?? id,
			parentRunId: this.strings.at(this.int32.parentRunId.get(slot)) ?? null,
			delegatingActivityId: rare?.delegatingActivityId ?? null,
			delegatedBy: this.delegations.at(this.int32.delegatedBy.get(slot)),
			resumesRunId: rare?.resumesRunId ?? null,
			resumedByRunId: rare?.resumedByRunId ?? null,
			resumedFrom: rare?.resumedFrom ?? null,
			started: (flags & startedBit) !== 0,
			status: runStatuses[(flags >> statusShift) & 15] ?? 'init',
			statusStep: this.float64.statusStep.get(slot),
			endedSteps: lists.endedSteps,
			usage: lists.usage,
			startedAt: this.optional(slot, startedAtBit, this.float64.startedAt),
			endedAt: this.optional(slot, endedAtBit, this.float64.endedAt),
			lastEventAt: this.optional(slot, lastEventAtBit, this.float64.lastEventAt),
			currentStep: this.optional(slot, currentStepBit, this.float64.currentStep),
			activityCount: this.int32.activityCount.get(slot),
			unsettled: sharedEmptyList(),
			closing: (flags >> closingShift) & 3,
			error: rare?.error,
			pendingToolCallIds: sharedEmptyList(),
			childRunIds: lists.childRunIds,
			adoptedBy: this.strings.at(this.int32.adoptedBy.get(slot)) ?? null,
			closesCycle: (flags & closesCycleBit) !== 0,
			query: undefined,
			steps: this.stepRecords(slot),
			stepIndex: undefined,
			streams: sharedStreams,
			messageSource: this.strings.at(this.int32.messageSource.get(slot)),
			rev: this.int32.rev.get(slot),
		};
	}

	#runToRow(slot: number): void {
		const run = slot === this.#lastWholeSlot ? this.#lastWhole : this.wholeRuns.get(slot);
		if (!run || !closedRunStatuses.has(run.status) || this.uint8.revived.get(slot) === maxRevivals || !compactable(run) || this.slotOf(run.runId) !== slot) return;
		const record = run.steps[0];
		let flags =
			(dialects.indexOf(run.dialect) << dialectShift) |
			(runStatuses.indexOf(run.status) << statusShift) |
			(run.closing << closingShift) |
			(run.started ? startedBit : 0) |
			(run.closesCycle ? closesCycleBit : 0);
		if (record) {
			flags |= hasStepBit;
			this.int32.step.set(slot, record.step);
			this.int32.messageLine.set(slot, record.messageLine ?? 0);
			this.float64.messageOffset.set(slot, record.messageOffset ?? 0);
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

		this.int32.flags.set(slot, flags);
		this.int32.jobId.set(slot, this.strings.of(run.jobId));
		this.int32.model.set(slot, this.strings.of(run.model));
		this.int32.parentRunId.set(slot, this.strings.of(run.parentRunId));
		this.int32.adoptedBy.set(slot, this.strings.of(run.adoptedBy));
		this.int32.delegatedBy.set(slot, this.delegations.of(run.delegatedBy));
		this.int32.messageSource.set(slot, this.strings.of(run.messageSource));
		this.int32.activityCount.set(slot, run.activityCount);
		this.int32.rev.set(slot, run.rev);
		this.float64.statusStep.set(slot, run.statusStep);
		const text = idOffset(this.#texts, run.expertKey);
		this.expertKey.set(slot, text ?? inOthers);
		if (text === undefined) this.expertKeyOthers.set(slot, run.expertKey);
		this.#forgetWhole(slot);
		this.wholeRuns.delete(slot);
		this.uint8.runState.set(slot, row);
	}

	#paneFromRow(slot: number, id: string): Pane {
		return {
			paneId: id,
			jobId: this.strings.at(this.int32.paneJobId.get(slot)) ?? '',
			runIds: [id],
			activityIndices: sharedEmptyList(),
			lastActivityId: this.lastActivityId.get(slot) ?? null,
			depth: this.int32.paneDepth.get(slot),
			depthEpoch: this.int32.paneDepthEpoch.get(slot),
			rev: this.int32.paneRev.get(slot),
		};
	}

	#paneToRow(slot: number): void {
		const pane = this.wholePanes.get(slot);
		if (!pane || this.uint8.paneRevived.get(slot) === maxRevivals || this.slotOf(pane.paneId) !== slot) return;
		if (pane.runIds.length !== 1 || pane.runIds[0] !== pane.paneId || pane.activityIndices !== sharedEmptyList()) return;
		if (!isInt32(pane.depth) || !isInt32(pane.depthEpoch) || !isInt32(pane.rev)) return;
		this.int32.paneJobId.set(slot, this.strings.of(pane.jobId));
		if (pane.lastActivityId !== null) this.lastActivityId.set(slot, pane.lastActivityId);
		this.int32.paneDepth.set(slot, pane.depth);
		this.int32.paneDepthEpoch.set(slot, pane.depthEpoch);
		this.int32.paneRev.set(slot, pane.rev);
		this.wholePanes.delete(slot);
		this.uint8.paneState.set(slot, row);
	}

	/** Adds a page to every column. */
	#grow(): void {
		for (const group of [this.int32, this.float64, this.uint8]) for (const column of Object.values(group)) column.grow();
		this.expertKey.grow();
		this.#idText.grow();
	}

}

function setOptional(slot: number, value: number | undefined, bit: number, column: Column): number {
	if (value === undefined) return 0;
	column.set(slot, value);
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
	if (!closedRunStatuses.has(run.status) || run.query !== undefined || run.stepIndex !== undefined || run.streams !== sharedStreams) return false;
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
