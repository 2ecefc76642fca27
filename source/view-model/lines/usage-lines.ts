import type {Job, Model} from '../../model/state.js';
import {jobCost, totalCost, type Cost} from '../../query/cost.js';
import {builtinPrices, type PriceTable} from '../../query/prices.js';
import {formatShare, usageTable, type ExpertUsage} from '../../query/usage-by-expert.js';
import {formatCost} from '../../text/cost.js';
import {formatCount} from '../../text/format.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {padEnd} from '../../text/width/width.js';
import {wrapToWidth} from '../../text/wrap.js';
import {usageColumns} from '../usage-scope.js';
import type {InspectorLine} from './inspector-lines.js';

/**
 * The usage overlay's table at `width` columns: a row per expert, then their TOTAL; SHARE is each expert's share
 * of the cost when every cost is known, else of the input plus output tokens (`shareOf` says which, for the hint).
 */
export function usageLines(
	model: Model,
	job: Job | undefined,
	prices: PriceTable | undefined,
	width: number,
): {lines: InspectorLine[]; shareOf: 'cost' | 'tokens'} {
	const {rows, total, shareOf} = usageTable(model, job, prices);
	const columns = usageColumns(width);
	const count = (value: number) => formatCount(value).padStart(columns.number);
	// Short headings where the numbers are narrow: REASON and CACHED must not be the ones that go.
	const heading = (long: string, short: string) => (long.length <= columns.number ? long : short).padStart(columns.number);
	const costHeading = columns.cost ? ` ${'COST'.padStart(columns.cost)}` : '';
	const header = `${padEnd('EXPERT', columns.expert)} ${'RUNS'.padStart(5)} ${heading('INPUT', 'IN')} ${heading('OUTPUT', 'OUT')} ${heading('REASON', 'REASN')} ${heading('CACHED', 'CACHE')}${costHeading}  SHARE`;
	const row = (name: string, figures: Omit<ExpertUsage, 'expertKey' | 'share'>, share: number | undefined) =>
		`${padEnd(name, columns.expert)} ${String(figures.runs).padStart(5)} ${count(figures.usage.inputTokens)} ${count(figures.usage.outputTokens)} ${count(figures.usage.reasoningTokens)} ${count(figures.usage.cachedInputTokens)}${columns.cost ? ` ${formatCost(figures.cost).padStart(columns.cost)}` : ''}${share === undefined ? '' : `  ${formatShare(share).padStart(5)}${columns.bar ? ` ${'█'.repeat(Math.round(share / 5))}` : ''}`}`;
	const lines: InspectorLine[] = [{text: header, tone: 'heading'}, ...rows.map(expert => ({text: row(sanitizeLine(expert.expertKey), expert, expert.share)}))];
	if (rows.length === 0) lines.push({text: 'No token usage reported yet.', tone: 'dim'});
	// With one expert the total says nothing new.
	else if (rows.length > 1) lines.push({text: row('TOTAL', total, undefined), tone: 'label'});
	// The header's cost is what the runtime reported where it did (Claude Code's `total_cost_usd`), and the rows price
	// each run by the table (query/cost.ts): where the two differ, say which is which, so that two totals do not just
	// disagree on screen.
	const reported = reportedCost(model, job, prices ?? builtinPrices);
	if (columns.cost && reported !== undefined && formatCost(reported) !== formatCost(total.cost)) {
		const said = `${
			job || model.jobs.size === 1
				? `The job cost ${formatCost(reported)} as its runtime reported it`
				: `Together, the ${model.jobs.size} jobs cost ${formatCost(reported)}, counting what their runtimes reported`
		}; the rows price each run's tokens by the price table (a report can also count calls no run shows).`;
		for (const text of wrapToWidth(said, Math.max(1, width - 1))) lines.push({text, tone: 'dim'});
	}

	return {lines, shareOf};
}

/** What the job, or every job, cost as the header says it, when a runtime reported some of it; else undefined. */
function reportedCost(model: Model, job: Job | undefined, prices: PriceTable): Cost {
	if (job) return job.reportedCost === undefined ? undefined : jobCost(model, job, prices);
	for (const each of model.jobs.values()) if (each.reportedCost !== undefined) return totalCost(model, prices);
	return undefined;
}
