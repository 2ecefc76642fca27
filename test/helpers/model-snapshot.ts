import {TextAccumulator} from '../../source/model/text-accumulator.js';
import {expectSame, type Message} from './expect-same.js';

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

/**
 * Whether `modelSnapshot` makes equal snapshots (by `isDeepStrictEqual`) of `a` and `b`, found by walking the two
 * side by side without making them: the tests that compare a model after every line spent most of their time making
 * and comparing snapshots. A yes is always the snapshots' yes; on anything it does not mirror exactly (an own
 * `__proto__` key, kinds that differ) it says no, and `expectSameSnapshot` then compares the snapshots themselves.
 */
export function sameSnapshot(a: unknown, b: unknown, accumulator: AccumulatorClass = TextAccumulator): boolean {
	if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
	if (a instanceof accumulator || b instanceof accumulator) {
		return (
			a instanceof accumulator &&
			b instanceof accumulator &&
			Object.is(a.started, b.started) &&
			Object.is(a.isComplete, b.isComplete) &&
			Object.is(a.isEmpty, b.isEmpty) &&
			Object.is(a.text, b.text)
		);
	}

	if (a instanceof Map || b instanceof Map) {
		if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
		const entries = b.entries();
		for (const [key, item] of a) {
			const other = entries.next();
			if (other.done || !sameSnapshot(key, other.value[0], accumulator) || !sameSnapshot(item, other.value[1], accumulator)) return false;
		}

		return true;
	}

	if (a instanceof Set || b instanceof Set) {
		if (!(a instanceof Set && b instanceof Set) || a.size !== b.size) return false;
		const items = b.values();
		for (const item of a) {
			const other = items.next();
			if (other.done || !sameSnapshot(item, other.value, accumulator)) return false;
		}

		return true;
	}

	if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
		if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a instanceof DataView || b instanceof DataView) return false;
		if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
		const [left, right] = [a as Uint8Array, b as Uint8Array];
		if (left.length !== right.length) return false;
		// Compared as bytes: of the same kind of array, the same bytes are the same elements (by Object.is), and an id
		// table's pages are 64 KB each, which a loop over their elements took most of this function's time to walk.
		// Elements Object.is takes as equal in other bytes (NaNs of other payloads) are a no, which the snapshots decide.
		return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(Buffer.from(right.buffer, right.byteOffset, right.byteLength));
	}

	if (Array.isArray(a) || Array.isArray(b)) {
		if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
		for (let index = 0; index < a.length; index++) {
			// A hole is not undefined to isDeepStrictEqual, and the snapshot keeps holes.
			const has = index in a;
			if (has !== index in b) return false;
			if (has && !sameSnapshot(a[index], b[index], accumulator)) return false;
		}

		return true;
	}

	const keys = Object.keys(a);
	const otherKeys = Object.keys(b);
	if (keys.length !== otherKeys.length) return false;
	// Objects built alike have their keys in the same order: the same key at the same place is one of b's own
	// enumerable keys without asking b (asking for each key was a large share of this function's time).
	for (let index = 0; index < keys.length; index++) {
		const key = keys[index]!;
		if (key === '__proto__' || (otherKeys[index] !== key && !Object.prototype.propertyIsEnumerable.call(b, key))) return false;
		if (!sameSnapshot((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], accumulator)) return false;
	}

	return true;
}

/** `expectSame(modelSnapshot(actual), modelSnapshot(expected), message)`, the snapshots made only when `sameSnapshot` says no. */
export function expectSameSnapshot(actual: unknown, expected: unknown, message?: Message, accumulator: AccumulatorClass = TextAccumulator): void {
	if (sameSnapshot(actual, expected, accumulator)) return;
	expectSame(modelSnapshot(actual, accumulator), modelSnapshot(expected, accumulator), message);
}
