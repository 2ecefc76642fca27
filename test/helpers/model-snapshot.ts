import {TextAccumulator} from '../../source/model/text-accumulator.js';

/** A model as plain data, including what class instances keep in private fields (streamed text). */
export function modelSnapshot(value: unknown): unknown {
	if (value instanceof TextAccumulator) return {started: value.started, complete: value.isComplete, empty: value.isEmpty, text: value.text};
	if (value instanceof Map) return {map: [...value.entries()].map(([key, item]) => [modelSnapshot(key), modelSnapshot(item)])};
	if (value instanceof Set) return {set: [...value.values()].map(item => modelSnapshot(item))};
	if (Array.isArray(value)) return value.map(item => modelSnapshot(item));
	if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, modelSnapshot(item)]));
	return value;
}
