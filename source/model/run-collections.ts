import type {Run, StepRecord, StepStream} from './state.js';

/*
 * Most runs of a wide job never stream, and many end no step of their own: an empty Set or Map costs more
 * than the rest of such a run together. A new run shares these empty ones, and gets its own on its first
 * write (only through the functions below). They refuse writes, so a stray write elsewhere fails loudly
 * instead of reaching every run at once.
 */
class SharedEmptySet<T> extends Set<T> {
	override add(): this {
		throw new Error('a shared empty set was written to');
	}
}

class SharedEmptyMap<K, V> extends Map<K, V> {
	override set(): this {
		throw new Error('a shared empty map was written to');
	}
}

export const sharedEndedSteps: Set<number> = new SharedEmptySet<number>();
export const sharedStepsByNumber: Map<number, StepRecord> = new SharedEmptyMap<number, StepRecord>();
export const sharedStreams: Map<number, StepStream> = new SharedEmptyMap<number, StepStream>();

export function addEndedStep(run: Run, step: number): void {
	if (run.endedSteps === sharedEndedSteps) run.endedSteps = new Set();
	run.endedSteps.add(step);
}

export function setStepRecord(run: Run, step: number, record: StepRecord): void {
	if (run.stepsByNumber === sharedStepsByNumber) run.stepsByNumber = new Map();
	run.stepsByNumber.set(step, record);
}

export function setStream(run: Run, step: number, stream: StepStream): void {
	if (run.streams === sharedStreams) run.streams = new Map();
	run.streams.set(step, stream);
}

/**
 * `list` with `item` at its end. Most per-run and per-pane lists stay short, and a first `push` onto an empty
 * array reserves room for seventeen items: while a list is short it is copied at its exact size instead.
 * Callers store the list returned, which is `list` itself once the list is long.
 */
export function appended<T>(list: T[], item: T): T[] {
	if (list.length >= shortListLength) {
		list.push(item);
		return list;
	}

	// `concat` makes an array of exactly the length needed, where `push` would reserve room.
	return list.concat([item]);
}

const shortListLength = 8;
