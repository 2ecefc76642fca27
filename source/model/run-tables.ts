import {RunRows} from './compact-runs.js';
import type {Model, Pane, Run} from './state.js';

/*
 * `model.runs` and `model.panes` of a model that keeps figures only (see compact-runs.ts): Maps to whoever reads
 * them, over the rows of runs and panes that closed. `get` and iteration give a run or pane kept as a row as a
 * view of it (a new object each time: compare runs by id, not by identity); `liveRun` and `livePane` give the
 * one whole object the reducer changes.
 */

export class RunTable extends Map<string, Run> {
	readonly rows: RunRows;

	constructor(rows: RunRows) {
		super();
		this.rows = rows;
	}

	override get size(): number {
		return this.rows.runCount;
	}

	override get(id: string): Run | undefined {
		const slot = this.rows.slotOf(id);
		return slot === undefined ? undefined : this.rows.runView(slot, id);
	}

	override has(id: string): boolean {
		const slot = this.rows.slotOf(id);
		return slot !== undefined && this.rows.hasRun(slot);
	}

	/** A run deleted and set again keeps its place, where a Map would move it last: the reducer deletes no run. */
	override set(id: string, run: Run): this {
		this.rows.setRun(this.rows.slotOf(id) ?? this.rows.add(id), run);
		return this;
	}

	override delete(id: string): boolean {
		const slot = this.rows.slotOf(id);
		// The slot stays, for the pane of the same id.
		return slot !== undefined && this.rows.deleteRun(slot);
	}

	override clear(): void {
		for (let slot = 0; slot < this.rows.slotCount; slot++) this.delete(this.rows.idOf(slot));
	}

	override *entries(): MapIterator<[string, Run]> {
		for (let slot = 0; slot < this.rows.slotCount; slot++) {
			if (!this.rows.hasRun(slot)) continue;
			const id = this.rows.idOf(slot);
			const run = this.rows.runView(slot, id);
			if (run) yield [id, run];
		}
	}

	override *keys(): MapIterator<string> {
		for (const [id] of this.entries()) yield id;
	}

	override *values(): MapIterator<Run> {
		for (const [, run] of this.entries()) yield run;
	}

	override [Symbol.iterator](): MapIterator<[string, Run]> {
		return this.entries();
	}

	override forEach(callback: (value: Run, key: string, map: Map<string, Run>) => void, thisArg?: unknown): void {
		for (const [id, run] of this.entries()) callback.call(thisArg, run, id, this);
	}

	/** The run as the whole object the reducer may change; it goes back in a row after the event (`compactTouched`). */
	live(id: string): Run | undefined {
		const slot = this.rows.slotOf(id);
		if (slot === undefined) return undefined;
		const run = this.rows.wholeRun(slot, id);
		if (run) this.rows.touch(slot);
		return run;
	}
}

export class PaneTable extends Map<string, Pane> {
	readonly rows: RunRows;

	constructor(rows: RunRows) {
		super();
		this.rows = rows;
	}

	override get size(): number {
		return this.rows.paneCount;
	}

	override get(id: string): Pane | undefined {
		const slot = this.rows.slotOf(id);
		return slot === undefined ? undefined : this.rows.paneView(slot, id);
	}

	override has(id: string): boolean {
		const slot = this.rows.slotOf(id);
		return slot !== undefined && this.rows.hasPane(slot);
	}

	override set(id: string, pane: Pane): this {
		const slot = this.rows.slotOf(id);
		// A pane is made with the run of its id (reduce/runs.ts, `newRun`), which gives both their place in the order.
		if (slot === undefined) throw new Error(`pane ${id} has no run of its id`);
		this.rows.setPane(slot, pane);
		return this;
	}

	override delete(id: string): boolean {
		const slot = this.rows.slotOf(id);
		return slot !== undefined && this.rows.deletePane(slot);
	}

	override clear(): void {
		for (let slot = 0; slot < this.rows.slotCount; slot++) this.delete(this.rows.idOf(slot));
	}

	override *entries(): MapIterator<[string, Pane]> {
		for (let slot = 0; slot < this.rows.slotCount; slot++) {
			if (!this.rows.hasPane(slot)) continue;
			const id = this.rows.idOf(slot);
			const pane = this.rows.paneView(slot, id);
			if (pane) yield [id, pane];
		}
	}

	override *keys(): MapIterator<string> {
		for (const [id] of this.entries()) yield id;
	}

	override *values(): MapIterator<Pane> {
		for (const [, pane] of this.entries()) yield pane;
	}

	override [Symbol.iterator](): MapIterator<[string, Pane]> {
		return this.entries();
	}

	override forEach(callback: (value: Pane, key: string, map: Map<string, Pane>) => void, thisArg?: unknown): void {
		for (const [id, pane] of this.entries()) callback.call(thisArg, pane, id, this);
	}

	live(id: string): Pane | undefined {
		const slot = this.rows.slotOf(id);
		if (slot === undefined) return undefined;
		const pane = this.rows.wholePane(slot, id);
		if (pane) this.rows.touch(slot);
		return pane;
	}
}

/**
 * How many runs a model that keeps figures only keeps whole before it keeps them in rows: rows cost every event
 * a little (a run is found by its id in bytes, taken out of its row and put back), which a log of a few
 * thousand runs, whose runs cost little whole, would pay for nothing.
 */
const defaultRowsFrom = 4096;
const rowsFromOf = new WeakMap<Model, number>();

/**
 * From how many runs on `model` keeps its runs in rows (0: from its first event; Infinity: never, as a model that
 * keeps everything): for tests that compare the two (compact-runs.test.ts). Before the first event.
 */
export function keepRunsInRowsFrom(model: Model, runs: number): void {
	rowsFromOf.set(model, runs);
}

/**
 * Before an event: a model that keeps figures only and has passed its number of runs keeps them in rows from now
 * on (compact-runs.ts). The runs it had are put in rows after the event, where they can be.
 */
export function startRows(model: Model): void {
	if (!model.figuresOnly || model.runs instanceof RunTable || model.runs.size < (rowsFromOf.get(model) ?? defaultRowsFrom)) return;
	const rows = new RunRows();
	const runs = new RunTable(rows);
	const panes = new PaneTable(rows);
	for (const [id, run] of model.runs) runs.set(id, run);
	for (const [id, pane] of model.panes) panes.set(id, pane);
	model.runs = runs;
	model.panes = panes;
}

/** The run as the whole object the reducer changes, wherever the model keeps it. */
export function liveRun(model: Model, id: string): Run | undefined {
	const {runs} = model;
	return runs instanceof RunTable ? runs.live(id) : runs.get(id);
}

export function livePane(model: Model, id: string): Pane | undefined {
	const {panes} = model;
	return panes instanceof PaneTable ? panes.live(id) : panes.get(id);
}

/** After an event: what the reducer touched goes back in rows where it can. */
export function compactTouched(model: Model): void {
	if (model.runs instanceof RunTable) model.runs.rows.compactTouched();
}
