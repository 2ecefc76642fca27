import {createIdTable, getId, idAt, isIdAt, placeId, type IdTable} from '../id-table.js';
import type {Pane, Run} from '../state.js';
import {pageSlots, uint32Column} from './column.js';
import {uint8Columns, type Uint8Columns} from './record-layout.js';
import {fitsRecord, paneFitsRecord, RecordValues} from './record-values.js';
import {PaneView, RunView} from './record-views.js';
import {WaitingRecords} from './waiting-records.js';

/*
 * Where a model that keeps figures only (`Model.figuresOnly`) keeps its runs and panes once it has many
 * (`Model.recordsFrom`). A wide job has hundreds of thousands of runs that closed long ago: each as a `Run` object
 * with its step record and its `Pane` cost several times what its figures do. Here a run that closed (and waits
 * for nothing: see `fitsRecord`) is kept as a record in numbered columns, its pane and its one step record folded
 * into it (record-values.ts). Each slot holds a run and the pane of the same id, each of them absent, whole (an
 * object the reducer is changing, or one that has no record), or a record. Readers see a record through a view
 * (record-views.ts, made anew on each read); the reducer takes a run or a pane out of its record as a whole
 * object again (`wholeRun`/`wholePane`: the same object each time, exactly what it would have been), and
 * `compactTouched` puts whatever it touched back in records after each event. The tables over this (record-table.ts)
 * give it to the model's readers by id.
 *
 * Runs and panes share their numbering: a pane is made with the run of its id (reduce/runs.ts, `newRun`), and is only
 * ever deleted, never made again, so the panes' order is the runs' order without the panes deleted.
 */

/** What a slot holds of a run or a pane: nothing (deleted), a whole object, or a record in the columns. */
const absent = 0;
const whole = 1;
const record = 2;

/**
 * The records' id tables grow at seven eighths full, not three quarters: a wide job's 200,000 ids then fit in 262,144
 * slots instead of 524,288, for probes a few slots longer.
 */
const tableFill = 7;

/** How many runs' slots by id are kept at hand (`slotOf`): a few children stream at once. */
const recentRuns = 4;

/** An id the byte table does not hold (see `placeId`). */
const inOthers = 0xff_ff_ff_ff;

/**
 * A run or pane taken out of its record this many times stays whole: it is one that events keep coming for, as to a
 * coordinator that closed before the children it delegated to started (each adds itself to its list), or to the
 * pane of a run that is still running. Making it again for each event would be most of what a load allocates.
 */
const maxRevivals = 2;

/** One kind of object the records keep (runs, or panes), as a table over them reads and writes it (record-table.ts). */
export type RecordKind<T> = {
	count(): number;
	has(slot: number): boolean;
	/** A reader's look: the whole object, or a new view of its record. */
	view(slot: number, id: string): T | undefined;
	/** The whole object the reducer may change, taken out of its record if it was in one. */
	whole(slot: number, id: string): T | undefined;
	set(id: string, value: T): void;
	delete(slot: number): boolean;
};

export class RunRecords {
	/**
	 * Every run's slot by its id, and the id of each slot: slots are numbered in the order the runs were added,
	 * the order of `model.runs`. The table keeps the ids as bytes, not strings (id-table.ts).
	 */
	readonly #slots: IdTable;
	/** Per slot, where its id is in `#slots` (`idAt`), or `inOthers` for one kept in `#idOthers`. */
	readonly #idText = uint32Column();
	readonly #idOthers = new Map<number, string>();
	/** How many slots there are. */
	slotCount = 0;
	runCount = 0;
	paneCount = 0;
	/** Runs and panes kept whole: few at a time, those the reducer is changing or can not put in a record. */
	readonly wholeRuns = new Map<number, Run>();
	readonly wholePanes = new Map<number, Pane>();
	/** Slots the reducer touched during the current event: put back in records when it ends. */
	readonly touched: number[] = [];
	/** Per slot, what it holds of its run and its pane, whether it was touched, and how often each was revived. */
	readonly #state: Uint8Columns = uint8Columns();
	readonly values = new RecordValues(tableFill);
	readonly waiting = new WaitingRecords(this, tableFill);

	readonly runs: RecordKind<Run> = {
		count: () => this.runCount,
		has: slot => this.#state.runState.get(slot) !== absent,
		view: (slot, id) => this.#runView(slot, id),
		whole: (slot, id) => this.#wholeRun(slot, id),
		// A run deleted and set again keeps its place, where a Map would move it last: the reducer deletes no run.
		set: (id, run) => this.#setRun(this.slotOf(id) ?? this.#add(id), run),
		// The slot stays, for the pane of the same id.
		delete: slot => this.#deleteRun(slot),
	};

	readonly panes: RecordKind<Pane> = {
		count: () => this.paneCount,
		has: slot => this.#state.paneState.get(slot) !== absent,
		view: (slot, id) => this.#paneView(slot, id),
		whole: (slot, id) => this.#wholePane(slot, id),
		set: (id, pane) => {
			const slot = this.slotOf(id);
			// A pane is made with the run of its id (reduce/runs.ts, `newRun`), which gives both their place in the order.
			if (slot === undefined) throw new Error(`pane ${id} has no run of its id`);
			this.#setPane(slot, pane);
		},
		delete: slot => this.#deletePane(slot),
	};

	/**
	 * `runs`: how many runs are about to be adopted (`adopt`). The id table is made the size it would grow to for
	 * them: the same room, without rehashing every id of it at each of the doublings on the way (1,024 to 65,536
	 * slots for the 32,768 runs a model starts its records with).
	 */
	constructor(runs = 0) {
		let slots = 1024;
		while (runs * 8 > slots * tableFill) slots *= 2;
		this.#slots = createIdTable(true, slots, tableFill);
	}

	slotOf(id: string): number | undefined {
		// Most events are of one of the few runs the events just before were of: their slots are at hand.
		const ids = this.#recentIds;
		for (let i = 0; i < ids.length; i++) if (ids[i] === id) return this.#recentSlots[i];
		const slot = getId(this.#slots, id);
		if (slot !== undefined) {
			this.#recent = (this.#recent + 1) % recentRuns;
			ids[this.#recent] = id;
			this.#recentSlots[this.#recent] = slot;
		}

		return slot;
	}

	readonly #recentIds: Array<string | undefined> = Array.from({length: recentRuns}, () => undefined);
	readonly #recentSlots = new Int32Array(recentRuns);
	#recent = 0;

	/**
	 * `slotOf` for a reader's walk (`RecordTable.get`): a walk over a job's runs (the summary's totals, costs and
	 * root panes) asks for them mostly in the order they were added, so before the id is hashed and looked for in
	 * the table it is compared with the ids of the slot read last (a run's pane after the run), the one after it,
	 * and the one after the slot read before that (a walk that reads another run between two of its own). Each slot
	 * holds its own id, so a slot that holds it is the one. Only reads move them: the parents a walk asks about
	 * between runs (`has`) do not.
	 */
	slotInOrder(id: string): number | undefined {
		const last = this.#lastRead;
		if (last >= 0 && this.#holdsId(last, id)) return last;
		let slot = last + 1 < this.slotCount && this.#holdsId(last + 1, id) ? last + 1 : undefined;
		if (slot === undefined && this.#readBefore + 1 < this.slotCount && this.#holdsId(this.#readBefore + 1, id)) slot = this.#readBefore + 1;
		slot ??= this.slotOf(id);
		if (slot !== undefined) {
			this.#readBefore = last;
			this.#lastRead = slot;
		}

		return slot;
	}

	#lastRead = -1;
	#readBefore = -1;

	#holdsId(slot: number, id: string): boolean {
		const text = this.#idText.get(slot);
		return text === inOthers ? this.#idOthers.get(slot) === id : isIdAt(this.#slots, text, id);
	}

	/** The id of a slot's run, made again from its bytes. */
	idOf(slot: number): string {
		const text = this.#idText.get(slot);
		return text === inOthers ? (this.#idOthers.get(slot) ?? '') : idAt(this.#slots, text);
	}

	touch(slot: number): void {
		if (slot === this.#lastTouched || this.#state.touched.get(slot) === 1) return;
		this.#lastTouched = slot;
		this.#state.touched.set(slot, 1);
		this.touched.push(slot);
	}

	#lastTouched = -1;

	/** Puts the runs and panes touched during an event back in records where they can be. */
	compactTouched(): void {
		this.#lastTouched = -1;
		for (const slot of this.touched) {
			this.#state.touched.set(slot, 0);
			if (this.#state.runState.get(slot) === whole) this.#runToRecord(slot);
			if (this.#state.paneState.get(slot) === whole) this.#paneToRecord(slot);
		}

		this.touched.length = 0;
	}

	/**
	 * A run, and the pane of its id, of a model that kept them whole until now (run-store.ts, `startRecords`): each
	 * straight into a record where it can be, as `compactTouched` would put it after the event. Through `runs.set`
	 * and `panes.set` each went into a Map of whole objects and the list of touched slots, and was looked up by id
	 * twice more, to be taken out again at once: most of the time the first 32,768 runs' move took.
	 */
	adopt(id: string, run: Run, pane: Pane | undefined): void {
		const slot = this.#add(id);
		this.runCount++;
		if (run.runId === id && fitsRecord(run)) {
			this.values.putRun(slot, run);
			this.#state.runState.set(slot, record);
		} else {
			this.wholeRuns.set(slot, run);
			this.#state.runState.set(slot, whole);
		}

		if (pane === undefined) return;
		this.paneCount++;
		if (pane.paneId === id && paneFitsRecord(pane)) {
			this.values.putPane(slot, pane);
			this.#state.paneState.set(slot, record);
		} else {
			this.wholePanes.set(slot, pane);
			this.#state.paneState.set(slot, whole);
		}
	}

	/** The slot of a new run. */
	#add(id: string): number {
		const slot = this.slotCount++;
		if (slot % pageSlots === 0) this.#grow();
		const text = placeId(this.#slots, id, slot);
		this.#idText.set(slot, text ?? inOthers);
		if (text === undefined) this.#idOthers.set(slot, id);
		return slot;
	}

	#setRun(slot: number, run: Run): void {
		this.#forgetWhole(slot);
		const state = this.#state.runState.get(slot);
		if (state === absent) this.runCount++;
		// Only a record has anything kept beside the columns (`putRun`): a new run's slot has nothing to forget.
		else if (state === record) this.values.forgetRun(slot);
		this.wholeRuns.set(slot, run);
		this.#state.runState.set(slot, whole);
		this.touch(slot);
	}

	#deleteRun(slot: number): boolean {
		this.#forgetWhole(slot);
		if (this.#state.runState.get(slot) === absent) return false;
		this.values.forgetRun(slot);
		this.wholeRuns.delete(slot);
		this.#state.runState.set(slot, absent);
		this.runCount--;
		return true;
	}

	#setPane(slot: number, pane: Pane): void {
		const state = this.#state.paneState.get(slot);
		if (state === absent) this.paneCount++;
		else if (state === record) this.values.forgetPane(slot);
		this.wholePanes.set(slot, pane);
		this.#state.paneState.set(slot, whole);
		this.touch(slot);
	}

	#deletePane(slot: number): boolean {
		if (this.#state.paneState.get(slot) === absent) return false;
		this.values.forgetPane(slot);
		this.wholePanes.delete(slot);
		this.#state.paneState.set(slot, absent);
		this.paneCount--;
		return true;
	}

	/** The run of a slot as a whole object, taken out of its record if it was in one. */
	#wholeRun(slot: number, id: string): Run | undefined {
		// A run's events mostly come one after the other: the last whole run asked for is at hand.
		if (slot === this.#lastWholeSlot && this.#lastWhole) return this.#lastWhole;
		const state = this.#state.runState.get(slot);
		if (state === whole) return this.#rememberWhole(slot, this.wholeRuns.get(slot));
		if (state !== record) return undefined;
		const run = this.values.runOf(slot, id);
		this.values.forgetRun(slot);
		this.wholeRuns.set(slot, run);
		this.#state.runState.set(slot, whole);
		if (this.#state.revived.get(slot) < maxRevivals) this.#state.revived.set(slot, this.#state.revived.get(slot) + 1);
		return this.#rememberWhole(slot, run);
	}

	#lastWholeSlot = -1;
	#lastWhole: Run | undefined;

	#rememberWhole(slot: number, run: Run | undefined): Run | undefined {
		this.#lastWholeSlot = slot;
		this.#lastWhole = run;
		return run;
	}

	#forgetWhole(slot: number): void {
		if (slot === this.#lastWholeSlot) this.#rememberWhole(-1, undefined);
	}

	#wholePane(slot: number, id: string): Pane | undefined {
		const state = this.#state.paneState.get(slot);
		if (state === whole) return this.wholePanes.get(slot);
		if (state !== record) return undefined;
		const pane = this.values.paneOf(slot, id);
		this.values.forgetPane(slot);
		this.wholePanes.set(slot, pane);
		this.#state.paneState.set(slot, whole);
		if (this.#state.paneRevived.get(slot) < maxRevivals) this.#state.paneRevived.set(slot, this.#state.paneRevived.get(slot) + 1);
		return pane;
	}

	#runView(slot: number, id: string): Run | undefined {
		const state = this.#state.runState.get(slot);
		if (state === whole) return this.wholeRuns.get(slot);
		return state === record ? new RunView(this.values, slot, id) : undefined;
	}

	#paneView(slot: number, id: string): Pane | undefined {
		const state = this.#state.paneState.get(slot);
		if (state === whole) return this.wholePanes.get(slot);
		return state === record ? new PaneView(this.values, slot, id) : undefined;
	}

	#runToRecord(slot: number): void {
		const run = slot === this.#lastWholeSlot ? this.#lastWhole : this.wholeRuns.get(slot);
		if (!run || this.#state.revived.get(slot) === maxRevivals || !fitsRecord(run) || this.slotOf(run.runId) !== slot) return;
		this.values.putRun(slot, run);
		this.#forgetWhole(slot);
		this.wholeRuns.delete(slot);
		this.#state.runState.set(slot, record);
	}

	#paneToRecord(slot: number): void {
		const pane = this.wholePanes.get(slot);
		if (!pane || this.slotOf(pane.paneId) !== slot || !paneFitsRecord(pane)) return;
		// A pane revived twice stays whole while its run may still go on (`maxRevivals`), not once the run is a record:
		// a delegate's pane was taken out for each step's calls, and ~300 bytes a pane stayed whole for good after its
		// run had closed (docs/performance.md).
		if (this.#state.paneRevived.get(slot) === maxRevivals && this.#state.runState.get(slot) !== record) return;
		this.values.putPane(slot, pane);
		this.wholePanes.delete(slot);
		this.#state.paneState.set(slot, record);
	}

	/** Adds a page to every column. */
	#grow(): void {
		for (const column of Object.values(this.#state)) column.grow();
		this.values.grow();
		this.#idText.grow();
	}
}
