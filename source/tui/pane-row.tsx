import {Text} from 'ink';
import {runErrorLine, runLook} from '../query/run-look.js';
import React from 'react';
import {StatusText} from './status-text.js';
import {FailureText} from './failure-text.js';
import {paneDepth} from '../model/depth.js';
import {addUsage, zeroUsage} from '../model/usage.js';
import type {Model, Pane} from '../model/state.js';
import {runSteps} from '../query/tree.js';
import {formatCount, formatDuration, plural, span} from '../present/format.js';
import {sanitizeLine} from '../present/sanitize.js';
import {lastRun, maxShownDepth} from './rows.js';
import {runsCost} from '../query/cost.js';
import {formatCost} from '../present/cost.js';
import {usePrices} from './contexts.js';

export type PaneStats = {steps: number; inputTokens: number; outputTokens: number; durationMs: number | undefined};

/** Totals over every run shown in the pane (a resumed coordinator counts once per run it took). */
export function paneStats(model: Model, pane: Pane): PaneStats {
	let steps = 0;
	let usage = zeroUsage;
	let start: number | undefined;
	let end: number | undefined;
	for (const runId of pane.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		steps += runSteps(run);
		usage = addUsage(usage, run.usage);
		if (run.startedAt !== undefined && (start === undefined || run.startedAt < start)) start = run.startedAt;
		const last = run.endedAt ?? run.lastEventAt;
		if (last !== undefined && (end === undefined || last > end)) end = last;
	}

	return {steps, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, durationMs: span(start, end)};
}

/**
 * A run pane's one-line header, as inline text: fold marker, expert, status (folded and failed, with the
 * first line of its error), steps, tokens, duration.
 */
export function PaneRow({model, pane, depth, collapsed, orphan, cycle, selected}: {
	model: Model;
	pane: Pane;
	depth: number;
	collapsed: boolean;
	orphan: boolean;
	/** Shown as a root because its parent link would close a delegation cycle. */
	cycle: boolean;
	selected: boolean;
}) {
	const run = lastRun(model, pane);
	const look = runLook(model, run);
	const stats = paneStats(model, pane);
	const cost = runsCost(model, pane.runIds.flatMap(runId => model.runs.get(runId) ?? []), usePrices());
	const resumes = pane.runIds.length > 1 ? ` ↻${pane.runIds.length - 1}` : '';
	const from = model.runs.get(pane.paneId)?.resumedFrom;
	// Only the run id comes from the log; sanitising the whole phrase would trim its leading space.
	// Folded, the pane's error is not on screen anywhere else: its first line goes after the figures.
	const failure = collapsed ? runErrorLine(run) : '';
	const branched = from ? ` · from ${sanitizeLine(from.runId.slice(0, 8))}${from.stepNumber === null ? '' : ` step ${from.stepNumber}`}` : '';
	return (
		<Text inverse={selected}>
			{' '.repeat(depth * 2)}
			<Text color="gray">{collapsed ? '▸ ' : '▾ '}</Text>
			<Text bold>{sanitizeLine(run?.expertKey ?? pane.paneId)}</Text>
			{/* Next to the name, where a narrow terminal still shows them. */}
			{cycle ? <Text color="yellow"> ⟲ delegation cycle</Text> : ''}
			{depth >= maxShownDepth ? <Text color="gray"> (depth {paneDepth(model, pane)})</Text> : ''}
			<StatusText look={look} />
			<Text color="gray">
				{' · '}
				{plural(stats.steps, 'step')} · {formatCount(stats.inputTokens)}↑ {formatCount(stats.outputTokens)}↓ {formatCost(cost)} · {formatDuration(stats.durationMs)}
				{resumes}
			</Text>
			<FailureText look={look} failure={failure} />
			<Text color="gray">
				{branched}
				{orphan ? ' · parent not in log' : ''}

			</Text>
		</Text>
	);
}
