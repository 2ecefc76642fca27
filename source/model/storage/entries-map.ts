/**
 * What a read-only map made of its `entries()` and lookups gives besides: its keys, its values, its iteration and
 * `forEach`, each walked from `entries()`. The stores that keep their contents in columns (record-table.ts,
 * shared-values-by-id.ts) extend it, so that each writes only how its entries are read.
 */
export abstract class EntriesMap<T> implements ReadonlyMap<string, T> {
	abstract readonly size: number;
	abstract get(id: string): T | undefined;
	abstract has(id: string): boolean;
	abstract entries(): MapIterator<[string, T]>;

	*keys(): MapIterator<string> {
		for (const [id] of this.entries()) yield id;
	}

	*values(): MapIterator<T> {
		for (const [, value] of this.entries()) yield value;
	}

	[Symbol.iterator](): MapIterator<[string, T]> {
		return this.entries();
	}

	forEach(callback: (value: T, key: string, map: ReadonlyMap<string, T>) => void, thisArg?: unknown): void {
		for (const [id, value] of this.entries()) callback.call(thisArg, value, id, this);
	}
}
