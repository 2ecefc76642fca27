import {EntriesMap} from './entries-map.js';
import {createIdTable, getId, idAt, placeId} from '../id-table.js';
import {pageSlots, uint32Column} from './column.js';

/** An id the byte table does not hold (see `placeId`). */
const inOthers = 0xff_ff_ff_ff;

/**
 * Values by id, where most ids have one of a few values, as a Map reads them (`get`, `has`, iteration in the
 * order the ids were first set). A figures-only model keeps what each run's `initializeRuntime` said this way
 * (`Model.runtime`): every run of a log has one, and there it is the model's name and whether the run has a
 * query, the same for most runs. As a Map of an object per run it was ~215 bytes a run, most of a small job's
 * runs (docs/performance.md); here an id is its bytes in an id table (id-table.ts) and two numbers, and a value
 * is kept once for all the ids whose `shareAs` key is the same.
 */
export class SharedValuesById<T> extends EntriesMap<T> {
	/** Each id's entry, numbered in the order it was first set. */
	readonly #ids = createIdTable(true, 1024, 7);
	/** Per entry, where its id is in `#ids` (`idAt`), or `inOthers` for one kept in `#idOthers`. */
	readonly #idText = uint32Column();
	readonly #idOthers = new Map<number, string>();
	/** Per entry, its value's number in `#values`. */
	readonly #valueOf = uint32Column();
	readonly #values: T[] = [];
	/** The number of the value kept for each key `shareAs` gave. */
	readonly #shared = new Map<string, number>();
	/** A value's key: values of the same key are the same, and one of them stands for all; undefined for a value kept on its own. */
	readonly #shareAs: (value: T) => string | undefined;
	#entries = 0;

	constructor(shareAs: (value: T) => string | undefined) {
		super();
		this.#shareAs = shareAs;
	}

	get size(): number {
		return this.#entries;
	}

	get(id: string): T | undefined {
		const entry = getId(this.#ids, id);
		return entry === undefined ? undefined : this.#values[this.#valueOf.get(entry)];
	}

	has(id: string): boolean {
		return getId(this.#ids, id) !== undefined;
	}

	set(id: string, value: T): void {
		let entry = getId(this.#ids, id);
		if (entry === undefined) {
			entry = this.#entries++;
			if (entry % pageSlots === 0) {
				this.#idText.grow();
				this.#valueOf.grow();
			}

			const text = placeId(this.#ids, id, entry);
			this.#idText.set(entry, text ?? inOthers);
			if (text === undefined) this.#idOthers.set(entry, id);
		}

		this.#valueOf.set(entry, this.#numberOf(value));
	}

	#numberOf(value: T): number {
		const key = this.#shareAs(value);
		const kept = key === undefined ? undefined : this.#shared.get(key);
		if (kept !== undefined && key !== undefined) return kept;
		const number = this.#values.length;
		this.#values.push(value);
		if (key !== undefined) this.#shared.set(key, number);
		return number;
	}

	*entries(): MapIterator<[string, T]> {
		for (let entry = 0; entry < this.#entries; entry++) {
			const text = this.#idText.get(entry);
			const id = text === inOthers ? (this.#idOthers.get(entry) ?? '') : idAt(this.#ids, text);
			yield [id, this.#values[this.#valueOf.get(entry)]!];
		}
	}
}
