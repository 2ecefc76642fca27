import {addUsage, zeroUsage} from '../model/usage.js';
import type {Model, Pane} from '../model/state.js';
import {atLeast, runSteps} from '../query/tree.js';
import {span} from '../text/format.js';

export type PaneStats = {steps: number; inputTokens: number; outputTokens: number; durationMs: number | undefined};

/** Totals over every run shown in the pane (a resumed coordinator counts once per run it took). */
export function paneStats(model: Model, pane: Pane): PaneStats {
	let steps = 0;
	let usage = zeroUsage;
	let start: number | undefined;
	let end: number | undefined;
	let reported: number | undefined;
	for (const runId of pane.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		steps += runSteps(run);
		usage = addUsage(usage, run.usage);
		if (run.startedAt !== undefined && (start === undefined || run.startedAt < start)) start = run.startedAt;
		const last = run.endedAt ?? run.lastEventAt;
		if (last !== undefined && (end === undefined || last > end)) end = last;
		if (run.reportedDurationMs !== undefined) reported = (reported ?? 0) + run.reportedDurationMs;
	}

	// What their runtime reported they took, where that is longer than their times say (`runDurationMs`).
	return {steps, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, durationMs: atLeast(span(start, end), reported)};
}
