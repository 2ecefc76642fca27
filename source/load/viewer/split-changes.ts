import type {ModelChanges} from './model-changes.js';

/**
 * How many activities, runs and panes one piece of a post holds. The viewer's thread decodes a message whole
 * before it can do anything else (a structured clone is not read in parts), and a second's worth of a large
 * load decoded at once kept keys waiting: pieces this size decode between two keys (docs/performance.md).
 */
export const pieceItems = 100;

/** A post of what changed, as one of the pieces it is sent in: the model changes once the last is in. */
export type ChangesPiece = {changes: ModelChanges; last: boolean};

function emptyChanges(rest: ModelChanges['rest']): ModelChanges {
	return {activityAt: [], activities: [], runs: [], panes: [], removedPanes: [], jobs: [], runtime: [], diagnostics: [], rest};
}

/**
 * `changes` cut into pieces of at most `items` activities, runs and panes, in that order (what is referred to
 * before what refers to it, as apply-changes.ts puts them in). The last piece holds the rest (the jobs, the
 * runtime, panes merged away, the diagnostics and the model's own fields): put in alone, the pieces before it
 * change no figure the views read by revision.
 */
export function splitChanges(changes: ModelChanges, items = pieceItems): ChangesPiece[] {
	const total = changes.activities.length + changes.runs.length + changes.panes.length;
	if (total <= items) return [{changes, last: true}];
	const pieces: ModelChanges[] = [];
	let piece = emptyChanges(changes.rest);
	let held = 0;
	const room = (): void => {
		if (held < items) return;
		pieces.push(piece);
		piece = emptyChanges(changes.rest);
		held = 0;
	};

	for (const [offset, index] of changes.activityAt.entries()) {
		room();
		piece.activityAt.push(index);
		piece.activities.push(changes.activities[offset]!);
		held++;
	}

	for (const run of changes.runs) {
		room();
		piece.runs.push(run);
		held++;
	}

	for (const pane of changes.panes) {
		room();
		piece.panes.push(pane);
		held++;
	}

	pieces.push({...piece, removedPanes: changes.removedPanes, jobs: changes.jobs, runtime: changes.runtime, diagnostics: changes.diagnostics});
	return pieces.map((each, index) => ({changes: each, last: index === pieces.length - 1}));
}

/** Whether a message taken from the changes port is a piece (it is, unless the worker and viewer disagree). */
export function isChangesPiece(value: unknown): value is ChangesPiece {
	return typeof value === 'object' && value !== null && 'changes' in value && 'last' in value && typeof value.last === 'boolean';
}
