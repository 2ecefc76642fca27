/**
 * Values kept once each, numbered in the order first seen: by value for strings, by identity for objects; -1
 * stands for null or undefined. A figures-only model's records keep such numbers for repeated strings
 * (storage/record-values.ts); a parsed chunk's batch posts its strings once each (load/chunk-batch.ts).
 */
export class Interned<T> {
	readonly #values: T[] = [];
	readonly #index = new Map<T, number>();

	of(value: T | null | undefined): number {
		if (value === null || value === undefined) return -1;
		let index = this.#index.get(value);
		if (index === undefined) {
			index = this.#values.length;
			this.#values.push(value);
			this.#index.set(value, index);
		}

		return index;
	}

	at(index: number): T | undefined {
		return index < 0 ? undefined : this.#values[index];
	}

	/** Every value kept, by its number. */
	get values(): readonly T[] {
		return this.#values;
	}
}
