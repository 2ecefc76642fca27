import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, modelFromText, runByExpert} from '../../test/helpers/load.js';
import {createModel, endInput} from '../model/state.js';
import {buildSummary, summaryJsonPieces} from './summary.js';

describe('buildSummary', () => {
	it("gives a job its runtime's reported cost as reportedCostUsd, and no such key where nothing was reported", () => {
		// parallel-agents.ndjson's result: total_cost_usd 0.020240000000000005, the job's whole cost (no run after it).
		const [job] = buildSummary(modelFromFixtures('claude-code/parallel-agents.ndjson')).jobs;
		expect([job!.costUsd, job!.reportedCostUsd]).toEqual([0.02024, 0.02024]);
		expect(Object.keys(JSON.parse(JSON.stringify(buildSummary(modelFromFixtures('demo.ndjson')))).jobs[0])).not.toContain('reportedCostUsd');
	});

	it('gives each job its status, steps and tokens, and its runs in the order they happened', () => {
		const summary = buildSummary(modelFromFixtures('demo.ndjson'));
		expect(summary.events).toBe(223);
		expect(summary.jobs).toHaveLength(1);
		const [job] = summary.jobs;
		expect(job).toMatchObject({
			jobId: 'nibyyurl65b4kj4hbi6jlvhk',
			status: 'completed',
			steps: 14,
			stepsRun: 17,
			usage: {inputTokens: 42_692, outputTokens: 907},
		});
		expect(job!.runs.map(run => [run.expertKey, run.status, run.steps])).toEqual([
			['bugfix-lead', 'stoppedByDelegate', 4],
			['test-runner', 'completed', 4],
			['code-reader', 'completed', 3],
			['bugfix-lead', 'completed', 6],
		]);
	});

	it('links delegates to their parent and a resumed run to the run it resumes', () => {
		const model = modelFromFixtures('demo.ndjson');
		const [first, testRunner, , resumed] = buildSummary(model).jobs[0]!.runs;
		expect(testRunner!.parentRunId).toBe(first!.runId);
		expect(resumed!.resumesRunId).toBe(first!.runId);
		expect(first!.resumesRunId).toBeNull();
		expect(resumed!.activities).toBe(runByExpert(model, 'bugfix-lead', 1).activityCount);
	});

	it('writes a run error as name: message, and null for a run without one', () => {
		const runs = buildSummary(modelFromFixtures('delegate-failure.ndjson')).jobs[0]!.runs;
		expect(runs.find(run => run.expertKey === 'changelog-writer')?.error).toBe('AI_APICallError: Overloaded');
		expect(runs.find(run => run.expertKey === 'docs-checker')?.error).toBeNull();
	});

	it('tells why the job ended while its coordinator waited, once the input has ended', () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		expect(buildSummary(model).jobs[0]!.runs[0]!.endedWhileWaiting).toBeNull();
		endInput(model, {exitCode: 1, lastStderr: undefined});
		expect(buildSummary(model).jobs[0]!.runs[0]!.endedWhileWaiting).toEqual({
			failedRunId: runByExpert(model, 'changelog-writer').runId,
			reason: 'changelog-writer failed: AI_APICallError: Overloaded; the command exited 1',
		});
	});

	it('counts unknown event types by name, in name order, and lists bad lines', () => {
		expect(buildSummary(modelFromFixtures('mcp-and-unknown.ndjson')).unknownEvents).toEqual({skillHealthCheck: 1, startPlanning: 2});
		const model = modelFromText(`${readFileSync(fixturePath('real/simple.ndjson'), 'utf8')}not json\n`, {source: 'run.ndjson'});
		const {diagnostics} = buildSummary(model);
		expect(diagnostics).toHaveLength(1);
		expect(diagnostics[0]).toMatchObject({source: 'run.ndjson', line: 17});
	});

	it('leaves out a job that has no runs yet', () => {
		const lines = readFileSync(fixturePath('real/simple.ndjson'), 'utf8').split('\n');
		const beforeStart = lines.slice(
			0,
			lines.findIndex(line => line.includes('"type":"startRun"')),
		);
		const model = modelFromText(beforeStart.join('\n'));
		// The runtime announced the job, but no run has started in it.
		expect(model.jobs.size).toBe(1);
		expect(buildSummary(model).jobs).toEqual([]);
	});
});

describe('summaryJsonPieces', () => {
	it('writes the JSON of buildSummary byte for byte, however many runs go in a piece', () => {
		for (const fixtures of [
			['demo.ndjson'],
			['delegate-failure.ndjson', 'demo.ndjson'],
			['mcp-and-unknown.ndjson', 'daemon-strategy.ndjson', 'stop-error.ndjson'],
		]) {
			const model = modelFromFixtures(...fixtures);
			for (const runsPerPiece of [1, 2, 1000]) {
				const pieces = [...summaryJsonPieces(model, undefined, runsPerPiece)];
				expect(pieces.join('')).toBe(JSON.stringify(buildSummary(model)));
				if (runsPerPiece === 1) expect(pieces.length).toBe(model.runs.size + 1);
			}
		}

		expect([...summaryJsonPieces(createModel())].join('')).toBe(JSON.stringify(buildSummary(createModel())));
	});

	it('cuts many small jobs into pieces too, not one piece of every job (a piece counts runs over jobs)', () => {
		const model = modelFromFixtures('demo.ndjson', 'delegate-failure.ndjson', 'stop-error.ndjson');
		expect(model.jobs.size).toBeGreaterThan(1);
		const pieces = [...summaryJsonPieces(model, undefined, 2)];
		expect(pieces.join('')).toBe(JSON.stringify(buildSummary(model)));
		expect(pieces.length).toBe(Math.floor(model.runs.size / 2) + 1);
	});
});

describe('summaryJsonPieces, pieces cut by their length', () => {
	it('ends a piece once it holds so many characters, however few runs it has: big pieces went to the large-object space', () => {
		const model = modelFromFixtures('demo.ndjson', 'delegate-failure.ndjson', 'stop-error.ndjson');
		const pieces = [...summaryJsonPieces(model, undefined, 1000, 1)];
		expect(pieces.join('')).toBe(JSON.stringify(buildSummary(model)));
		expect(pieces.length).toBe(model.runs.size + 1);
		const longest = Math.max(...pieces.slice(0, -1).map(piece => piece.length));
		expect(Math.max(...[...summaryJsonPieces(model, undefined, 1000, longest)].slice(0, -1).map(piece => piece.length))).toBeLessThan(2 * longest + 100);
	});
});

describe('diagnostics in --summary --json (#32 §3.14)', () => {
	it('says how many there were in all when it lists only the first 10,000', () => {
		const model = modelFromText(Array.from({length: 10_005}, (_, i) => `not json ${i}`).join('\n'));
		const summary = buildSummary(model);
		expect(summary.diagnostics).toHaveLength(10_000);
		expect(summary.diagnosticCount).toBe(10_005);
	});
});
