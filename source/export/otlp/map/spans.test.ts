import {readdirSync, readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, fixturesDir, modelFromFixtures, modelFromText} from '../../../../test/helpers/load.js';
import {endInput, isToolActivity, type Model} from '../../../model/state.js';
import {runsCost} from '../../../query/cost.js';
import {builtinPrices} from '../../../query/prices.js';
import {traceIdOf} from './ids.js';
import {defaultContentLimit, type OtlpSpan} from './span.js';
import {chatSpanId} from './span-ids.js';
import {mapModel} from './spans.js';
import {SpanTracker} from './tracker.js';

/** Where a job whose log gives no time sits (`MapOptions.untimedAtMs`): a time no fixture has, 2026-01-01. */
const untimedAtMs = Date.UTC(2026, 0, 1);
const quiet = {content: false, contentLimit: defaultContentLimit, prices: builtinPrices, untimedAtMs};

function byName(spans: OtlpSpan[], prefix: string): OtlpSpan[] {
	return spans.filter(span => span.name.startsWith(prefix));
}

function agent(spans: OtlpSpan[], expert: string): OtlpSpan {
	const found = spans.find(span => span.name === `invoke_agent ${expert}`);
	if (!found) throw new Error(`no agent span for ${expert}`);
	return found;
}

function toolCount(model: Model): number {
	return model.activities.filter(activity => activity.type === 'delegate' || isToolActivity(activity)).length;
}

describe('mapModel', () => {
	it('gives a delegated run’s agent span the delegating tool call as parent, and resumed runs one span', () => {
		const spans = mapModel(modelFromFixtures('real/delegate.ndjson'), quiet);
		const coordinator = agent(spans, 'coordinator');
		const child = agent(spans, 'child-expert');
		expect(coordinator.parentSpanId).toBeUndefined();
		expect(coordinator.attributes['perscope.run.ids']).toHaveLength(2);
		const delegation = spans.find(span => span.spanId === child.parentSpanId);
		expect(delegation?.name).toBe('execute_tool child-expert');
		expect(delegation?.parentSpanId).toBe(coordinator.spanId);
		expect(new Set(spans.map(span => span.traceId))).toEqual(new Set([coordinator.traceId]));
		expect(coordinator.attributes).toMatchObject({
			'gen_ai.operation.name': 'invoke_agent',
			'gen_ai.agent.name': 'coordinator',
			'gen_ai.request.model': 'claude-sonnet-4-5',
			'gen_ai.provider.name': 'anthropic',
		});
		// Every span ends no earlier than it starts, and within the log's time.
		for (const span of spans) expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
	});

	it('gives an agent span its runs’ cost in dollars when their model is priced, and none when it is not', () => {
		const model = modelFromFixtures('real/delegate.ndjson');
		const coordinator = agent(mapModel(model, quiet), 'coordinator');
		const runs = (coordinator.attributes['perscope.run.ids'] as string[]).map(id => model.runs.get(id)!);
		const cost = runsCost(model, runs, builtinPrices);
		expect(cost).toBeGreaterThan(0);
		expect(coordinator.attributes['perscope.cost.usd']).toBe(cost);
		expect(agent(mapModel(model, {...quiet, prices: {...builtinPrices, models: {}}}), 'coordinator').attributes).not.toHaveProperty('perscope.cost.usd');
	});

	it('makes parallel delegates siblings: each under its own delegation, the delegations under one agent', () => {
		const model = modelFromFixtures('parallel-delegate.ndjson');
		const spans = mapModel(model, quiet);
		const coordinator = agent(spans, 'release-coordinator');
		const delegations = ['changelog-writer', 'docs-checker'].map(expert => spans.find(span => span.spanId === agent(spans, expert).parentSpanId));
		expect(delegations.map(span => span?.parentSpanId)).toEqual([coordinator.spanId, coordinator.spanId]);
		expect(delegations[0]?.spanId).not.toBe(delegations[1]?.spanId);
		expect(byName(spans, 'execute_tool ')).toHaveLength(toolCount(model));
	});

	it('gives the same ids however often the log is mapped, and different ids to different things', () => {
		const first = mapModel(modelFromFixtures('demo.ndjson'), quiet);
		const second = mapModel(modelFromFixtures('demo.ndjson'), quiet);
		expect(second.map(span => [span.traceId, span.spanId, span.parentSpanId])).toEqual(first.map(span => [span.traceId, span.spanId, span.parentSpanId]));
		expect(new Set(first.map(span => span.spanId)).size).toBe(first.length);
		expect(first[0]!.traceId).toBe(traceIdOf('nibyyurl65b4kj4hbi6jlvhk'));
	});

	it('adds up to the job’s tokens over the agent spans (input with its cache reads, the model being Anthropic’s)', () => {
		const model = modelFromFixtures('demo.ndjson');
		const agents = byName(mapModel(model, quiet), 'invoke_agent ');
		const sum = (name: string) => agents.reduce((total, span) => total + Number(span.attributes[name] ?? 0), 0);
		// --summary --json: inputTokens 42,692 and cachedInputTokens 13,824.
		expect(sum('gen_ai.usage.cache_read.input_tokens')).toBe(13_824);
		expect(sum('gen_ai.usage.input_tokens')).toBe(42_692 + 13_824);
		expect(sum('gen_ai.usage.output_tokens')).toBe(907);
	});

	it('marks a run stopped by error as ERROR with the error’s name', () => {
		const spans = mapModel(modelFromFixtures('real/error.ndjson'), quiet);
		const span = agent(spans, 'error-expert');
		expect(span.status).toEqual({code: 'error', message: expect.stringContaining('AI_NoOutputGeneratedError: No output generated') as string});
		expect(span.attributes['error.type']).toBe('AI_NoOutputGeneratedError');
		expect(span.attributes['perscope.run.status']).toBe('stoppedByError');
	});

	it('marks a tool call whose result is an error as ERROR, its text only with contents', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const failed = mapModel(model, quiet).filter(span => span.status.code === 'error');
		expect(failed.map(span => [span.name, span.attributes['error.type'], span.status.message])).toEqual([
			['execute_tool readTextFile', 'tool_error', undefined],
		]);
		const withContent = mapModel(model, {content: true, contentLimit: defaultContentLimit, prices: builtinPrices, untimedAtMs}).find(
			span => span.status.code === 'error',
		);
		expect(withContent?.status.message).toBeTruthy();
	});

	it('says when a run stopped at its step limit', () => {
		const spans = mapModel(modelFromFixtures('max-steps.ndjson'), quiet);
		expect(byName(spans, 'invoke_agent ').map(span => span.attributes['perscope.run.status'])).toContain('stoppedByExceededMaxSteps');
	});

	it('exports contents only when asked, cut to the limit', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const without = mapModel(model, quiet);
		expect(without.some(span => 'gen_ai.tool.call.arguments' in span.attributes || 'gen_ai.input.messages' in span.attributes)).toBe(false);
		const withContent = mapModel(model, {content: true, contentLimit: 10, prices: builtinPrices, untimedAtMs});
		const tool = byName(withContent, 'execute_tool ').find(span => 'gen_ai.tool.call.result' in span.attributes);
		expect(tool).toBeDefined();
		const result = String(tool!.attributes['gen_ai.tool.call.result']);
		expect(result.length).toBeLessThanOrEqual(10 + '…[ more characters]'.length + 12);
		if (result.includes('more characters')) expect(tool!.attributes['perscope.content.truncated']).toBe(true);
		const coordinator = byName(withContent, 'invoke_agent ')[0]!;
		expect(JSON.parse(String(coordinator.attributes['gen_ai.input.messages']))).toEqual([
			{role: 'user', parts: [{type: 'text', content: expect.any(String) as string}]},
		]);
	});
});

describe('mapModel over every fixture', () => {
	const names = [
		...readdirSync(fixturesDir).filter(name => name.endsWith('.ndjson')),
		...readdirSync(`${fixturesDir}real`)
			.filter(name => name.endsWith('.ndjson'))
			.map(name => `real/${name}`),
	];

	it.each(names)('%s: every parent is a span of the same trace, ids are unique, no span ends before it starts', name => {
		const model = modelFromFixtures(name);
		endInput(model, {exitCode: 0, lastStderr: undefined});
		const tracker = new SpanTracker(quiet);
		const spans = [...tracker.ended(model), ...tracker.rest(model)];
		const byId = new Map(spans.map(span => [span.spanId, span]));
		expect(byId.size).toBe(spans.length);
		for (const span of spans) {
			if (span.parentSpanId !== undefined) expect(byId.get(span.parentSpanId)?.traceId, `${span.name}'s parent`).toBe(span.traceId);
			expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
		}

		expect(spans.filter(span => span.name.startsWith('execute_tool '))).toHaveLength(toolCount(model));
	});
});

describe('traces a backend can trust (#32)', () => {
	const ended = (model: Model) => {
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		return model;
	};

	it('a failed job’s root span was status UNSET, so a backend listed the trace as fine: it is ERROR with the reason --summary gives', () => {
		const spans = mapModel(ended(modelFromFixtures('released/parallel-3-one-fails.ndjson')), quiet);
		const roots = spans.filter(span => span.parentSpanId === undefined);
		expect(roots).toHaveLength(1);
		expect(roots[0]!.status.code).toBe('error');
		expect(roots[0]!.status.message).toMatch(/^job ended while waiting for delegates: \S+ failed: /);
		expect(roots[0]!.attributes['error.type']).toBe('job_failed');
	});

	it('a delegation whose delegate failed, never taken in by its coordinator, was UNSET and open: it is ERROR with the delegate’s error, ended', () => {
		const model = ended(modelFromFixtures('released/parallel-3-one-fails.ndjson'));
		const spans = mapModel(model, quiet);
		const failedRun = [...model.runs.values()].find(run => run.status === 'stoppedByError')!;
		const failedAgent = spans.find(
			span => span.attributes['perscope.run.ids'] !== undefined && (span.attributes['perscope.run.ids'] as string[]).includes(failedRun.runId),
		)!;
		const delegation = spans.find(span => span.spanId === failedAgent.parentSpanId)!;
		expect(delegation.name).toBe(`execute_tool ${failedRun.expertKey}`);
		expect(delegation.status).toEqual({code: 'error', message: `${failedRun.expertKey}: ${failedRun.error!.name}: ${failedRun.error!.message}`});
		expect(delegation.attributes['error.type']).toBe('delegate_failed');
		expect(delegation.endMs).toBeGreaterThanOrEqual(failedAgent.endMs!);
		// The delegates that completed are not errors.
		const fine = spans.filter(span => span.name.startsWith('execute_tool') && span.attributes['perscope.delegate.expert'] !== undefined && span !== delegation);
		expect(fine.length).toBeGreaterThan(0);
		for (const span of fine) expect(span.status.code).not.toBe('error');
	});

	it('a job that completed keeps an UNSET root, and one whose input has not ended is not judged yet', () => {
		expect(mapModel(ended(modelFromFixtures('real/delegate.ndjson')), quiet).find(span => span.parentSpanId === undefined)!.status.code).toBe('unset');
		expect(mapModel(modelFromFixtures('released/parallel-3-one-fails.ndjson'), quiet).find(span => span.parentSpanId === undefined)!.status.code).toBe('unset');
	});

	it('gen_ai.usage.input_tokens left out cache reads for Anthropic models: it is input plus cached input, as the conventions count it', () => {
		const model = modelFromFixtures('demo.ndjson');
		const spans = mapModel(model, quiet);
		const chats = byName(spans, 'chat claude');
		const cached = chats.find(span => (span.attributes['gen_ai.usage.cache_read.input_tokens'] as number | undefined) !== undefined)!;
		expect(cached).toBeDefined();
		const run = [...model.runs.values()].find(each => each.steps.some(step => chatSpanId(each.jobId, each.runId, step.step) === cached.spanId))!;
		const step = run.steps.find(each => chatSpanId(run.jobId, run.runId, each.step) === cached.spanId)!;
		expect(cached.attributes['gen_ai.usage.input_tokens']).toBe(step.usage!.inputTokens + step.usage!.cachedInputTokens);
		expect(cached.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(step.usage!.cachedInputTokens);
	});

	it('input tokens of an OpenAI model already hold their cache reads and are not added to', () => {
		const line = (type: string, body: Record<string, unknown>) =>
			JSON.stringify({type, id: `e-${type}`, timestamp: 1_795_400_000_000, jobId: 'j', runId: 'r', expertKey: 'x', stepNumber: 1, ...body});
		const usage = {inputTokens: 1000, outputTokens: 10, reasoningTokens: 0, totalTokens: 1010, cachedInputTokens: 400};
		const text = [
			// The model is named where Perstack names it: a run's initializeRuntime (a `model` on startRun is not read).
			line('initializeRuntime', {runtimeVersion: '0.0.76', expertName: 'x', experts: ['x'], model: 'gpt-5', maxSteps: 10, timeout: 60000, query: 'q'}),
			line('startRun', {initialCheckpoint: {id: 'cp', runId: 'r', status: 'init', stepNumber: 1, expert: {key: 'x'}}, inputMessages: []}),
			line('startGeneration', {messages: []}),
			line('completeRun', {
				checkpoint: {id: 'cp2', runId: 'r', status: 'completed', stepNumber: 1, expert: {key: 'x'}, usage},
				step: {stepNumber: 1, usage},
				text: 'ok',
				usage,
			}),
		].join('\n');
		const chat = byName(mapModel(modelFromText(text + '\n'), quiet), 'chat ')[0]!;
		expect(chat.name).toBe('chat gpt-5');
		expect(chat.attributes['gen_ai.provider.name']).toBe('openai');
		expect(chat.attributes['gen_ai.usage.input_tokens']).toBe(1000);
	});

	it('a step in which no model was called (the coordinator took its delegates’ answers in) was a chat span with 0 tokens: it is none', () => {
		const model = modelFromFixtures('real/delegate.ndjson');
		const chats = byName(mapModel(model, quiet), 'chat ').filter(span => span.parentSpanId === agent(mapModel(model, quiet), 'coordinator').spanId);
		expect(chats.map(span => span.attributes['perscope.step'])).toEqual([1, 6]);
		expect(chats.every(span => (span.attributes['gen_ai.usage.input_tokens'] as number) > 0)).toBe(true);
	});
});

describe('mapModel at scale', () => {
	it('maps a run of 150,000 steps: its chat spans are gathered in a loop, not spread into one call (#22)', () => {
		const steps = 150_000;
		const event = (type: string, step: number, body: Record<string, unknown>) =>
			JSON.stringify({type, id: `e-${type}-${step}`, timestamp: 1_795_400_000_000 + step, jobId: 'j', runId: 'r', expertKey: 'x', stepNumber: step, ...body});
		const lines = [event('startRun', 1, {initialCheckpoint: {id: 'cp', runId: 'r', status: 'init', stepNumber: 1, expert: {key: 'x'}}, inputMessages: []})];
		for (let step = 1; step <= steps; step++) lines.push(event('startGeneration', step, {messages: []}));
		const spans = mapModel(modelFromText(lines.join('\n') + '\n'), quiet);
		// The log names no model: the spans are named by the operation alone.
		expect(spans.filter(span => span.name === 'chat')).toHaveLength(steps);
	});
});

describe('SpanTracker', () => {
	it('sends a span once, when it ends, and the open ones at the end marked unfinished', () => {
		const lines = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8')
			.split('\n')
			.filter(line => line !== '');
		const half = lines.slice(0, Math.floor(lines.length / 2)).join('\n') + '\n';
		const model = modelFromText(half);
		const tracker = new SpanTracker(quiet);
		const ended = tracker.ended(model);
		expect(ended.every(span => span.endMs !== undefined)).toBe(true);
		expect(tracker.ended(model)).toEqual([]);
		const rest = tracker.rest(model);
		expect(rest.length).toBeGreaterThan(0);
		expect(rest.every(span => span.attributes['perscope.unfinished'] === true)).toBe(true);
		expect(rest.find(span => span.name === 'invoke_agent coordinator')).toBeDefined();
		expect(new Set([...ended, ...rest].map(span => span.spanId)).size).toBe(ended.length + rest.length);
	});
});

describe('a log whose lines carry no time', () => {
	it('regression: its spans sat at 1970 (time 0); the job sits where the export started, its turn as long as its result says', () => {
		const spans = mapModel(modelFromFixtures('claude-code/agentcmd-simple-cc2.0.28.ndjson'), quiet);
		const claude = agent(spans, 'claude');
		// Its result (line 3) says duration_ms 1889; no line says when.
		expect([claude.startMs, claude.endMs]).toEqual([untimedAtMs, untimedAtMs + 1889]);
		expect(claude.attributes['perscope.time.unknown']).toBe(true);
		for (const span of spans) expect(span.startMs).toBeGreaterThanOrEqual(untimedAtMs);
	});

	it('keeps a Codex file’s tool calls (they were left out for want of a time), each where the job sits, marked', () => {
		const model = modelFromFixtures('codex/edit-and-test.jsonl');
		const spans = mapModel(model, quiet);
		const tools = byName(spans, 'execute_tool');
		expect(tools).toHaveLength(toolCount(model));
		expect(tools.length).toBeGreaterThan(0);
		for (const span of spans) {
			expect([span.startMs, span.endMs]).toEqual([untimedAtMs, untimedAtMs]);
			expect(span.attributes['perscope.time.unknown']).toBe(true);
		}
	});

	it('keeps a Codex file’s retries and its failure as the agent span’s events, at its start', () => {
		const spans = mapModel(modelFromFixtures('codex/retry-exhausted.jsonl'), quiet);
		const codex = agent(spans, 'codex');
		expect(codex.events.map(event => event.name)).toContain('perscope.retry');
		expect(codex.events.map(event => event.name)).toContain('exception');
		for (const event of codex.events) expect(event.timeMs).toBe(untimedAtMs);
	});

	it('leaves the spans of a log with times as they were: none marked', () => {
		const spans = mapModel(modelFromFixtures('real/delegate.ndjson', 'claude-code/parallel-agents.ndjson'), quiet);
		expect(spans.filter(span => span.attributes['perscope.time.unknown'] !== undefined)).toEqual([]);
	});
});

describe('names a backend can group by (#36)', () => {
	// Regression: a sub-agent's chat spans carried its job's model, so Claude Code's Explore, which ran on Haiku, was
	// reported as Opus calls; a log naming no model gave spans named `chat unknown`, and a result whose call is not in
	// the log one named `execute_tool ` with an empty tool name.
	it('gives each agent’s spans its own model: Claude Code’s Explore ran on Haiku', () => {
		const spans = mapModel(modelFromFixtures('claude-code/parallel-agents.ndjson'), quiet);
		const explore = agent(spans, 'Explore');
		const chats = spans.filter(span => span.parentSpanId === explore.spanId && span.attributes['gen_ai.operation.name'] === 'chat');
		expect(chats.map(span => span.name)).toEqual(['chat claude-haiku-4-5-20251001']);
		expect(chats[0]!.attributes['gen_ai.request.model']).toBe('claude-haiku-4-5-20251001');
		expect(explore.attributes['gen_ai.request.model']).toBe('claude-haiku-4-5-20251001');
		expect(agent(spans, 'claude').attributes['gen_ai.request.model']).toBe('claude-opus-4-8[1m]');
	});

	it('names a chat span by its operation alone where the log names no model, and a tool span whose tool is unknown likewise', () => {
		const codex = mapModel(modelFromFixtures('codex/edit-and-test.jsonl'), quiet);
		const chats = codex.filter(span => span.attributes['gen_ai.operation.name'] === 'chat');
		expect(chats.length).toBeGreaterThan(0);
		expect(chats.every(span => span.name === 'chat' && span.attributes['gen_ai.request.model'] === undefined)).toBe(true);
		const orphans = mapModel(modelFromFixtures('claude-code/frame-catalog-opus5.VERBATIM-LINES.ndjson'), quiet).filter(
			span => span.attributes['gen_ai.operation.name'] === 'execute_tool',
		);
		expect(orphans.map(span => span.name)).toEqual(['execute_tool', 'execute_tool']);
		expect(orphans.every(span => !('gen_ai.tool.name' in span.attributes))).toBe(true);
	});
});
