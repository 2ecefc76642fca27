import {closedRunStatuses, runStatuses} from '../events.js';
import {createIdTable, idAt, idOffset, type IdTable} from '../id-table.js';
import {Interned} from '../interned.js';
import {sharedEmptyList, sharedFirstStepList, sharedStreams} from '../run-collections.js';
import type {Pane, Run, StepRecord} from '../state.js';
import type {Usage} from '../events.js';
import {zeroUsage} from '../usage.js';
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
	rareBit,
	startedAtBit,
	startedBit,
	statusShift,
	usageBit,
	type Float64Columns,
	type Int32Columns,
	type Lists,
	type RareFields,
} from './record-layout.js';
import {uint32Column, type Column} from './column.js';

/*
 * What the records of a figures-only model's closed runs hold, slot by slot: the columns of record-layout.ts,
 * what is kept beside them for the few runs that need it, and the strings that repeat (job ids, parent ids,
 * expert keys) kept once. A run or pane goes in (`putRun`, `putPane`) and comes out again as the same whole
 * object (`runOf`, `paneOf`); the views (record-views.ts) read the same fields one at a time. Which slot is whose,
 * and whether it holds a record at all, is run-records.ts's to know.
 */

/** An expert key the byte table does not hold (see `idOffset`). */
const inOthers = 0xff_ff_ff_ff;

export function isInt32(value: number): boolean {
	return (value | 0) === value;
}

export class RecordValues {
	readonly int32: Int32Columns = int32Columns();
	readonly float64: Float64Columns = float64Columns();
	/**
	 * Per slot, where the run's expert key is in `#texts` (most runs of a wide job have one of their own, which as
	 * a string would be most of what a record costs), or `inOthers` for one kept in `#expertKeyOthers`.
	 */
	readonly #expertKey = uint32Column();
	readonly #texts: IdTable;
	readonly #expertKeyOthers = new Map<number, string>();
	readonly #rare = new Map<number, RareFields>();
	readonly #lists = new Map<number, Lists>();
	readonly lastActivityId = new Map<number, string>();
	readonly strings = new Interned<string>();
	readonly delegations = new Interned<{expertKey: string; runId: string}>();

	/** `tableFill`: see `createIdTable`. */
	constructor(tableFill: number) {
		this.#texts = createIdTable(false, 1024, tableFill);
	}

	/** Adds a page to every column. */
	grow(): void {
		for (const group of [this.int32, this.float64]) for (const column of Object.values(group)) column.grow();
		this.#expertKey.grow();
	}

	expertKeyOf(slot: number): string {
		const offset = this.#expertKey.get(slot);
		return offset === inOthers ? (this.#expertKeyOthers.get(slot) ?? '') : idAt(this.#texts, offset);
	}

	hasFlag(slot: number, bit: number): boolean {
		return (this.int32.flags.get(slot) & bit) !== 0;
	}

	optional(slot: number, bit: number, column: Column): number | undefined {
		return this.hasFlag(slot, bit) ? column.get(slot) : undefined;
	}

	rareOf(slot: number): RareFields | undefined {
		return this.hasFlag(slot, rareBit) ? this.#rare.get(slot) : undefined;
	}

	listsOf(slot: number): Lists {
		if (this.hasFlag(slot, listsBit)) return this.#lists.get(slot) ?? sharedLists;
		return this.hasFlag(slot, firstStepBit) ? firstStepLists : sharedLists;
	}

	/** The run's usage, made again from its columns (a new object each time), or the shared `zeroUsage`. */
	usageOf(slot: number): Usage {
		if (!this.hasFlag(slot, usageBit)) return zeroUsage;
		const {float64} = this;
		// In the order every usage of the model has its keys (usage.ts, the readers): the summaries write them so.
		return {
			inputTokens: float64.inputTokens.get(slot),
			outputTokens: float64.outputTokens.get(slot),
			reasoningTokens: float64.reasoningTokens.get(slot),
			totalTokens: float64.totalTokens.get(slot),
			cachedInputTokens: float64.cachedInputTokens.get(slot),
		};
	}

	stepRecords(slot: number): StepRecord[] {
		if (!this.hasFlag(slot, hasStepBit)) return sharedEmptyList();
		return [stepRecordLiteral(this.int32.step.get(slot), this.int32.messageLine.get(slot), this.float64.messageOffset.get(slot))];
	}

	/** The slot's run record is gone: what it held beside the columns goes, so that what the run lets go of later is not kept here. */
	forgetRun(slot: number): void {
		this.#expertKeyOthers.delete(slot);
		this.#rare.delete(slot);
		this.#lists.delete(slot);
	}

	/** The slot's pane record is gone. */
	forgetPane(slot: number): void {
		this.lastActivityId.delete(slot);
	}

	/** The run the slot's record holds, as the whole object it was. */
	runOf(slot: number, id: string): Run {
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
			usage: this.usageOf(slot),
			startedAt: this.optional(slot, startedAtBit, this.float64.startedAt),
			endedAt: this.optional(slot, endedAtBit, this.float64.endedAt),
			lastEventAt: this.optional(slot, lastEventAtBit, this.float64.lastEventAt),
			reportedDurationMs: rare?.reportedDurationMs,
			currentStep: this.optional(slot, currentStepBit, this.float64.currentStep),
			activityCount: this.int32.activityCount.get(slot),
			unsettled: sharedEmptyList(),
			closing: (flags >> closingShift) & 3,
			error: rare?.error,
			pendingToolCallIds: rare?.pendingToolCallIds ?? sharedEmptyList(),
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

	/** Writes a run into the slot's record; only a run that `fitsRecord`. */
	putRun(slot: number, run: Run): void {
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
		if (
			run.paneId !== run.runId ||
			run.delegatingActivityId !== null ||
			run.resumesRunId !== null ||
			run.resumedByRunId !== null ||
			run.resumedFrom !== null ||
			run.error !== undefined ||
			run.reportedDurationMs !== undefined ||
			run.pendingToolCallIds !== sharedEmptyList()
		) {
			flags |= rareBit;
			const {paneId, delegatingActivityId, resumesRunId, resumedByRunId, resumedFrom, error, reportedDurationMs, pendingToolCallIds} = run;
			this.#rare.set(slot, {paneId, delegatingActivityId, resumesRunId, resumedByRunId, resumedFrom, error, reportedDurationMs, pendingToolCallIds});
		}

		if (run.usage !== zeroUsage) {
			flags |= usageBit;
			const {float64} = this;
			float64.inputTokens.set(slot, run.usage.inputTokens);
			float64.outputTokens.set(slot, run.usage.outputTokens);
			float64.reasoningTokens.set(slot, run.usage.reasoningTokens);
			float64.totalTokens.set(slot, run.usage.totalTokens);
			float64.cachedInputTokens.set(slot, run.usage.cachedInputTokens);
		}

		if (run.childRunIds === sharedLists.childRunIds && run.endedSteps === firstStepLists.endedSteps) {
			flags |= firstStepBit;
		} else if (run.endedSteps !== sharedLists.endedSteps || run.childRunIds !== sharedLists.childRunIds) {
			flags |= listsBit;
			this.#lists.set(slot, {endedSteps: run.endedSteps, childRunIds: run.childRunIds});
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
		this.#expertKey.set(slot, text ?? inOthers);
		if (text === undefined) this.#expertKeyOthers.set(slot, run.expertKey);
	}

	/** The pane the slot's record holds, as the whole object it was. */
	paneOf(slot: number, id: string): Pane {
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

	/** Writes a pane into the slot's record; only a pane that `paneFitsRecord`. */
	putPane(slot: number, pane: Pane): void {
		this.int32.paneJobId.set(slot, this.strings.of(pane.jobId));
		if (pane.lastActivityId !== null) this.lastActivityId.set(slot, pane.lastActivityId);
		this.int32.paneDepth.set(slot, pane.depth);
		this.int32.paneDepthEpoch.set(slot, pane.depthEpoch);
		this.int32.paneRev.set(slot, pane.rev);
	}
}

function setOptional(slot: number, value: number | undefined, bit: number, column: Column): number {
	if (value === undefined) return 0;
	column.set(slot, value);
	return bit;
}

/** The statuses a run stops at for others (its delegates, a person) and is resumed from. */
const resumableStatuses: ReadonlySet<Run['status']> = new Set<Run['status']>(['stoppedByDelegate', 'stoppedByInteractiveTool']);

/** What a new run starts with (reduce/runs.ts, `newRun`): the lists most runs of a wide job keep. */
const sharedLists: Lists = {endedSteps: sharedEmptyList(), childRunIds: sharedEmptyList()};
const firstStepLists: Lists = {...sharedLists, endedSteps: sharedFirstStepList()};

/** A step record as the reducer makes it in a model that keeps figures only: where its messages are, nothing else. */
function stepRecordLiteral(step: number, messageLine: number, messageOffset: number): StepRecord {
	return {step, startedAt: undefined, finishedAt: undefined, usage: undefined, checkpointId: undefined, status: undefined, messageLine, messageOffset};
}

/**
 * Whether a run can be kept as a record: it closed, or it stopped and a run resumed it (a coordinator stopped by its
 * delegation: one a small job, ~1 KB whole), it waits for nothing and streams nothing, and every field has a place
 * in the columns. What has none (a second step record, a step record with more than where its messages are) keeps
 * the run whole: records are a saving, never a change.
 */
export function fitsRecord(run: Run): boolean {
	if (!(closedRunStatuses.has(run.status) || (run.resumedByRunId !== null && resumableStatuses.has(run.status)))) return false;
	if (run.query !== undefined || run.stepIndex !== undefined || run.streams !== sharedStreams || run.unsettled !== sharedEmptyList()) return false;
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

/** Whether a pane can be kept as a record: the pane of its one run, listing no activity, its numbers int32s. */
export function paneFitsRecord(pane: Pane): boolean {
	if (pane.runIds.length !== 1 || pane.runIds[0] !== pane.paneId || pane.activityIndices !== sharedEmptyList()) return false;
	return isInt32(pane.depth) && isInt32(pane.depthEpoch) && isInt32(pane.rev);
}
