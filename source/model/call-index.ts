import {createIdTable, getId, idEntries, setId, type IdTable} from './id-table.js';

/*
 * A pane's tool calls by id (`Model.toolCalls`): where each call's activity is. Most panes make a few calls, kept
 * as a list of ids and indices in turn; a pane that makes more moves them into a `Map`, and one that makes thousands
 * (one run of 500,000 `exec` calls) into an `IdTable`, which holds each id in its bytes rather than as a string of its
 * own (id-table.ts).
 */
export type PaneCalls = FewCalls | Map<string, number> | IdTable;

/**
 * A few calls: `[id, index, id, index, …]`, of the exact length. A `Map` of one to three calls cost ~200 bytes of
 * hash table, a log of 20,000 jobs three of them a job (docs/performance.md); this costs 48 and 16 a call.
 */
type FewCalls = Array<string | number>;

/** A pane's calls move into a `Map` when it has this many, and into a table of bytes when it has `tableFrom`. */
const mapFrom = 8;
const tableFrom = 256;

export function callOf(calls: PaneCalls | undefined, toolCallId: string): number | undefined {
	if (calls === undefined) return undefined;
	if (Array.isArray(calls)) {
		const at = fewIndexOf(calls, toolCallId);
		return at < 0 ? undefined : (calls[at + 1] as number);
	}

	return calls instanceof Map ? calls.get(toolCallId) : getId(calls, toolCallId);
}

/** `calls` with the call added or moved to `index`: the same object, or the one it moved into. */
export function withCall(calls: PaneCalls | undefined, toolCallId: string, index: number): PaneCalls {
	if (calls === undefined) return [toolCallId, index];
	if (Array.isArray(calls)) return withFewCall(calls, toolCallId, index);
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
	if (Array.isArray(calls)) return fewEntries(calls);
	return calls instanceof Map ? calls : idEntries(calls);
}

function fewIndexOf(calls: FewCalls, toolCallId: string): number {
	for (let at = 0; at < calls.length; at += 2) if (calls[at] === toolCallId) return at;
	return -1;
}

function withFewCall(calls: FewCalls, toolCallId: string, index: number): PaneCalls {
	const at = fewIndexOf(calls, toolCallId);
	// A call moved keeps its place, as in a Map.
	if (at >= 0) {
		calls[at + 1] = index;
		return calls;
	}

	if (calls.length / 2 + 1 >= mapFrom) {
		const map = new Map(fewEntries(calls));
		map.set(toolCallId, index);
		return map;
	}

	// Copied into a list of the exact length: a list grown by `push` keeps room for 16 more, and one made by
	// `Array.from` or a spread for more than it holds too.
	const next: FewCalls = new Array(calls.length + 2);
	for (let i = 0; i < calls.length; i++) next[i] = calls[i]!;
	next[calls.length] = toolCallId;
	next[calls.length + 1] = index;
	return next;
}

function* fewEntries(calls: FewCalls): Generator<[string, number]> {
	for (let at = 0; at < calls.length; at += 2) yield [calls[at] as string, calls[at + 1] as number];
}
