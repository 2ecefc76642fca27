import {runStatuses, type Dialect, type RunStatus, type Usage} from './events.js';
import type {Interned} from './interned.js';
import {sharedEmptyList, sharedStreams} from './run-collections.js';
import {
	closesCycleBit,
	closingShift,
	currentStepBit,
	dialects,
	dialectMask,
	dialectShift,
	endedAtBit,
	lastEventAtBit,
	startedAtBit,
	startedBit,
	statusShift,
	type Column,
	type Float64Columns,
	type Int32Columns,
	type Lists,
	type RareFields,
} from './row-columns.js';
import type {Pane, ResumedFrom, Run, StepRecord, StepStream} from './state.js';

/*
 * Runs and panes kept as rows (compact-runs.ts), as their readers see them: objects whose fields read the row.
 */

/** What a view reads of the rows (`RunRows`): the columns, and what is kept beside them. */
export type RowReader = {
	readonly int32: Int32Columns;
	readonly float64: Float64Columns;
	readonly strings: Pick<Interned<string>, 'at'>;
	readonly delegations: Pick<Interned<{expertKey: string; runId: string}>, 'at'>;
	readonly lastActivityId: ReadonlyMap<number, string>;
	expertKeyOf(slot: number): string;
	hasFlag(slot: number, bit: number): boolean;
	optional(slot: number, bit: number, column: Column): number | undefined;
	rareOf(slot: number): RareFields | undefined;
	listsOf(slot: number): Lists;
	stepRecords(slot: number): StepRecord[];
};

/**
 * A reader's look at a run kept as a row: its fields read the columns, so a summary of 200,000 runs makes no
 * whole run. Only `rev` can be written (`endInput` counts on it); writing another field throws, as writing a
 * getter does.
 */
export class RunView implements Run {
	readonly #rows: RowReader;
	readonly #slot: number;
	readonly runId: string;

	constructor(rows: RowReader, slot: number, runId: string) {
		this.#rows = rows;
		this.#slot = slot;
		this.runId = runId;
	}

	get jobId(): string {
		return this.#rows.strings.at(this.#rows.int32.jobId.get(this.#slot)) ?? '';
	}

	get expertKey(): string {
		return this.#rows.expertKeyOf(this.#slot);
	}

	get dialect(): Dialect {
		return dialects[(this.#rows.int32.flags.get(this.#slot) >> dialectShift) & dialectMask] ?? 'perstack';
	}

	get model(): string | undefined {
		return this.#rows.strings.at(this.#rows.int32.model.get(this.#slot));
	}

	get paneId(): string {
		return this.#rows.rareOf(this.#slot)?.paneId ?? this.runId;
	}

	get parentRunId(): string | null {
		return this.#rows.strings.at(this.#rows.int32.parentRunId.get(this.#slot)) ?? null;
	}

	get delegatingActivityId(): string | null {
		return this.#rows.rareOf(this.#slot)?.delegatingActivityId ?? null;
	}

	get delegatedBy(): {expertKey: string; runId: string} | undefined {
		return this.#rows.delegations.at(this.#rows.int32.delegatedBy.get(this.#slot));
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
		return runStatuses[(this.#rows.int32.flags.get(this.#slot) >> statusShift) & 15] ?? 'init';
	}

	get statusStep(): number {
		return this.#rows.float64.statusStep.get(this.#slot);
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
		return this.#rows.int32.activityCount.get(this.#slot);
	}

	get error(): {name: string; message: string} | undefined {
		return this.#rows.rareOf(this.#slot)?.error;
	}

	get unsettled(): number[] {
		return sharedEmptyList();
	}

	get closing(): number {
		return (this.#rows.int32.flags.get(this.#slot) >> closingShift) & 3;
	}

	get pendingToolCallIds(): string[] {
		return sharedEmptyList();
	}

	get childRunIds(): string[] {
		return this.#rows.listsOf(this.#slot).childRunIds;
	}

	get adoptedBy(): string | null {
		return this.#rows.strings.at(this.#rows.int32.adoptedBy.get(this.#slot)) ?? null;
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
		return this.#rows.strings.at(this.#rows.int32.messageSource.get(this.#slot));
	}

	get rev(): number {
		return this.#rows.int32.rev.get(this.#slot);
	}

	set rev(value: number) {
		this.#rows.int32.rev.set(this.#slot, value);
	}
}

/** A reader's look at a pane kept as a row. Its depth and revision can be written (depth.ts remembers depths). */
export class PaneView implements Pane {
	readonly #rows: RowReader;
	readonly #slot: number;
	readonly paneId: string;

	constructor(rows: RowReader, slot: number, paneId: string) {
		this.#rows = rows;
		this.#slot = slot;
		this.paneId = paneId;
	}

	get jobId(): string {
		return this.#rows.strings.at(this.#rows.int32.paneJobId.get(this.#slot)) ?? '';
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
		return this.#rows.int32.paneDepth.get(this.#slot);
	}

	set depth(value: number) {
		this.#rows.int32.paneDepth.set(this.#slot, value);
	}

	get depthEpoch(): number {
		return this.#rows.int32.paneDepthEpoch.get(this.#slot);
	}

	set depthEpoch(value: number) {
		this.#rows.int32.paneDepthEpoch.set(this.#slot, value);
	}

	get rev(): number {
		return this.#rows.int32.paneRev.get(this.#slot);
	}

	set rev(value: number) {
		this.#rows.int32.paneRev.set(this.#slot, value);
	}
}
