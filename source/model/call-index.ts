import {createIdTable, getId, idEntries, setId, type IdTable} from './id-table.js';

/*
 * A pane's tool calls by id (`Model.toolCalls`): where each call's activity is. Most panes make a few calls, and
 * a `Map` suits them; a pane that makes thousands (one run of 500,000 `exec` calls) moves them into an
 * `IdTable`, which holds each id in its bytes rather than as a string of its own (id-table.ts).
 */
export type PaneCalls = Map<string, number> | IdTable;

/** A pane's calls move into a table of bytes when it has this many. */
const tableFrom = 256;

export function callOf(calls: PaneCalls | undefined, toolCallId: string): number | undefined {
	if (calls === undefined) return undefined;
	return calls instanceof Map ? calls.get(toolCallId) : getId(calls, toolCallId);
}

/** `calls` with the call added or moved to `index`: the same object, or the table it moved into. */
export function withCall(calls: PaneCalls | undefined, toolCallId: string, index: number): PaneCalls {
	if (calls === undefined) return new Map([[toolCallId, index]]);
	if (!(calls instanceof Map)) {
		setId(calls, toolCallId, index);
		return calls;
	}

	calls.set(toolCallId, index);
	if (calls.size < tableFrom) return calls;
	const table = createIdTable(true, tableFrom * 2);
	for (const [id, at] of calls) setId(table, id, at);
	return table;
}

export function callEntries(calls: PaneCalls): Iterable<[string, number]> {
	return calls instanceof Map ? calls : idEntries(calls);
}
