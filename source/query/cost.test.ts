import {describe, expect, it} from 'vitest';
import type {Usage} from '../model/events.js';
import {readFileSync} from 'node:fs';
import {fixturePath, modelFromText} from '../../test/helpers/load.js';
import {endInput} from '../model/state.js';
import {addCosts, costForJson, costOfRun, jobCost, priceOf, runCost, usageCost, whyNoCost} from './cost.js';
import {builtinPrices, type PriceTable} from './prices.js';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0, reasoningTokens = 0): Usage => ({
	inputTokens,
	outputTokens,
	reasoningTokens,
	cachedInputTokens,
	totalTokens: inputTokens + outputTokens,
});

const table: PriceTable = {
	source: 'test',
	date: null,
	file: null,
	models: {
		claude: {provider: 'anthropic', input: 3, cachedInput: 0.3, output: 15},
		gpt: {provider: 'openai', input: 1.25, cachedInput: 0.125, output: 10},
		gemini: {provider: 'google', input: 1.25, cachedInput: 0.125, output: 10},
	},
};

describe('usageCost', () => {
	it('prices a million input and output tokens at the table price', () => {
		expect(usageCost(usage(1_000_000, 1_000_000), table.models['claude']!)).toBeCloseTo(18, 10);
	});

	it('Anthropic: cache reads are not part of inputTokens, so both are priced as they are', () => {
		expect(usageCost(usage(1000, 0, 10_000), table.models['claude']!)).toBeCloseTo((1000 * 3 + 10_000 * 0.3) / 1e6, 12);
	});

	it('OpenAI: cache reads are inside inputTokens and are taken out of the uncached part', () => {
		expect(usageCost(usage(10_000, 0, 8000), table.models['gpt']!)).toBeCloseTo((2000 * 1.25 + 8000 * 0.125) / 1e6, 12);
	});

	it('reasoning is inside outputTokens but for Gemini, whose thinking is reported apart and billed as output', () => {
		expect(usageCost(usage(0, 100, 0, 400), table.models['gpt']!)).toBeCloseTo((100 * 10) / 1e6, 12);
		expect(usageCost(usage(0, 100, 0, 400), table.models['gemini']!)).toBeCloseTo((500 * 10) / 1e6, 12);
	});
});

describe('runCost and sums', () => {
	it('has no cost for a model the table does not have, nor for a run with no model', () => {
		expect(runCost({model: 'mystery-model', usage: usage(10, 10)}, table)).toBeUndefined();
		expect(runCost({model: undefined, usage: usage(10, 10)}, table)).toBeUndefined();
		// Names are matched exactly: nothing is inherited from the object prototype.
		expect(priceOf(table, 'toString')).toBeUndefined();
	});

	it('prices a dated id, a bracketed variant and both as the model (#36: claude-sonnet-4-5-20250929 is claude-sonnet-4-5)', () => {
		expect(priceOf(builtinPrices, 'claude-sonnet-4-5-20250929')).toBe(builtinPrices.models['claude-sonnet-4-5']);
		expect(priceOf(builtinPrices, 'claude-haiku-4-5-20251001')).toBe(builtinPrices.models['claude-haiku-4-5']);
		expect(priceOf(builtinPrices, 'claude-opus-4-8[1m]')).toBe(builtinPrices.models['claude-opus-4-8']);
		expect(priceOf(builtinPrices, 'claude-sonnet-4-5@20250929')).toBe(builtinPrices.models['claude-sonnet-4-5']);
		expect(priceOf(builtinPrices, 'gpt-5-2025-08-07')).toBe(builtinPrices.models['gpt-5']);
		expect(priceOf(builtinPrices, 'gpt-5.1-codex-2025-11-13')).toBe(builtinPrices.models['gpt-5.1-codex']);
		// A name of the table's own, dated, is taken as it is.
		expect(priceOf(builtinPrices, 'claude-opus-4-20250514')).toBe(builtinPrices.models['claude-opus-4-20250514']);
		expect(priceOf(builtinPrices, 'claude-mystery-20250101')).toBeUndefined();
	});

	it('says why a run has no cost: no model named, or none in the table', () => {
		const drover = modelFromText(readFileSync(fixturePath('drover-subagent.ndjson')));
		expect(whyNoCost(drover, [...drover.runs.values()][0]!, builtinPrices)).toBe('drover events name no model');
		// The main loop of a turn with a sub-agent: its result's report covers both, so it is not that run's alone.
		const claude = modelFromText(readFileSync(fixturePath('claude-code/nested-subagents.ndjson')));
		const run = [...claude.runs.values()][0]!;
		expect(whyNoCost(claude, run, builtinPrices)).toBeUndefined();
		expect(whyNoCost(claude, run, {...builtinPrices, models: {}})).toBe('no price for claude-opus-4-8[1m] in the price table (give one with --prices FILE)');
	});

	it('a run the table cannot price costs what its runtime reported of it alone (opencode: each step’s cost, for its run)', () => {
		// edit-and-test.jsonl: five step_finish lines of cost 0.00276, four in the first run and one in the second.
		const model = modelFromText(readFileSync(fixturePath('opencode/edit-and-test.jsonl')));
		const [first, second] = [...model.runs.values()];
		expect(first!.model).toBeUndefined();
		expect(costOfRun(model, first!, builtinPrices)).toBeCloseTo(4 * 0.00276, 12);
		expect(costOfRun(model, second!, builtinPrices)).toBeCloseTo(0.00276, 12);
		expect(whyNoCost(model, first!, builtinPrices)).toBeUndefined();
		// A turn of Claude Code's without a sub-agent is priced by the table all the same, whatever its result reported.
		const claude = modelFromText(readFileSync(fixturePath('claude-code/failing-tools.ndjson')));
		const turn = [...claude.runs.values()][0]!;
		expect(costOfRun(claude, turn, builtinPrices)).not.toBe(claude.jobs.get(turn.jobId)!.reportedCost!.usd);
		expect(costOfRun(claude, turn, {...builtinPrices, models: {}})).toBe(claude.jobs.get(turn.jobId)!.reportedCost!.usd);
	});

	it('a run that used no tokens cost nothing, whatever its model', () => {
		expect(runCost({model: undefined, usage: usage(0, 0)}, table)).toBe(0);
	});

	it('a sum is unknown when any part is', () => {
		expect(addCosts(1, undefined)).toBeUndefined();
		expect(addCosts(runCost({model: 'claude', usage: usage(1000, 0)}, table), runCost({model: 'nope', usage: usage(1, 0)}, table))).toBeUndefined();
		expect(addCosts(runCost({model: 'claude', usage: usage(1000, 0)}, table), runCost({model: 'gpt', usage: usage(1000, 0)}, table))).toBeCloseTo(0.004_25, 12);
	});

	it('a run killed before its usage was recorded cost $0: it costs ?, and so does its job', () => {
		// The released CLI's run killed mid-answer, cut before its first generation reported any tokens.
		const lines = readFileSync(fixturePath('released/killed-mid-answer.ndjson'), 'utf8').split('\n');
		const cutAt = lines.findIndex(line => line.includes('"type":"callTools"'));
		const model = modelFromText(lines.slice(0, cutAt).join('\n') + '\n');
		const run = [...model.runs.values()][0]!;
		const job = [...model.jobs.values()][0]!;
		// While the input goes on, the run is generating: nothing is reported yet, nothing is spent yet.
		expect(costOfRun(model, run, builtinPrices)).toBe(0);
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect(costOfRun(model, run, builtinPrices)).toBeUndefined();
		expect(jobCost(model, job, builtinPrices)).toBeUndefined();
		// Killed after its generation reported its tokens: those are what it cost.
		const whole = modelFromText(readFileSync(fixturePath('released/killed-mid-answer.ndjson')));
		endInput(whole, {exitCode: undefined, lastStderr: undefined});
		expect(costOfRun(whole, [...whole.runs.values()][0]!, builtinPrices)).toBeGreaterThan(0);
	});

	it('JSON gets millionths of a dollar, and null for unknown', () => {
		expect(costForJson(0.1 + 0.2)).toBe(0.3);
		expect(costForJson(undefined)).toBeNull();
	});
});

describe('the built-in table', () => {
	it('prices every model Perstack knows, with sane numbers', () => {
		// perstack-ai/perstack packages/core/src/known-models/index.ts
		const known = [
			'claude-opus-4-5',
			'claude-opus-4-1',
			'claude-opus-4-20250514',
			'claude-sonnet-4-5',
			'claude-sonnet-4-20250514',
			'claude-3-7-sonnet-20250219',
			'claude-haiku-4-5',
			'claude-3-5-haiku-latest',
			'gemini-3-pro-preview',
			'gemini-2.5-pro',
			'gemini-2.5-flash',
			'gemini-2.5-flash-lite',
			'gpt-5',
			'gpt-5-mini',
			'gpt-5-nano',
			'gpt-5-chat-latest',
			'o4-mini',
			'o3',
			'o3-mini',
			'gpt-4.1',
			'deepseek-chat',
			'deepseek-reasoner',
			'gpt-oss:20b',
			'gpt-oss:120b',
			'gemma3:1b',
			'gemma3:4b',
			'gemma3:12b',
			'gemma3:27b',
		];
		// And the Claude models Claude Code runs that Perstack does not know (platform.claude.com, Pricing).
		const claudeCode = ['claude-opus-5', 'claude-opus-4-8', 'claude-opus-4-7', 'claude-opus-4-6', 'claude-sonnet-4-6'];
		// And the GPT-5 and Gemini 3.x models Codex and Gemini CLI run (prices.ts says where each comes from).
		const codex = ['gpt-5-codex', 'gpt-5.1', 'gpt-5.1-codex', 'gpt-5.1-codex-max', 'gpt-5.2', 'gpt-5.2-codex', 'gpt-5.3-codex', 'gpt-5.4', 'gpt-5.5'];
		const geminiCli = ['gemini-3-flash-preview', 'gemini-3.1-flash-lite-preview', 'gemini-3.8-flash'];
		expect(Object.keys(builtinPrices.models).sort()).toEqual([...known, ...claudeCode, ...codex, ...geminiCli].sort());
		for (const price of Object.values(builtinPrices.models)) {
			expect(price.cachedInput).toBeLessThanOrEqual(price.input);
			expect(price.input).toBeLessThanOrEqual(price.output);
		}

		expect(builtinPrices.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	});
});
