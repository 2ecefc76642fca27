import {runStatuses, type Dialect, type RunStatus, type Usage} from '../events.js';
import {sharedEmptyList, sharedStreams} from '../run-collections.js';
import type {Pane, ResumedFrom, Run, StepRecord, StepStream} from '../state.js';
import {
	closesCycleBit,
	closingShift,
	currentStepBit,
	dialectMask,
	dialects,
	dialectShift,
	endedAtBit,
	lastEventAtBit,
	startedAtBit,
	startedBit,
	statusShift,
} from './record-layout.js';
import type {RecordValues} from './record-values.js';

/*
 * Runs and panes kept as records (run-records.ts), as their readers see them: objects whose fields read the
 * record's columns when they are read. One is made for each read (`Store`, store.ts): a view shows its record as
 * it was last written, and the reducer may take the run out of its record at the next event.
 */

/**
 * A reader's look at a run kept as a record: its fields read the columns, so a summary of 200,000 runs makes no
 * whole run. Only `rev` can be written (`endInput` counts on it); writing another field throws, as writing a
 * getter does.
 */
export class RunView implements Run {
	readonly #values: RecordValues;
	readonly #slot: number;
	readonly runId: string;

	constructor(values: RecordValues, slot: number, runId: string) {
		this.#values = values;
		this.#slot = slot;
		this.runId = runId;
	}

	get jobId(): string {
		return this.#values.strings.at(this.#values.int32.jobId.get(this.#slot)) ?? '';
	}

	get expertKey(): string {
		return this.#values.expertKeyOf(this.#slot);
	}

	get dialect(): Dialect {
		return dialects[(this.#values.int32.flags.get(this.#slot) >> dialectShift) & dialectMask] ?? 'perstack';
	}

	get model(): string | undefined {
		return this.#values.strings.at(this.#values.int32.model.get(this.#slot));
	}

	get paneId(): string {
		return this.#values.rareOf(this.#slot)?.paneId ?? this.runId;
	}

	get parentRunId(): string | null {
		return this.#values.strings.at(this.#values.int32.parentRunId.get(this.#slot)) ?? null;
	}

	get delegatingActivityId(): string | null {
		return this.#values.rareOf(this.#slot)?.delegatingActivityId ?? null;
	}

	get delegatedBy(): {expertKey: string; runId: string} | undefined {
		return this.#values.delegations.at(this.#values.int32.delegatedBy.get(this.#slot));
	}

	get resumesRunId(): string | null {
		return this.#values.rareOf(this.#slot)?.resumesRunId ?? null;
	}

	get resumedByRunId(): string | null {
		return this.#values.rareOf(this.#slot)?.resumedByRunId ?? null;
	}

	get resumedFrom(): ResumedFrom | null {
		return this.#values.rareOf(this.#slot)?.resumedFrom ?? null;
	}

	get started(): boolean {
		return this.#values.hasFlag(this.#slot, startedBit);
	}

	get status(): RunStatus {
		return runStatuses[(this.#values.int32.flags.get(this.#slot) >> statusShift) & 15] ?? 'init';
	}

	get statusStep(): number {
		return this.#values.float64.statusStep.get(this.#slot);
	}

	get endedSteps(): number[] {
		return this.#values.listsOf(this.#slot).endedSteps;
	}

	get usage(): Usage {
		return this.#values.usageOf(this.#slot);
	}

	get startedAt(): number | undefined {
		return this.#values.optional(this.#slot, startedAtBit, this.#values.float64.startedAt);
	}

	get endedAt(): number | undefined {
		return this.#values.optional(this.#slot, endedAtBit, this.#values.float64.endedAt);
	}

	get lastEventAt(): number | undefined {
		return this.#values.optional(this.#slot, lastEventAtBit, this.#values.float64.lastEventAt);
	}

	get currentStep(): number | undefined {
		return this.#values.optional(this.#slot, currentStepBit, this.#values.float64.currentStep);
	}

	get activityCount(): number {
		return this.#values.int32.activityCount.get(this.#slot);
	}

	get error(): {name: string; message: string} | undefined {
		return this.#values.rareOf(this.#slot)?.error;
	}

	get reportedDurationMs(): number | undefined {
		return this.#values.rareOf(this.#slot)?.reportedDurationMs;
	}

	get unsettled(): number[] {
		return sharedEmptyList();
	}

	get closing(): number {
		return (this.#values.int32.flags.get(this.#slot) >> closingShift) & 3;
	}

	get pendingToolCallIds(): string[] {
		return this.#values.rareOf(this.#slot)?.pendingToolCallIds ?? sharedEmptyList();
	}

	get childRunIds(): string[] {
		return this.#values.listsOf(this.#slot).childRunIds;
	}

	get adoptedBy(): string | null {
		return this.#values.strings.at(this.#values.int32.adoptedBy.get(this.#slot)) ?? null;
	}

	get closesCycle(): boolean {
		return this.#values.hasFlag(this.#slot, closesCycleBit);
	}

	get query(): string | undefined {
		return undefined;
	}

	get steps(): StepRecord[] {
		return this.#values.stepRecords(this.#slot);
	}

	get stepIndex(): Map<number, StepRecord> | undefined {
		return undefined;
	}

	get streams(): Map<number, StepStream> {
		return sharedStreams;
	}

	get messageSource(): string | undefined {
		return this.#values.strings.at(this.#values.int32.messageSource.get(this.#slot));
	}

	get rev(): number {
		return this.#values.int32.rev.get(this.#slot);
	}

	set rev(value: number) {
		this.#values.int32.rev.set(this.#slot, value);
	}
}

/** A reader's look at a pane kept as a record. Its depth and revision can be written (depth.ts remembers depths). */
export class PaneView implements Pane {
	readonly #values: RecordValues;
	readonly #slot: number;
	readonly paneId: string;

	constructor(values: RecordValues, slot: number, paneId: string) {
		this.#values = values;
		this.#slot = slot;
		this.paneId = paneId;
	}

	get jobId(): string {
		return this.#values.strings.at(this.#values.int32.paneJobId.get(this.#slot)) ?? '';
	}

	get runIds(): string[] {
		return [this.paneId];
	}

	get activityIndices(): number[] {
		return sharedEmptyList();
	}

	get lastActivityId(): string | null {
		return this.#values.lastActivityId.get(this.#slot) ?? null;
	}

	get depth(): number {
		return this.#values.int32.paneDepth.get(this.#slot);
	}

	set depth(value: number) {
		this.#values.int32.paneDepth.set(this.#slot, value);
	}

	get depthEpoch(): number {
		return this.#values.int32.paneDepthEpoch.get(this.#slot);
	}

	set depthEpoch(value: number) {
		this.#values.int32.paneDepthEpoch.set(this.#slot, value);
	}

	get rev(): number {
		return this.#values.int32.paneRev.get(this.#slot);
	}

	set rev(value: number) {
		this.#values.int32.paneRev.set(this.#slot, value);
	}
}
