import type {Model, Pane, Run} from '../state.js';
import {RecordTable} from './record-table.js';
import {RunRecords} from './run-records.js';

/*
 * Where a model keeps its runs and panes: Maps of whole objects, until a model that keeps figures only passes
 * `Model.recordsFrom` runs; from then on record tables (record-table.ts) over the records of run-records.ts. The
 * reducer changes a run or pane only as `liveRun`/`livePane` give it, whichever way it is kept.
 */

/**
 * Before an event: a model that keeps figures only and has passed its number of runs keeps them as records from
 * now on. The runs it had are put in records after the event, where they can be.
 */
export function startRecords(model: Model): void {
	if (!model.figuresOnly || model.runs instanceof RecordTable || model.runs.size < model.recordsFrom) return;
	const records = new RunRecords(model.runs.size);
	// A pane is made with the run of its id (reduce/runs.ts, `newRun`), so each pane goes in with its run.
	for (const [id, run] of model.runs) records.adopt(id, run, model.panes.get(id));
	if (records.paneCount !== model.panes.size) {
		for (const id of model.panes.keys()) if (!model.runs.has(id)) throw new Error(`pane ${id} has no run of its id`);
	}

	model.runs = new RecordTable(records, records.runs);
	model.panes = new RecordTable(records, records.panes);
}

/** The records the model keeps its runs in; undefined while it keeps them whole. */
export function recordsOf(model: Model): RunRecords | undefined {
	return model.runs instanceof RecordTable ? model.runs.records : undefined;
}

/** The run as the whole object the reducer changes, wherever the model keeps it. */
export function liveRun(model: Model, id: string): Run | undefined {
	const {runs} = model;
	return runs instanceof RecordTable ? (runs as RecordTable<Run>).live(id) : runs.get(id);
}

export function livePane(model: Model, id: string): Pane | undefined {
	const {panes} = model;
	return panes instanceof RecordTable ? (panes as RecordTable<Pane>).live(id) : panes.get(id);
}

/** After an event: what the reducer touched goes back in records where it can. */
export function compactTouched(model: Model): void {
	recordsOf(model)?.compactTouched();
}
