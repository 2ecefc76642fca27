/**
 * Runs or panes by id, as a model keeps them (`Model.runs`, `Model.panes`): a `Map` of whole objects, or, in a
 * model that keeps figures only and has many runs, a `RecordTable` over records in columns (record-table.ts).
 * It reads as a `ReadonlyMap`, with one difference a reader must know: a record table's `get` and iteration make
 * a new view of a record on every call (record-views.ts). So compare runs and panes by id, never by identity; do
 * not keep a view past the event that changes its run; and read a run once where a loop would ask for it again.
 * The reducer alone writes: `set` and `delete`, and `liveRun`/`livePane` (run-store.ts) for the one whole object
 * it may change.
 */
export type Store<T> = ReadonlyMap<string, T> & {
	set(id: string, value: T): void;
	delete(id: string): boolean;
};
