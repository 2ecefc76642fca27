import type {Usage} from '../model/events.js';
import {addUsage, zeroUsage} from '../model/usage.js';
import type {Job, Model} from '../model/state.js';
import {addCosts, costOfRun, type Cost} from './cost.js';
import {builtinPrices, type PriceTable} from './prices.js';

/*
 * Where the tokens went, by expert: every run of an expert (parallel and resumed runs alike) adds to its
 * row. Run usage is the sum of the run's own steps (see docs/model-rules.md), so nothing is counted twice.
 */

export type ExpertUsage = {
	expertKey: string;
	/** How many runs of this expert the usage comes from. */
	runs: number;
	usage: Usage;
	/** US dollars over its runs; undefined when any of them ran a model the price table does not have. */
	cost: Cost;
	/** Input plus output tokens: what the rows are sorted by, and what `share` is a share of. */
	total: number;
	/** Percentage (0–100) of all experts' input plus output tokens; 0 when nothing was used. */
	share: number;
};

/** Usage per expert over one job, or over every job when `job` is omitted; the largest first. */
export function usageByExpert(model: Model, job?: Job, prices: PriceTable = builtinPrices): ExpertUsage[] {
	const rows = new Map<string, {runs: number; usage: Usage; cost: Cost}>();
	const runIds = job ? job.runIds : [...model.runs.keys()];
	for (const runId of runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		const row = rows.get(run.expertKey) ?? {runs: 0, usage: zeroUsage, cost: 0};
		rows.set(run.expertKey, {runs: row.runs + 1, usage: addUsage(row.usage, run.usage), cost: addCosts(row.cost, costOfRun(model, run, prices))});
	}

	let grandTotal = 0;
	for (const row of rows.values()) grandTotal += row.usage.inputTokens + row.usage.outputTokens;
	const out: ExpertUsage[] = [];
	for (const [expertKey, row] of rows) {
		const total = row.usage.inputTokens + row.usage.outputTokens;
		out.push({expertKey, runs: row.runs, usage: row.usage, cost: row.cost, total, share: grandTotal === 0 ? 0 : (total / grandTotal) * 100});
	}

	return out.sort((a, b) => b.total - a.total || (a.expertKey < b.expertKey ? -1 : a.expertKey > b.expertKey ? 1 : 0));
}

export type UsageTable = {
	/** The experts, the largest share first. */
	rows: ExpertUsage[];
	/** Every expert's runs, usage and cost added up (its cost undefined when any expert's is unknown). */
	total: Omit<ExpertUsage, 'expertKey' | 'share'>;
	/**
	 * What each row's `share` is a share of: the cost when every expert's cost is known and the total is not
	 * nothing (what a person weighs the experts by), else the input plus output tokens.
	 */
	shareOf: 'cost' | 'tokens';
};

/** The usage overlay's table: `usageByExpert`, its total, and the shares of the cost when the costs are known. */
export function usageTable(model: Model, job?: Job, prices: PriceTable = builtinPrices): UsageTable {
	const byTokens = usageByExpert(model, job, prices);
	let runs = 0;
	let usage = zeroUsage;
	let cost: Cost = 0;
	for (const row of byTokens) {
		runs += row.runs;
		usage = addUsage(usage, row.usage);
		cost = addCosts(cost, row.cost);
	}

	const total = {runs, usage, cost, total: usage.inputTokens + usage.outputTokens};
	if (cost === undefined || cost <= 0) return {rows: byTokens, total, shareOf: 'tokens'};
	const whole = cost;
	const rows = byTokens.map(row => ({...row, share: ((row.cost ?? 0) / whole) * 100}));
	// Stable: experts of the same cost keep their order by tokens.
	rows.sort((a, b) => (b.cost ?? 0) - (a.cost ?? 0));
	return {rows, total, shareOf: 'cost'};
}

/** A share as the table shows it: `42%`, `7.5%`, `<0.1%` for a sliver that is not nothing. */
export function formatShare(share: number): string {
	if (share === 0) return '0%';
	if (share < 0.1) return '<0.1%';
	if (share < 10) return `${(Math.round(share * 10) / 10).toString()}%`;
	return `${Math.round(share)}%`;
}
