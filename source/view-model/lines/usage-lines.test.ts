import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../../../test/helpers/load.js';
import {builtinPrices} from '../../query/prices.js';
import {displayWidth} from '../../text/width/width.js';
import {usageLines} from './usage-lines.js';

describe('#32 §3.10 u: a TOTAL row, and SHARE of cost when costs are known', () => {
	it('ends the table with the experts added up, in the same columns', () => {
		const {lines, shareOf} = usageLines(modelFromFixtures('demo.ndjson'), undefined, builtinPrices, 100);
		const texts = lines.map(line => line.text);
		expect(shareOf).toBe('cost');
		expect(texts.at(-1)).toMatch(/^TOTAL +4 +43k +907 +\S+ +\S+ +\$\d+\.\d+$/);
		expect(texts.every(text => displayWidth(text) <= 99)).toBe(true);
		// Each expert's share is of the cost.
		expect(texts.find(text => text.startsWith('bugfix-lead'))).toMatch(/\$0\.10 +\d+%/);
	});

	it('shares the tokens on a log whose cost is unknown (drover names no model), and shows a TOTAL of its two experts', () => {
		const {lines, shareOf} = usageLines(modelFromFixtures('drover-subagent.ndjson'), undefined, builtinPrices, 100);
		expect(shareOf).toBe('tokens');
		expect(lines.at(-1)?.text).toMatch(/^TOTAL +2 +46k +549 .* \?$/);
	});
});

describe('u on a stream whose runtime reports its cost', () => {
	it('says the job cost what Claude Code reported (total_cost_usd 0.02024), beside the rows at the table’s prices', () => {
		// parallel-agents.ndjson: the main loop on Opus and a general-purpose sub-agent at the table's Opus prices, the
		// Explore one at Haiku's: $0.0092 + $0.0041 + $0.0008, a TOTAL of $0.01; the result line says 0.02024.
		const {lines} = usageLines(modelFromFixtures('claude-code/parallel-agents.ndjson'), undefined, builtinPrices, 100);
		const texts = lines.map(line => line.text);
		expect(texts.find(text => text.startsWith('TOTAL'))).toMatch(/ \$0\.01 *$/);
		const note = texts.slice(texts.findIndex(text => text.startsWith('TOTAL')) + 1).join(' ');
		expect(note).toBe(
			"The job cost $0.02 as its runtime reported it; the rows price each run's tokens by the price table (a report can also count calls no run shows).",
		);
		expect(lines.at(-1)?.tone).toBe('dim');
		expect(texts.every(text => displayWidth(text) <= 99)).toBe(true);
	});

	it('says nothing more where nothing was reported (a Perstack log), or where the report and the rows agree', () => {
		const perstack = usageLines(modelFromFixtures('demo.ndjson'), undefined, builtinPrices, 100).lines;
		expect(perstack.at(-1)?.text).toMatch(/^TOTAL /);
		// max-turns.ndjson: one run, whose table cost ($0.0092) is what the result reported (total_cost_usd 0.0092).
		const agreed = usageLines(modelFromFixtures('claude-code/max-turns.ndjson'), undefined, builtinPrices, 100).lines;
		expect(agreed.map(line => line.tone)).not.toContain('dim');
	});

	it('wraps what it says to a narrower overlay, and says nothing where the table has no COST column to disagree', () => {
		const model = modelFromFixtures('claude-code/parallel-agents.ndjson');
		const said = usageLines(model, undefined, builtinPrices, 80).lines.filter(line => line.tone === 'dim');
		expect(said.length).toBeGreaterThan(1);
		expect(said.every(line => displayWidth(line.text) <= 79)).toBe(true);
		expect(usageLines(model, undefined, builtinPrices, 60).lines.map(line => line.tone)).not.toContain('dim');
	});

	it('over several jobs, says what they cost together, counting what their runtimes reported', () => {
		// parallel-agents reports 0.02024 and nested-subagents 0.0276: $0.05 together; their runs at the table's prices
		// come to 0.01415 and 0.013325.
		const {lines} = usageLines(modelFromFixtures('claude-code/parallel-agents.ndjson', 'claude-code/nested-subagents.ndjson'), undefined, builtinPrices, 200);
		expect(lines.filter(line => line.tone === 'dim').map(line => line.text)).toEqual([
			"Together, the 2 jobs cost $0.05, counting what their runtimes reported; the rows price each run's tokens by the price table (a report can also count calls no run shows).",
		]);
	});
});
