import type {Usage} from '../model/events.js';
import type {Job, Model, Run} from '../model/state.js';
import type {ModelPrice, PriceProvider, PriceTable} from './prices.js';
import {endedWithoutFinalEvent} from './tree.js';

/*
 * What runs cost, in US dollars: each run's token usage at its model's prices. Perstack records the usage the
 * Vercel AI SDK (v5) reports, whose fields mean different things per provider:
 *
 * - Anthropic and Bedrock report `inputTokens` without the tokens read from the prompt cache, so both are
 *   priced as they are;
 * - OpenAI, Azure, DeepSeek, Google and Ollama count the cache reads inside `inputTokens`, so they are taken
 *   out of it before it is priced as uncached input;
 * - Google (Gemini) reports the thinking tokens apart from `outputTokens`, and bills them as output; every
 *   other provider's `outputTokens` already holds them, so `reasoningTokens` is not added again.
 *
 * A run whose model is not in the table has no cost (undefined, `?` on screen, null in JSON): never a guess,
 * and neither has any sum it is part of. A run that used no tokens cost nothing, whatever its model, unless
 * the input ended while it was generating: the tokens of a generation are reported when it ends, so a run
 * killed in its first one is not known to have cost nothing (`?`, as `unreported` says).
 *
 * Some runtimes say what their work cost (Claude Code's `total_cost_usd`): a job's cost is then what they
 * reported, and the table's cost of its runs no report covers (`Job.reportedCost`). A run's own cost is the
 * table's: a report speaks of a whole process (the calls of a run's sub-agents and hidden helpers too). Only where
 * the table has no price for the run, and reports named that run alone (opencode's steps, which name no model),
 * is what they said its cost.
 */

export type Cost = number | undefined;

type TokenRule = {cachedInInput: boolean; reasoningInOutput: boolean};

const rules: Record<PriceProvider, TokenRule> = {
	anthropic: {cachedInInput: false, reasoningInOutput: true},
	'amazon-bedrock': {cachedInInput: false, reasoningInOutput: true},
	openai: {cachedInInput: true, reasoningInOutput: true},
	'azure-openai': {cachedInInput: true, reasoningInOutput: true},
	deepseek: {cachedInInput: true, reasoningInOutput: true},
	ollama: {cachedInInput: true, reasoningInOutput: true},
	google: {cachedInInput: true, reasoningInOutput: false},
	'google-vertex': {cachedInInput: true, reasoningInOutput: false},
};

/** The cost of some usage at a model's prices. */
export function usageCost(usage: Usage, price: ModelPrice): number {
	const rule = rules[price.provider];
	const uncached = rule.cachedInInput ? Math.max(0, usage.inputTokens - usage.cachedInputTokens) : usage.inputTokens;
	const output = rule.reasoningInOutput ? usage.outputTokens : usage.outputTokens + usage.reasoningTokens;
	// Dollars per million tokens: summed first and divided once, so that small sums keep their digits.
	return (uncached * price.input + usage.cachedInputTokens * price.cachedInput + output * price.output) / 1_000_000;
}

function usedNothing(usage: Usage): boolean {
	return usage.inputTokens === 0 && usage.outputTokens === 0 && usage.reasoningTokens === 0 && usage.cachedInputTokens === 0;
}

/**
 * A model's prices, looked up by its name: the exact name, else the name without what providers and CLIs add to
 * it, in turn: a variant in brackets (Claude Code's `claude-opus-4-8[1m]`, the 1M-context variant, priced as the
 * model), then a date (`claude-sonnet-4-5-20250929`, `gpt-5-2025-08-07`, `claude-sonnet-4-5@20250929`). None for a
 * name the table does not have in any of these forms.
 */
export function priceOf(table: PriceTable, model: string | undefined): ModelPrice | undefined {
	if (model === undefined) return undefined;
	// The name as it is, before the forms made with regular expressions: a summary prices each run several times.
	if (Object.hasOwn(table.models, model)) return table.models[model];
	for (const name of nameForms(model)) if (Object.hasOwn(table.models, name)) return table.models[name];
	return undefined;
}

function nameForms(model: string): string[] {
	const forms = [model];
	const unbracketed = model.replace(/\[[^\]]*\]$/, '');
	if (unbracketed !== model) forms.push(unbracketed);
	const undated = unbracketed.replace(/[-@](?:\d{8}|\d{4}-\d{2}-\d{2})$/, '');
	if (undated !== unbracketed) forms.push(undated);
	return forms;
}

/** Why a run has no cost (`costOfRun` undefined), as a person reads it; undefined when it has one. */
export function whyNoCost(model: Model, run: Run, table: PriceTable): string | undefined {
	if (costOfRun(model, run, table) !== undefined) return undefined;
	if (unreported(model, run)) return 'the input ended while it generated, before its tokens were reported';
	if (run.model === undefined) return `${run.dialect} events name no model`;
	return `no price for ${run.model} in the price table${table.file === null ? ' (give one with --prices FILE)' : ` ${table.file}`}`;
}

/** What a run cost; undefined when its model has no price. */
export function runCost(run: Pick<Run, 'model' | 'usage'>, table: PriceTable): Cost {
	if (usedNothing(run.usage)) return 0;
	const price = priceOf(table, run.model);
	return price ? usageCost(run.usage, price) : undefined;
}

/**
 * A run the input ended in the middle of (killed, or its log cut) that had started generating but had no
 * tokens reported: what it cost is not known, rather than $0.
 */
export function unreported(model: Model, run: Run): boolean {
	return usedNothing(run.usage) && (run.steps.length > 0 || run.streams.size > 0) && endedWithoutFinalEvent(model, run);
}

/**
 * What a run cost, as far as the model knows: the table's price of its usage, else what its runtime reported of it
 * alone (`Job.reportedCost.byRun`); undefined for a generation never reported, or a run neither prices.
 */
export function costOfRun(model: Model, run: Run, table: PriceTable): Cost {
	if (unreported(model, run)) return undefined;
	return runCost(run, table) ?? model.jobs.get(run.jobId)?.reportedCost?.byRun.get(run.runId);
}

/** A sum of costs, unknown when any part of it is. */
export function addCosts(a: Cost, b: Cost): Cost {
	return a === undefined || b === undefined ? undefined : a + b;
}

/** What some runs cost together. */
export function runsCost(model: Model, runs: Iterable<Run>, table: PriceTable): Cost {
	let total: Cost = 0;
	for (const run of runs) {
		total = addCosts(total, costOfRun(model, run, table));
		if (total === undefined) return undefined;
	}

	return total;
}

/** What a job cost: what its runtime reported, and its runs no report covers. */
export function jobCost(model: Model, job: Job, table: PriceTable): Cost {
	const reported = job.reportedCost;
	if (reported === undefined) return runsCost(model, runsOf(model, job.runIds), table);
	let total: Cost = reported.usd;
	for (const run of runsOf(model, job.runIds)) {
		if (!reported.runIds.has(run.runId)) total = addCosts(total, costOfRun(model, run, table));
	}

	return total;
}

/** What every job cost. */
export function totalCost(model: Model, table: PriceTable): Cost {
	let reports = false;
	for (const job of model.jobs.values()) reports ||= job.reportedCost !== undefined;
	if (!reports) return runsCost(model, model.runs.values(), table);
	let total: Cost = 0;
	for (const job of model.jobs.values()) total = addCosts(total, jobCost(model, job, table));
	return total;
}

function* runsOf(model: Model, runIds: readonly string[]): Iterable<Run> {
	for (const runId of runIds) {
		const run = model.runs.get(runId);
		if (run) yield run;
	}
}

/** A cost as JSON writes it: to the millionth of a dollar (float sums carry noise below that), null when unknown. */
export function costForJson(cost: Cost): number | null {
	return cost === undefined ? null : Math.round(cost * 1_000_000) / 1_000_000;
}
