import {dialects} from '../events.js';
import type {ResumedFrom} from '../state.js';
import {Column} from './column.js';

/*
 * The layout of a record of a figures-only model's closed runs (a run and its pane, kept in the columns of
 * run-records.ts): its columns, in pages, and what the bits of its flags and the fields kept beside it hold.
 * record-values.ts writes and reads it, and the views (record-views.ts) read it.
 */

// The columns, by type; each holds a value per slot.
export type Int32Columns = {
	flags: Column;
	jobId: Column;
	model: Column;
	parentRunId: Column;
	adoptedBy: Column;
	delegatedBy: Column;
	messageSource: Column;
	activityCount: Column;
	rev: Column;
	step: Column;
	messageLine: Column;
	paneJobId: Column;
	paneDepth: Column;
	paneDepthEpoch: Column;
	paneRev: Column;
};
export type Float64Columns = {
	statusStep: Column;
	startedAt: Column;
	endedAt: Column;
	lastEventAt: Column;
	currentStep: Column;
	messageOffset: Column;
	// A run's usage (`usageBit`), a count a column: as an object beside the record it cost ~110 bytes a run, with
	// the run's `Lists` ~170 (docs/performance.md).
	inputTokens: Column;
	outputTokens: Column;
	reasoningTokens: Column;
	totalTokens: Column;
	cachedInputTokens: Column;
};
export type Uint8Columns = {runState: Column; paneState: Column; touched: Column; revived: Column; paneRevived: Column};

export function int32Columns(): Int32Columns {
	return int32Of(() => new Column(length => new Int32Array(length)));
}

export function float64Columns(): Float64Columns {
	return float64Of(() => new Column(length => new Float64Array(length)));
}

export function uint8Columns(): Uint8Columns {
	return uint8Of(() => new Column(length => new Uint8Array(length)));
}

function int32Of(make: () => Column): Int32Columns {
	return {
		flags: make(),
		jobId: make(),
		model: make(),
		parentRunId: make(),
		adoptedBy: make(),
		delegatedBy: make(),
		messageSource: make(),
		activityCount: make(),
		rev: make(),
		step: make(),
		messageLine: make(),
		paneJobId: make(),
		paneDepth: make(),
		paneDepthEpoch: make(),
		paneRev: make(),
	};
}

function float64Of(make: () => Column): Float64Columns {
	return {
		statusStep: make(),
		startedAt: make(),
		endedAt: make(),
		lastEventAt: make(),
		currentStep: make(),
		messageOffset: make(),
		inputTokens: make(),
		outputTokens: make(),
		reasoningTokens: make(),
		totalTokens: make(),
		cachedInputTokens: make(),
	};
}

function uint8Of(make: () => Column): Uint8Columns {
	return {runState: make(), paneState: make(), touched: make(), revived: make(), paneRevived: make()};
}

/** A run's dialect in its flags is its index in `dialects` (events.ts), three bits from here. */
export const dialectShift = 18;
export const dialectMask = 7;
export {dialects};

// The other bits of a record's flags.
export const statusShift = 2;
export const closingShift = 6;
export const startedBit = 1 << 8;
export const closesCycleBit = 1 << 9;
export const hasStepBit = 1 << 10;
export const startedAtBit = 1 << 11;
export const endedAtBit = 1 << 12;
export const lastEventAtBit = 1 << 13;
export const currentStepBit = 1 << 14;
/** The run has fields most runs leave null (`RareFields`), kept beside the record. */
export const rareBit = 1 << 15;
/** The run's lists are not the shared ones most runs have (`Lists`), and are kept beside the record. */
export const listsBit = 1 << 16;
/** Without `listsBit`: the run ended its first step only, and has the shared list that says so. */
export const firstStepBit = 1 << 17;
/** The run's usage is in the usage columns; without it, it is `zeroUsage`. */
export const usageBit = 1 << 21;

/** Fields a run of a wide job leaves null: kept per run only where one is set. */
export type RareFields = {
	paneId: string;
	delegatingActivityId: string | null;
	resumesRunId: string | null;
	resumedByRunId: string | null;
	resumedFrom: ResumedFrom | null;
	error: {name: string; message: string} | undefined;
	reportedDurationMs: number | undefined;
	/** A stopped run's, once a run resumed it (see `fitsRecord`); else the shared empty list. */
	pendingToolCallIds: string[];
};

/** A run's lists, kept per run only where they are not the shared ones a new run starts with. */
export type Lists = {endedSteps: number[]; childRunIds: string[]};
