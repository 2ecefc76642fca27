import {spawnSync} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {eventLogFixtures} from '../helpers/fixture-files.js';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {describe, expect, it} from 'vitest';
import {builtinPrices} from '../../source/query/prices.js';
import {scratchDirectories} from '../helpers/scratch.js';

const scratch = scratchDirectories('perscope-prices-');

/*
 * The costs `--summary --json` writes, worked out again here from the document's token counts and each run's
 * model as its `initializeRuntime` line names it in the raw log, at the built-in table's prices. Every model in
 * the fixtures is an Anthropic one, whose `inputTokens` leaves out the cache reads: dollars =
 * (input × in + cached × cachedIn + output × out) / 1e6.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

type Usage = {inputTokens: number; outputTokens: number; reasoningTokens: number; cachedInputTokens: number};
type RunDoc = {runId: string; model: string | null; usage: Usage; costUsd: number | null};
type SummaryDoc = {
	jobs: Array<{costUsd: number | null; runs: RunDoc[]}>;
	costUsd: number | null;
	prices: {source: string; date: string | null; file: string | null};
};

/** `--summary --json` of the CLI run in this process (test/helpers/cli-in-process.ts). */
async function summaryOf(args: string[]): Promise<SummaryDoc> {
	const result = await perscopeInProcess(['--summary', '--json', ...args]);
	expect(result.code, result.stderr).toBe(0);
	return JSON.parse(result.stdout) as SummaryDoc;
}

/** Each run's model, straight from the raw lines. */
function modelsByRun(path: string): Map<string, string> {
	const models = new Map<string, string>();
	for (const line of readFileSync(path, 'utf8').split('\n')) {
		if (!line.includes('"initializeRuntime"')) continue;
		const event = JSON.parse(line) as {type: string; runId: string; model?: string};
		if (event.type === 'initializeRuntime' && event.model !== undefined) models.set(event.runId, event.model);
	}

	return models;
}

const perstackFixtures = eventLogFixtures().filter(
	name => !name.startsWith('drover') && !name.startsWith('daemon') && !name.startsWith('claude-code/') && !name.startsWith('amp/'),
);

describe('cost in --summary --json', () => {
	it.each(perstackFixtures)('%s: every run, job and the total are its tokens at its model’s prices', async fixture => {
		const path = join(root, 'fixtures', fixture);
		const summary = await summaryOf([path]);
		const models = modelsByRun(path);
		expect(summary.prices).toEqual({source: builtinPrices.source, date: builtinPrices.date, file: null});
		let total = 0;
		for (const job of summary.jobs) {
			let jobTotal = 0;
			for (const run of job.runs) {
				// A released CLI's run segment (`<runId>#2`) has its run id's initializeRuntime.
				const model = models.get(run.runId) ?? models.get(run.runId.replace(/#\d+$/, ''));
				expect(run.model).toBe(model ?? null);
				const used = run.usage.inputTokens + run.usage.outputTokens + run.usage.cachedInputTokens + run.usage.reasoningTokens;
				const price = model === undefined ? undefined : builtinPrices.models[model];
				expect(price?.provider ?? 'anthropic').toBe('anthropic');
				const expected =
					used === 0
						? 0
						: price && (run.usage.inputTokens * price.input + run.usage.cachedInputTokens * price.cachedInput + run.usage.outputTokens * price.output) / 1e6;
				expect(expected, `${run.runId} has a priced model`).toBeDefined();
				expect(run.costUsd).toBeCloseTo(expected!, 6);
				jobTotal += expected!;
			}

			expect(job.costUsd).toBeCloseTo(jobTotal, 6);
			total += jobTotal;
		}

		expect(summary.costUsd).toBeCloseTo(total, 6);
	});

	it('a real log costs what its tokens cost: claude-sonnet-4-5 at $3 in and $15 out per million', async () => {
		const summary = await summaryOf(['fixtures/real/simple.ndjson']);
		const [run] = summary.jobs[0]!.runs;
		expect(run!.model).toBe('claude-sonnet-4-5');
		expect(run!.costUsd).toBeCloseTo((run!.usage.inputTokens * 3 + run!.usage.outputTokens * 15) / 1e6, 9);
		expect(run!.costUsd).toBeGreaterThan(0);
	});

	it('a run without a model (drover) has a null cost, and so have its job and the total: never a guess', async () => {
		const summary = await summaryOf(['fixtures/drover-subagent.ndjson']);
		expect(summary.jobs[0]!.runs.map(run => run.costUsd)).toEqual([null, null]);
		expect(summary.jobs[0]!.costUsd).toBeNull();
		expect(summary.costUsd).toBeNull();
	});

	it('--prices FILE replaces the table, is named under prices, and its provider decides how cached input counts', async () => {
		const dir = scratch();
		const file = join(dir, 'prices.json');
		// As if the model were served the OpenAI way: cached input inside inputTokens.
		writeFileSync(
			file,
			JSON.stringify({source: 'test table', date: '2026-01-02', models: {'claude-sonnet-4-5': {provider: 'openai', input: 2, cachedInput: 1, output: 10}}}),
		);
		const summary = await summaryOf(['--prices', file, 'fixtures/demo.ndjson']);
		expect(summary.prices).toEqual({source: 'test table', date: '2026-01-02', file});
		for (const run of summary.jobs[0]!.runs) {
			const {inputTokens, cachedInputTokens, outputTokens} = run.usage;
			expect(run.costUsd).toBeCloseTo(((inputTokens - cachedInputTokens) * 2 + cachedInputTokens * 1 + outputTokens * 10) / 1e6, 6);
		}

		expect(summary.jobs[0]!.runs.some(run => run.usage.cachedInputTokens > 0)).toBe(true);
	});

	it('a bad price file is one line on stderr saying what is wrong, exit 2; a missing one exit 1', async () => {
		const dir = scratch();
		const file = join(dir, 'prices.json');
		writeFileSync(file, '{"models":{"m":{"provider":"openai","input":"cheap","cachedInput":0,"output":1}}}');
		const bad = spawnSync(process.execPath, ['dist/bin/perscope.js', '--summary', '--prices', file, 'fixtures/demo.ndjson'], {cwd: root, encoding: 'utf8'});
		expect(bad.status).toBe(2);
		expect(bad.stdout).toBe('');
		expect(bad.stderr).toBe(`perscope: --prices ${file}: models.m.input: Invalid input: expected number, received string (see perscope --help)\n`);
		const missing = spawnSync(process.execPath, ['dist/bin/perscope.js', '--summary', '--prices', join(dir, 'none.json'), 'fixtures/demo.ndjson'], {
			cwd: root,
			encoding: 'utf8',
		});
		expect(missing.status).toBe(1);
		expect(missing.stderr).toMatch(/^perscope: --prices .*none\.json: cannot be read \(ENOENT\)\n$/);
	});
});
