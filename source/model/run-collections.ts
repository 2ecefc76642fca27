import type {Run, StepRecord, StepStream} from './state.js';

/*
 * Most runs of a wide job never stream, never wait for a call and delegate to nobody: an empty Map or array
 * costs more than the rest of such a run's fields together. A new run shares the empty ones below, and gets its
 * own on its first write (only through the functions below). They refuse writes, so a stray write elsewhere
 * fails loudly instead of reaching every run at once.
 */
class SharedEmptyMap<K, V> extends Map<K, V> {
	override set(): this {
		throw new Error('a shared empty map was written to');
	}
}

class SharedEmptyList<T> extends Array<T> {
	/** What `map`, `filter` or `concat` of it make is an ordinary array, which its caller may fill. */
	static override get [Symbol.species](): ArrayConstructor {
		return Array;
	}

	override push(): number {
		throw new Error('a shared empty list was written to');
	}

	override unshift(): number {
		throw new Error('a shared empty list was written to');
	}
}

export const sharedStreams: Map<number, StepStream> = new SharedEmptyMap<number, StepStream>();

/** An empty list new runs and panes share until they add to it with `appended`. */
export function sharedEmptyList<T>(): T[] {
	return sharedList;
}

const sharedList = new SharedEmptyList<never>();

/** The ended steps of a run that ended its first step only, as most runs of a wide job do: shared like the empty list. */
const sharedFirstStep: number[] = SharedEmptyList.of(1);

/** The shared list of ended steps of a run that ended its first step only (`addEndedStep`). */
export function sharedFirstStepList(): number[] {
	return sharedFirstStep;
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
	// An array literal has exactly the length written. Not `list.concat([item])`: concat is a call into V8's C++
	// runtime, about a microsecond each, which was a tenth of the reducer's time on a Claude Code stream.
	switch (list.length) {
		case 0:
			return [item];
		case 1:
			return [list[0] as T, item];
		case 2:
			return [list[0] as T, list[1] as T, item];
		case 3:
			return [list[0] as T, list[1] as T, list[2] as T, item];
		case 4:
			return [list[0] as T, list[1] as T, list[2] as T, list[3] as T, item];
		case 5:
			return [list[0] as T, list[1] as T, list[2] as T, list[3] as T, list[4] as T, item];
		case 6:
			return [list[0] as T, list[1] as T, list[2] as T, list[3] as T, list[4] as T, list[5] as T, item];
		case 7:
			return [list[0] as T, list[1] as T, list[2] as T, list[3] as T, list[4] as T, list[5] as T, list[6] as T, item];
		default:
			list.push(item);
			return list;
	}
}

/**
 * Ended steps are a sorted list of distinct step numbers rather than a Set: most runs end a few steps, and a
 * Set's hash table costs several times a short list. Steps end in order, so adding is an append; a late one
 * is put in its place.
 */
export function hasEndedStep(run: Run, step: number): boolean {
	const at = lowerBound(run.endedSteps, step, value => value);
	return at < run.endedSteps.length && run.endedSteps[at] === step;
}

export function addEndedStep(run: Run, step: number): void {
	const list = run.endedSteps;
	const at = lowerBound(list, step, value => value);
	if (at < list.length && list[at] === step) return;
	if (at === list.length) {
		run.endedSteps = list.length === 0 && step === 1 ? sharedFirstStep : appended(list, step);
		return;
	}

	const copy = list.slice();
	copy.splice(at, 0, step);
	run.endedSteps = copy;
}

/** The highest step the run ended, if any. */
export function lastEndedStep(run: Run): number | undefined {
	return run.endedSteps.at(-1);
}

/**
 * The run's record of a step. Records are kept in `run.steps` in the order they were made; while steps come in
 * order that list is sorted and is searched by halves. A step that comes out of order makes an index by step
 * number (`run.stepIndex`), kept from then on, so a run of 100,000 steps in any order stays linear.
 */
export function stepRecordOf(run: Run, step: number): StepRecord | undefined {
	if (run.stepIndex) return run.stepIndex.get(step);
	const at = lowerBound(run.steps, step, record => record.step);
	// Not `run.steps[at]` past the end: a new step's lookup is one, and the optimised code, compiled for reads
	// within bounds, was thrown away for it again and again (a dozen times over a 4 MB Gemini CLI stream).
	if (at >= run.steps.length) return undefined;
	const record = run.steps[at]!;
	return record.step === step ? record : undefined;
}

/** Adds the record of a step that has none yet (see `stepRecordOf`). */
export function addStepRecord(run: Run, record: StepRecord): void {
	const last = run.steps.at(-1);
	if (!run.stepIndex && last !== undefined && record.step < last.step) {
		run.stepIndex = new Map();
		for (const earlier of run.steps) run.stepIndex.set(earlier.step, earlier);
	}

	run.stepIndex?.set(record.step, record);
	run.steps = appended(run.steps, record);
}

function lowerBound<T>(list: readonly T[], wanted: number, key: (item: T) => number): number {
	let low = 0;
	let high = list.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (key(list[middle]!) < wanted) low = middle + 1;
		else high = middle;
	}

	return low;
}
