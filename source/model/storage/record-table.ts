import {EntriesMap} from './entries-map.js';
import type {RecordKind, RunRecords} from './run-records.js';
import type {Store} from './store.js';

/*
 * `model.runs` or `model.panes` of a model that keeps its runs as records (run-records.ts): the records of one
 * kind by id, in the order the runs were added. `get` and iteration give a run or pane kept as a record as a view
 * of it, made anew on each call (see `Store`); `live` gives the one whole object the reducer changes.
 */
export class RecordTable<T> extends EntriesMap<T> implements Store<T> {
	readonly records: RunRecords;
	readonly #kind: RecordKind<T>;

	constructor(records: RunRecords, kind: RecordKind<T>) {
		super();
		this.records = records;
		this.#kind = kind;
	}

	get size(): number {
		return this.#kind.count();
	}

	get(id: string): T | undefined {
		const slot = this.records.slotInOrder(id);
		return slot === undefined ? undefined : this.#kind.view(slot, id);
	}

	has(id: string): boolean {
		const slot = this.records.slotOf(id);
		return slot !== undefined && this.#kind.has(slot);
	}

	set(id: string, value: T): void {
		this.#kind.set(id, value);
	}

	delete(id: string): boolean {
		const slot = this.records.slotOf(id);
		return slot !== undefined && this.#kind.delete(slot);
	}

	*entries(): MapIterator<[string, T]> {
		const {records} = this;
		for (let slot = 0; slot < records.slotCount; slot++) {
			if (!this.#kind.has(slot)) continue;
			const id = records.idOf(slot);
			const value = this.#kind.view(slot, id);
			if (value) yield [id, value];
		}
	}

	/** The whole object the reducer may change; it goes back in its record after the event (`compactTouched`). */
	live(id: string): T | undefined {
		const slot = this.records.slotOf(id);
		if (slot === undefined) return undefined;
		const value = this.#kind.whole(slot, id);
		if (value) this.records.touch(slot);
		return value;
	}
}
