import {dialects, type Usage} from './events.js';
import type {ResumedFrom} from './state.js';

/*
 * The layout of a row of a figures-only model's closed runs (compact-runs.ts): its columns, in pages, and what the
 * bits of its flags and the fields kept beside it hold. The rows write it (compact-runs.ts) and the views read
 * it (run-row-views.ts).
 */

/**
 * Columns are pages of this many slots: a column grows by a page, so nothing is copied and no more room is kept
 * than the rest of the last page (an array that doubled would keep up to as much room again as it holds, and
 * hold both while it copied).
 */
const pageShift = 12;
export const pageSlots = 1 << pageShift;
const pageMask = pageSlots - 1;

type Page = Int32Array | Float64Array | Uint8Array | Uint32Array;

/** A number per slot, in pages (`pageSlots`). */
class Column {
	readonly #pages: Page[] = [];
	readonly #make: (length: number) => Page;

	constructor(make: (length: number) => Page) {
		this.#make = make;
	}

	get(slot: number): number {
		return this.#pages[slot >>> pageShift]![slot & pageMask]!;
	}

	set(slot: number, value: number): void {
		this.#pages[slot >>> pageShift]![slot & pageMask] = value;
	}

	grow(): void {
		this.#pages.push(this.#make(pageSlots));
	}
}

// Made only here, by type (`uint32Column` and the groups below).
export type {Column};

/** A column of unsigned offsets (where a text is in an id table). */
export function uint32Column(): Column {
	return new Column(length => new Uint32Array(length));
}

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
export type Float64Columns = {statusStep: Column; startedAt: Column; endedAt: Column; lastEventAt: Column; currentStep: Column; messageOffset: Column};
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
	};
}

function uint8Of(make: () => Column): Uint8Columns {
	return {runState: make(), paneState: make(), touched: make(), revived: make(), paneRevived: make()};
}

/** A run's dialect in its flags is its index in `dialects` (events.ts), three bits from here. */
export const dialectShift = 18;
export const dialectMask = 7;
export {dialects};

// The other bits of a row's flags.
export const statusShift = 2;
export const closingShift = 6;
export const startedBit = 1 << 8;
export const closesCycleBit = 1 << 9;
export const hasStepBit = 1 << 10;
export const startedAtBit = 1 << 11;
export const endedAtBit = 1 << 12;
export const lastEventAtBit = 1 << 13;
export const currentStepBit = 1 << 14;
/** The run has fields most runs leave null (`RareFields`), kept beside the row. */
export const rareBit = 1 << 15;
/** The run's lists are not the shared ones most runs have (`Lists`), and are kept beside the row. */
export const listsBit = 1 << 16;
/** Without `listsBit`: the run ended its first step only, and has the shared list that says so. */
export const firstStepBit = 1 << 17;

/** Fields a run of a wide job leaves null: kept per run only where one is set. */
export type RareFields = {
	paneId: string;
	delegatingActivityId: string | null;
	resumesRunId: string | null;
	resumedByRunId: string | null;
	resumedFrom: ResumedFrom | null;
	error: {name: string; message: string} | undefined;
};

/** A run's lists and usage, kept per run only where they are not the shared ones a new run starts with. */
export type Lists = {usage: Usage; endedSteps: number[]; childRunIds: string[]};
