import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, modelFromText} from '../../test/helpers/load.js';
import {endInput} from '../model/state.js';
import {summaryTable} from './summary-table.js';

function linesOf(table: string): string[] {
	return table.trimEnd().split('\n');
}

describe('summaryTable', () => {
	it('heads each job with its status, steps, tokens, cost and duration', () => {
		expect(linesOf(summaryTable(modelFromFixtures('demo.ndjson')))[0]).toBe(
			'job nibyyurl65b4kj4hbi6jlvhk  ✓ completed  14 steps · 17 steps run  42692 in / 907 out tokens  $0.15  10.2s',
		);
	});

	it('lists the runs in the order they happened, delegates indented, a resumed run marked ↻', () => {
		const experts = linesOf(summaryTable(modelFromFixtures('demo.ndjson')))
			.slice(2, 6)
			.map(line => /^ {2}(\s*(?:↻ )?[\w-]+)/.exec(line)?.[1]);
		expect(experts).toEqual(['bugfix-lead', '  test-runner', '  code-reader', '↻ bugfix-lead']);
	});

	it('lines numbers up on the right under their headings', () => {
		const [, header, ...rows] = linesOf(summaryTable(modelFromFixtures('demo.ndjson')));
		const inEnd = header!.indexOf(' IN') + ' IN'.length;
		expect(rows.slice(0, 4).map(row => row.slice(0, inEnd).trimStart().split(/\s+/).at(-1))).toEqual(['7266', '8736', '6271', '20419']);
	});

	it("shows a run's error in the last column", () => {
		const table = summaryTable(modelFromFixtures('delegate-failure.ndjson'));
		expect(table).toMatch(/changelog-writer\s+✗ stoppedByError\s+3\s+2722\s+54\s+\$0\.0090\s+1\.3s\s+AI_APICallError: Overloaded\n/);
	});

	it('says why a coordinator never went on once the input has ended', () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		endInput(model, {exitCode: 1, lastStderr: 'Delegation error'});
		expect(summaryTable(model)).toMatch(
			/release-coordinator\s+⏸ stoppedByDelegate .*job ended while waiting: changelog-writer failed: AI_APICallError: Overloaded; the command exited 1: Delegation error\n/,
		);
	});

	it('shows ? for the cost of a run whose model has no price, and for its job', () => {
		const text = readFileSync(fixturePath('real/simple.ndjson'), 'utf8').replaceAll('"model":"claude-sonnet-4-5"', '"model":"in-house-model"');
		const [job, header, run] = linesOf(summaryTable(modelFromText(text)));
		expect(job).toMatch(/ out tokens {2}\? {2}/);
		expect(header).toMatch(/ OUT {2}COST {2}DURATION/);
		expect(run).toMatch(/ \? {2}/);
	});

	it('ends with the event count, unknown event types and bad lines', () => {
		expect(linesOf(summaryTable(modelFromFixtures('mcp-and-unknown.ndjson'))).at(-1)).toBe('32 events, unknown: skillHealthCheck ×1, startPlanning ×2');
		const withBadLines = modelFromText(`${readFileSync(fixturePath('real/simple.ndjson'), 'utf8')}not json\n{"half":\n`);
		expect(linesOf(summaryTable(withBadLines)).at(-1)).toMatch(/^\d+ events, 2 bad lines$/);
		const withOneBadLine = modelFromText(`${readFileSync(fixturePath('real/simple.ndjson'), 'utf8')}not json\n`);
		expect(linesOf(summaryTable(withOneBadLine)).at(-1)).toMatch(/^\d+ events, 1 bad line$/);
	});

	it('keeps escape sequences in expert names off the terminal', () => {
		const text = readFileSync(fixturePath('real/simple.ndjson'), 'utf8').replaceAll('"expertKey":"', String.raw`"expertKey":"\u001b[2J`);
		const table = summaryTable(modelFromText(text));
		expect(table).not.toContain('\u001B');
		expect(table).toMatch(/\[2J/);
	});

	it('says once, under the jobs, that a job whose runtime reported its cost need not be its runs added up', () => {
		// parallel-agents.ndjson: the result says total_cost_usd 0.02024 ($0.02); its three runs at the table's prices
		// come to $0.0092 + $0.0041 + $0.0008.
		const one = linesOf(summaryTable(modelFromFixtures('claude-code/parallel-agents.ndjson')));
		expect(one[0]).toMatch(/  \$0\.02  /);
		expect(one.at(-2)).toBe("cost: the job's is what its runtime reported, its runs' the price table's, so they need not add up");
		// nested-subagents.ndjson reports 0.0276 for runs priced at $0.0133 together: two jobs, one line.
		const two = linesOf(summaryTable(modelFromFixtures('claude-code/parallel-agents.ndjson', 'claude-code/nested-subagents.ndjson')));
		expect(two.filter(line => line.startsWith('cost:'))).toEqual([
			"cost: 2 jobs' are what their runtimes reported, their runs' the price table's, so they need not add up",
		]);
	});

	it('says nothing of it where nothing was reported, or where the report and the runs agree (max-turns: 0.0092 both)', () => {
		expect(summaryTable(modelFromFixtures('demo.ndjson'))).not.toContain('\ncost:');
		expect(summaryTable(modelFromFixtures('claude-code/max-turns.ndjson'))).not.toContain('\ncost:');
	});
});
