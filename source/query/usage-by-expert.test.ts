import {describe, expect, it} from 'vitest';
import {formatShare, usageByExpert, usageTable} from './usage-by-expert.js';
import {modelFromFixtures} from '../../test/helpers/load.js';

describe('token usage per expert', () => {
	const model = modelFromFixtures('demo.ndjson');

	it('sums every run of an expert (a resumed coordinator counts with its first run), largest first', () => {
		const rows = usageByExpert(model);
		expect(rows.map(row => [row.expertKey, row.runs])).toEqual([
			['bugfix-lead', 2],
			['test-runner', 1],
			['code-reader', 1],
		]);
		expect(rows[0]!.usage).toEqual({
			inputTokens: 7266 + 20419,
			outputTokens: 244 + 353,
			reasoningTokens: 65 + 95,
			totalTokens: 7510 + 20772,
			cachedInputTokens: 4608 + 9216,
		});
		expect(rows[0]!.total).toBe(7266 + 20419 + 244 + 353);
	});

	it("costs each expert its runs' tokens at the price table given, unknown when a model is not in it", () => {
		const prices = {
			source: 'test',
			date: null,
			file: null,
			models: {'claude-sonnet-4-5': {provider: 'anthropic' as const, input: 3, cachedInput: 0.3, output: 15}},
		};
		const [lead] = usageByExpert(model, undefined, prices);
		expect(lead!.cost).toBeCloseTo(((7266 + 20419) * 3 + (4608 + 9216) * 0.3 + (244 + 353) * 15) / 1e6, 12);
		expect(usageByExpert(model, undefined, {...prices, models: {}})[0]!.cost).toBeUndefined();
	});

	it('each share is of all input plus output tokens, and the shares add up to 100', () => {
		const rows = usageByExpert(model);
		const all = 7266 + 244 + 8736 + 196 + 6271 + 114 + 20419 + 353;
		expect(rows[1]!.share).toBeCloseTo(((8736 + 196) / all) * 100, 10);
		expect(rows.reduce((sum, row) => sum + row.share, 0)).toBeCloseTo(100, 10);
	});

	it('one job only, when a job is given', () => {
		const two = modelFromFixtures('demo.ndjson', 'parallel-delegate.ndjson');
		const jobs = [...two.jobs.values()];
		expect(usageByExpert(two, jobs[1]).map(row => row.expertKey)).toEqual(['docs-checker', 'changelog-writer', 'release-coordinator']);
		expect(usageByExpert(two)).toHaveLength(6);
	});

	it('nothing used: the share is 0, not a division by zero', () => {
		const model = modelFromFixtures('real/error.ndjson');
		expect(usageByExpert(model)).toEqual([{expertKey: 'error-expert', runs: 1, usage: expect.objectContaining({inputTokens: 0}), cost: 0, total: 0, share: 0}]);
	});
});

describe('#32 §3.10 the usage table: a TOTAL, and shares of the cost when the costs are known', () => {
	it('adds every expert up, and shares the cost when every cost is known', () => {
		const model = modelFromFixtures('demo.ndjson');
		const {rows, total, shareOf} = usageTable(model);
		expect(shareOf).toBe('cost');
		expect(total.runs).toBe(4);
		expect(total.usage.inputTokens).toBe(7266 + 8736 + 6271 + 20419);
		expect(total.cost).toBeCloseTo(
			rows.reduce((sum, row) => sum + row.cost!, 0),
			12,
		);
		expect(rows[0]!.share).toBeCloseTo((rows[0]!.cost! / total.cost!) * 100, 10);
		expect(rows.reduce((sum, row) => sum + row.share, 0)).toBeCloseTo(100, 10);
		// The largest cost first.
		expect(rows.map(row => row.cost)).toEqual([...rows.map(row => row.cost)].sort((a, b) => b! - a!));
	});

	it('shares the tokens when a cost is unknown (a drover log names no model), its total cost unknown too', () => {
		const {rows, total, shareOf} = usageTable(modelFromFixtures('drover-subagent.ndjson'));
		expect(shareOf).toBe('tokens');
		expect(total.cost).toBeUndefined();
		expect(rows).toEqual(usageByExpert(modelFromFixtures('drover-subagent.ndjson')));
	});
});

describe('formatShare', () => {
	it('whole percent from 10 up, one decimal below, and a sliver is not shown as nothing', () => {
		expect([0, 0.04, 0.26, 7.54, 9.96, 42.4, 100].map(formatShare)).toEqual(['0%', '<0.1%', '0.3%', '7.5%', '10%', '42%', '100%']);
	});
});
