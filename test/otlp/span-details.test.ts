import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {fixturesDir} from '../helpers/load.js';
import {decodeJsonLines, type ReceivedSpan} from './receiver.js';
import {exportInProcess} from './run-cli.js';
import {scratchDirectories} from '../helpers/scratch.js';

const scratch = scratchDirectories('perscope-otlp-');

/*
 * What a span carries besides its place in the tree, as `--otlp-file` writes it (OTLP JSON, what a collector
 * reads): the link from a run started from another run's checkpoint, the retry and exception events, and the
 * cache-read and reasoning token counts. Every figure below is read off the fixture's own lines (cited).
 */

let spans: ReceivedSpan[] = [];

beforeAll(async () => {
	const file = join(scratch(), 'spans.jsonl');
	const inputs = ['continue-followup.ndjson', 'retry.ndjson', 'stop-error.ndjson', 'streaming.ndjson', 'codex/edit-and-test.jsonl'].map(name =>
		join(fixturesDir, name),
	);
	const result = await exportInProcess(['--summary', '--otlp-file', file, ...inputs]);
	expect(result.code).toBe(0);
	spans = decodeJsonLines(readFileSync(file, 'utf8'));
});

function agentOfRun(runId: string): ReceivedSpan {
	const found = spans.find(span => span.name.startsWith('invoke_agent ') && (span.attributes['perscope.run.ids'] as string[]).includes(runId));
	if (!found) throw new Error(`no agent span for run ${runId}`);
	return found;
}

function chatsOf(agent: ReceivedSpan): ReceivedSpan[] {
	return spans
		.filter(span => span.name.startsWith('chat ') && span.parentSpanId === agent.spanId)
		.sort((a, b) => Number(a.attributes['perscope.step']) - Number(b.attributes['perscope.step']));
}

const tokens = (span: ReceivedSpan) => ({
	input: span.attributes['gen_ai.usage.input_tokens'],
	cacheRead: span.attributes['gen_ai.usage.cache_read.input_tokens'],
	reasoning: span.attributes['gen_ai.usage.reasoning.output_tokens'],
});

describe('--otlp-file: what a span carries', () => {
	it('links a follow-up run to the agent span of the run whose checkpoint it started from (resumed_from)', () => {
		// continue-followup.ndjson: run fz56wt… starts (line 24) from initialCheckpoint.runId rzxr52… (completed),
		// with a new query: a span of its own, linked to the first one's.
		const first = agentOfRun('rzxr52g03f34y6la3vtsaw7s');
		const followUp = agentOfRun('fz56wtpg8bjm4sdnqyw7s2y5');
		expect(followUp.spanId).not.toBe(first.spanId);
		expect(followUp.links).toEqual([{traceId: first.traceId, spanId: first.spanId, attributes: {'perscope.link.type': 'resumed_from'}}]);
		expect(first.links).toEqual([]);
	});

	it('puts a retry on its agent span as a perscope.retry event, with its reason and time', () => {
		// retry.ndjson line 10: the `retry` event of run hnvjkn… at 1795382001855.
		const summariser = agentOfRun('hnvjknsgp7q7pbrriwe5kr9i');
		expect(summariser.events).toEqual([
			{
				name: 'perscope.retry',
				timeMs: 1_795_382_001_855,
				attributes: {'perscope.retry.reason': '{"error":"Error: No tool call generated","message":"You must generate a tool call. Try again."}'},
			},
		]);
	});

	it('puts a run’s error on its agent span as an exception event, with its type and message', () => {
		// stop-error.ndjson line 15: stopRunByError at 1795382920801, error {name: AI_APICallError, message: …}.
		const analyst = agentOfRun('rcrv8nedrg121k9yh6nsb7uw');
		expect(analyst.events).toEqual([
			{
				name: 'exception',
				timeMs: 1_795_382_920_801,
				attributes: {'exception.type': 'AI_APICallError', 'exception.message': 'prompt is too long: 211403 tokens > 200000 maximum'},
			},
		]);
	});

	it('gives chat and agent spans their reasoning tokens (Perstack)', () => {
		// streaming.ndjson: step 1's usage (continueToNextStep.step.usage) has reasoningTokens 42, step 2's
		// (completeRun.step.usage) 38; the checkpoint's run total is 80. No cache reads: no cache attribute.
		const agent = agentOfRun('b9kp6i5aojy6gk6u0fi78916');
		expect(chatsOf(agent).map(tokens)).toEqual([
			{input: 1257, cacheRead: undefined, reasoning: 42},
			{input: 3220, cacheRead: undefined, reasoning: 38},
		]);
		expect(tokens(agent)).toEqual({input: 4477, cacheRead: undefined, reasoning: 80});
	});

	it('gives agent spans their cache reads and reasoning tokens (Codex)', () => {
		// codex/edit-and-test.jsonl: turn.completed (line 13) input 4000, cached 1000, reasoning 80; the second
		// turn.completed (line 21) is cumulative, 6000 / 1500 / 120, so the second turn's own is 2000 / 500 / 40.
		// The model is not named, so no provider: input is the recorded input, cache reads not added. (Codex's
		// lines have no times, so its steps make no chat spans.)
		const turns = ['01a21ce9-020d-7fe0-b821-ed598ab9d450', '01a21ce9-020d-7fe0-b821-ed598ab9d450#2'].map(agentOfRun);
		expect(turns.map(tokens)).toEqual([
			{input: 4000, cacheRead: 1000, reasoning: 80},
			{input: 2000, cacheRead: 500, reasoning: 40},
		]);
	});
});
