import {TextAccumulator} from '../../source/model/text-accumulator.js';

/** A TextAccumulator class, the source's or the built one (what a snapshot reads of it). */
type AccumulatorClass = abstract new (...args: never[]) => Pick<TextAccumulator, 'started' | 'isComplete' | 'isEmpty' | 'text'>;

/**
 * A model as plain data, including what class instances keep in private fields (streamed text).
 * `accumulator`: the TextAccumulator class of the code that built the model (the built one in dist/ for
 * models built by the compiled modules).
 *
 * Written as loops rather than entries → map → fromEntries: the tests that compare models after every line
 * snapshot thousands of them, and this was most of their time.
 */
export function modelSnapshot(value: unknown, accumulator: AccumulatorClass = TextAccumulator): unknown {
	if (typeof value !== 'object' || value === null) return value;
	if (value instanceof accumulator) return {started: value.started, complete: value.isComplete, empty: value.isEmpty, text: value.text};
	if (value instanceof Map) {
		const entries: unknown[] = [];
		for (const [key, item] of value) entries.push([modelSnapshot(key, accumulator), modelSnapshot(item, accumulator)]);
		return {map: entries};
	}

	if (value instanceof Set) {
		const items: unknown[] = [];
		for (const item of value) items.push(modelSnapshot(item, accumulator));
		return {set: items};
	}

	// A typed array (the id tables' slots: thousands even when empty) is copied as what it is, compared element by
	// element, instead of becoming an object of thousands of index keys.
	if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return (value as Uint8Array).slice();
	// map keeps an array's holes, as the snapshot always has.
	if (Array.isArray(value)) return value.map((item: unknown) => modelSnapshot(item, accumulator));

	const plain: Record<string, unknown> = {};
	for (const key of Object.keys(value)) {
		const item = modelSnapshot((value as Record<string, unknown>)[key], accumulator);
		// An own `__proto__` key (JSON.parse makes them from hostile input) stays a key, as Object.fromEntries keeps it.
		if (key === '__proto__') Object.defineProperty(plain, key, {value: item, enumerable: true, writable: true, configurable: true});
		else plain[key] = item;
	}

	return plain;
}
