import {TextAccumulator} from '../../source/model/text-accumulator.js';

/**
 * A model as plain data, including what class instances keep in private fields (streamed text).
 * `accumulator`: the TextAccumulator class of the code that built the model (the built one in dist/ for
 * models built by the compiled modules).
 */
export function modelSnapshot(value: unknown, accumulator: typeof TextAccumulator = TextAccumulator): unknown {
	const snapshot = (item: unknown) => modelSnapshot(item, accumulator);
	if (value instanceof accumulator) return {started: value.started, complete: value.isComplete, empty: value.isEmpty, text: value.text};
	if (value instanceof Map) return {map: [...value.entries()].map(([key, item]) => [snapshot(key), snapshot(item)])};
	if (value instanceof Set) return {set: [...value.values()].map(item => snapshot(item))};
	if (Array.isArray(value)) return value.map(item => snapshot(item));
	if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, snapshot(item)]));
	return value;
}
