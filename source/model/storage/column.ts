/*
 * A number per slot, in pages: the columns of the records of runs (record-layout.ts) and of other tables kept by
 * slot (shared-values-by-id.ts).
 */

/**
 * Columns are pages of this many slots: a column grows by a page, so nothing is copied and no more room is kept
 * than the rest of the last page (an array that doubled would keep up to as much room again as it holds, and
 * hold both while it copied).
 */
const pageShift = 12;
export const pageSlots = 1 << pageShift;
const pageMask = pageSlots - 1;

export type Page = Int32Array | Float64Array | Uint8Array | Uint32Array;

/** A number per slot, in pages (`pageSlots`). */
export class Column {
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

/** A column of unsigned offsets (where a text is in an id table). */
export function uint32Column(): Column {
	return new Column(length => new Uint32Array(length));
}
