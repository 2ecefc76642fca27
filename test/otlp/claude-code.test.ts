import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {fixturesDir} from '../helpers/load.js';
import {decodeJsonLines} from './receiver.js';
import {exportInProcess} from './run-cli.js';
import {scratchDirectories} from '../helpers/scratch.js';

const scratch = scratchDirectories('perscope-otlp-claude-');

/*
 * A Claude Code stream exported as spans: the sub-agents' tree is the span tree (each sub-agent's agent span under
 * the execute_tool span of the Agent call that started it), and a failed tool call is an error span.
 */

async function exported(fixture: string): Promise<ReturnType<typeof decodeJsonLines>> {
	const file = join(scratch(), 'spans.jsonl');
	const result = await exportInProcess(['--summary', '--otlp-file', file, join(fixturesDir, fixture)]);
	expect(result.code, result.stderr).toBe(0);
	return decodeJsonLines(readFileSync(file, 'utf8'));
}

describe('--otlp of a Claude Code stream', () => {
	it('nests each sub-agent’s agent span under its Agent call’s span, to depth 2', async () => {
		const spans = await exported('claude-code/nested-subagents.ndjson');
		const byId = new Map(spans.map(span => [span.spanId, span]));
		const agent = (runId: string) =>
			spans.find(span => span.name.startsWith('invoke_agent ') && (span.attributes['perscope.run.ids'] as string[]).includes(runId))!;
		const root = agent('107f0382-f425-4602-9564-bb6c7e035c02');
		const child = agent('toolu_mockhiyk900002');
		const grandchild = agent('toolu_mockhiyk900004');
		expect(root.parentSpanId).toBe('');
		expect(byId.get(child.parentSpanId)).toMatchObject({
			name: 'execute_tool general-purpose',
			parentSpanId: root.spanId,
			attributes: {'gen_ai.tool.call.id': 'toolu_mockhiyk900002'},
		});
		expect(byId.get(grandchild.parentSpanId)).toMatchObject({
			name: 'execute_tool general-purpose',
			parentSpanId: child.spanId,
			attributes: {'gen_ai.tool.call.id': 'toolu_mockhiyk900004'},
		});
		expect(root.attributes).toMatchObject({
			'perscope.dialect': 'claude-code',
			'gen_ai.provider.name': 'anthropic',
			'gen_ai.conversation.id': 'b4f7aeaf-5661-4b79-8b76-9c13abb22a0d',
			'gen_ai.agent.name': 'claude',
		});
		// Its responses, one chat span each: the root's two, the depth-1 sub-agent's one.
		expect(spans.filter(span => span.name.startsWith('chat ')).map(span => byId.get(span.parentSpanId)!.spanId)).toEqual([
			root.spanId,
			root.spanId,
			child.spanId,
		]);
	});

	it('makes a failed tool call an error span', async () => {
		const spans = await exported('claude-code/failing-tools.ndjson');
		const bash = spans.find(span => span.attributes['gen_ai.tool.call.id'] === 'toolu_mockre8em60002')!;
		expect(bash).toMatchObject({name: 'execute_tool Bash', status: {code: 2}, attributes: {'error.type': 'tool_error'}});
	});
});

describe('--otlp of a stream whose lines carry no time (Claude Code 2.0, Codex)', () => {
	it('regression: its spans were written at 1970 (time 0); they sit where the export started, marked, and the exit line says so', async () => {
		const file = join(scratch(), 'spans.jsonl');
		const before = Date.now();
		const result = await exportInProcess(['--summary', '--otlp-file', file, join(fixturesDir, 'claude-code/agentcmd-simple-cc2.0.28.ndjson')]);
		const after = Date.now();
		expect(result.code, result.stderr).toBe(0);
		const spans = decodeJsonLines(readFileSync(file, 'utf8'));
		const agent = spans.find(span => span.name === 'invoke_agent claude')!;
		expect(agent.startMs).toBeGreaterThanOrEqual(before);
		expect(agent.startMs).toBeLessThanOrEqual(after);
		// Its result (line 3) says duration_ms 1889.
		expect(agent.endMs - agent.startMs).toBe(1889);
		for (const span of spans) expect(span.attributes['perscope.time.unknown']).toBe(true);
		expect(result.stderr).toContain(
			`${spans.length} spans had no time in the log (its lines carry none): they sit where the export started (perscope.time.unknown)`,
		);
	});
});
