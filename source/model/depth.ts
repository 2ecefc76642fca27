import type {Model, Pane} from './state.js';

/**
 * The delegation depth of a pane: 0 for a root (no parent, a parent not in the model, or a link that would
 * close a cycle, `Run.closesCycle`), else one more than the pane of its first run's parent.
 *
 * Depths are remembered on the panes. The reducer sets a run's depth when it arrives under its parent, as runs
 * of a log written in order do, and otherwise makes every remembered depth stale at once (`Model.depthEpoch`);
 * this works out what is stale by walking up to the nearest pane whose depth is still known, and remembers
 * every depth on the way. Asking for every run of a chain 200,000 deep therefore costs 200,000 steps in all,
 * whichever order its runs came in. With its own loop, not recursion: a chain can be deeper than the stack.
 */
export function paneDepth(model: Model, pane: Pane): number {
	const epoch = model.depthEpoch;
	const path: Pane[] = [];
	const seen = new Set<string>();
	let above = -1;
	let current: Pane | undefined = pane;
	while (current) {
		if (current.depthEpoch === epoch) {
			above = current.depth;
			break;
		}

		// The reducer breaks cycles; should one be left, the pane that closes it counts as a root.
		if (seen.has(current.paneId)) break;
		seen.add(current.paneId);
		path.push(current);
		current = parentPane(model, current);
	}

	for (let i = path.length - 1, depth = above + 1; i >= 0; i--, depth++) {
		path[i]!.depth = depth;
		path[i]!.depthEpoch = epoch;
	}

	return pane.depth;
}

function parentPane(model: Model, pane: Pane): Pane | undefined {
	const head = model.runs.get(pane.paneId);
	if (!head || head.parentRunId === null || head.closesCycle) return undefined;
	const parent = model.runs.get(head.parentRunId);
	const above = parent ? model.panes.get(parent.paneId) : undefined;
	// Views of panes kept as records (storage/store.ts) are new objects each time: panes are compared by id.
	return above?.paneId === pane.paneId ? undefined : above;
}
