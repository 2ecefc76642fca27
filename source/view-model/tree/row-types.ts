/*
 * What one line of the tree is. The tree is never kept as a list of these: the row index (row-layout.ts) makes
 * the few that are on screen when they are asked for.
 */

export type Row =
	/** A job's one-line summary, above its panes when there are several jobs (job-row.tsx). */
	| {kind: 'job'; key: string; jobId: string; collapsed: boolean}
	/** `depth` is where the row is drawn: capped at `maxShownDepth`, past which the pane says its depth. */
	| {kind: 'pane'; key: string; paneId: string; depth: number; collapsed: boolean; orphan: boolean; cycle: boolean}
	| {kind: 'activity'; key: string; index: number; depth: number; paneId: string}
	| {kind: 'live'; key: string; paneId: string; depth: number; channel: 'reasoning' | 'result'; text: string}
	/** Something the person must act on, under its pane: the question an interactive tool asked. */
	| {kind: 'notice'; key: string; paneId: string; depth: number; text: string; part: 'question' | 'command' | 'ended'}
	/** Under a filter: how many panes it hid, or that nothing matches at all. Not selectable. */
	| {kind: 'filtered'; key: string; text: string; part: 'hidden' | 'none'};

/**
 * Rows are indented by delegation depth up to here; deeper panes are drawn at this depth and say their own.
 * A malformed log can chain 100,000 runs, and indenting by the true depth would push every row off screen.
 */
export const maxShownDepth = 16;

export function paneKey(paneId: string): string {
	return `p:${paneId}`;
}

export function activityKey(activityId: string): string {
	return `a:${activityId}`;
}

export function jobKey(jobId: string): string {
	return `j:${jobId}`;
}

/** Live text, notices and the filter's note are read, not selected. */
export function isSelectableRow(row: Row): boolean {
	return row.kind !== 'live' && row.kind !== 'notice' && row.kind !== 'filtered';
}
