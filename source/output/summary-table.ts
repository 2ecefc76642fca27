import type {Model, Run} from '../model/state.js';
import {
	depthOf,
	endedWhileWaiting,
	endedWithoutFinalEvent,
	jobDurationMs,
	jobStepsText,
	jobTotals,
	runDurationMs,
	runSteps,
	runsInTreeOrder,
} from '../query/tree.js';
import {sanitizeLine} from '../text/sanitize.js';
import {displayWidth, padEnd} from '../text/width/width.js';
import {formatDuration, plural} from '../text/format.js';
import {indentFor} from './transcript.js';
import {jobStatusText, statusMarks} from './run-marks.js';
import {costOfRun, jobCost, runsCost, whyNoCost} from '../query/cost.js';
import {builtinPrices, type PriceTable} from '../query/prices.js';
import {formatCost} from '../text/cost.js';
import {columnWidths} from './column-widths.js';

export {statusMarks} from './run-marks.js';

/** Marks a run shown as a root because its parent link would close a delegation cycle (docs/model-rules.md). */
export const cycleMark = '⟲ cycle';

/** A plain table of jobs and their runs in tree order, for `--summary`. */
export function summaryTable(model: Model, prices: PriceTable = builtinPrices): string {
	const lines: string[] = [];
	/** Why a COST says `?`, each reason once. */
	const unpriced = new Set<string>();
	/** How many jobs' costs are their runtimes' reports and differ from their runs' COSTs added up. */
	let reportedApart = 0;
	for (const job of model.jobs.values()) {
		if (job.runIds.length === 0) continue;
		const totals = jobTotals(model, job);
		const cost = formatCost(jobCost(model, job, prices));
		lines.push(
			`job ${sanitizeLine(job.jobId)}  ${jobStatusText(totals)}  ${jobStepsText(totals)}  ` +
				`${totals.usage.inputTokens} in / ${totals.usage.outputTokens} out tokens  ${cost}  ${formatDuration(jobDurationMs(totals))}`,
		);
		const runs = runsInTreeOrder(model, job);
		if (job.reportedCost !== undefined && cost !== formatCost(runsCost(model, runs, prices))) reportedApart++;
		for (const run of runs) {
			const why = whyNoCost(model, run, prices);
			if (why !== undefined) unpriced.add(why);
		}

		const rows = runs.map(run => [
			`${indentFor(depthOf(model, run))}${run.closesCycle ? `${cycleMark} ` : ''}${run.resumesRunId === null ? '' : '↻ '}${sanitizeLine(run.expertKey)}`,
			`${statusMarks[run.status]} ${run.status}`,
			String(runSteps(run)),
			String(run.usage.inputTokens),
			String(run.usage.outputTokens),
			formatCost(costOfRun(model, run, prices)),
			formatDuration(runDurationMs(run)),
			errorColumn(model, run),
		]);
		const header = ['EXPERT', 'STATUS', 'STEPS', 'IN', 'OUT', 'COST', 'DURATION', 'ERROR'];
		const widths = columnWidths(header, rows);
		const numeric = new Set([2, 3, 4, 5, 6]);
		for (const row of [header, ...rows]) {
			const cells = row.map((cell, column) => {
				const width = widths[column] ?? 0;
				if (column === row.length - 1) return cell;
				return numeric.has(column) ? ' '.repeat(Math.max(0, width - displayWidth(cell))) + cell : padEnd(cell, width);
			});
			lines.push(`  ${cells.join('  ')}`.trimEnd());
		}

		lines.push('');
	}

	for (const why of unpriced) lines.push(`cost ?: ${sanitizeLine(why)}`);
	// The job's cost is its runtime's report, the runs' the price table's (query/cost.ts): said once, where they differ.
	if (reportedApart > 0)
		lines.push(
			reportedApart > 1
				? `cost: ${reportedApart} jobs' are what their runtimes reported, their runs' the price table's, so they need not add up`
				: `cost: ${model.jobs.size === 1 ? "the job's" : "1 job's"} is what its runtime reported, its runs' the price table's, so they need not add up`,
		);
	const unknown = [...model.unknownEvents].map(([type, count]) => `${sanitizeLine(type)} ×${count}`);
	lines.push(
		`${plural(model.events, 'event')}${unknown.length > 0 ? `, unknown: ${unknown.join(', ')}` : ''}${model.diagnosticCount > 0 ? `, ${plural(model.diagnosticCount, 'bad line')}` : ''}`,
	);
	return lines.join('\n') + '\n';
}

/** A run's error, why the job ended while it waited for its delegates, or that the input ended while it ran. */
function errorColumn(model: Model, run: Run): string {
	if (run.error) return sanitizeLine(`${run.error.name}: ${run.error.message}`);
	const ended = endedWhileWaiting(model, run);
	if (ended) return sanitizeLine(`job ended while waiting: ${ended.reason}`);
	return endedWithoutFinalEvent(model, run) ? 'ended without a final event' : '';
}
