import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {fixturesDir} from '../helpers/load.js';
import {decodeJsonLines} from './receiver.js';
import {exportInProcess} from './run-cli.js';
import {scratchDirectories} from '../helpers/scratch.js';

const scratch = scratchDirectories('perscope-otlp-opencode-');

/*
 * An opencode stream exported as spans: the session's run is the agent span, the task call's sub-agent an agent
 * span under the execute_tool span of that call, each step a chat span with its tokens, and a failed call (or a
 * command that exited non-zero) an error span.
 */

async function exported(fixture: string): Promise<ReturnType<typeof decodeJsonLines>> {
	const file = join(scratch(), 'spans.jsonl');
	const result = await exportInProcess(['--summary', '--otlp-file', file, join(fixturesDir, fixture)]);
	expect(result.code, result.stderr).toBe(0);
	return decodeJsonLines(readFileSync(file, 'utf8'));
}

describe('--otlp of an opencode stream', () => {
	it('nests the sub-agent’s agent span under its task call’s span, and makes each step a chat span', async () => {
		const spans = await exported('opencode/sub-agent.jsonl');
		const byId = new Map(spans.map(span => [span.spanId, span]));
		const agent = (runId: string) =>
			spans.find(span => span.name.startsWith('invoke_agent ') && (span.attributes['perscope.run.ids'] as string[]).includes(runId))!;
		const root = agent('ses_de24e6884ffeuwOcgUObIzFw7Y');
		const child = agent('ses_de24e3c61ffeaoqa1jWRn6pjn7');
		expect(root.parentSpanId).toBe('');
		expect(root.attributes).toMatchObject({
			'perscope.dialect': 'opencode',
			'gen_ai.conversation.id': 'ses_de24e6884ffeuwOcgUObIzFw7Y',
			'gen_ai.agent.name': 'opencode',
		});
		expect(byId.get(child.parentSpanId)).toMatchObject({
			name: 'execute_tool general',
			parentSpanId: root.spanId,
			attributes: {'gen_ai.tool.call.id': 'toolu_mock0004'},
		});
		const chats = spans.filter(span => span.name.startsWith('chat'));
		expect(chats.map(span => span.parentSpanId)).toEqual([root.spanId, root.spanId]);
		expect(chats[0]!.attributes).toMatchObject({'gen_ai.usage.input_tokens': 800, 'gen_ai.usage.output_tokens': 20});
	});

	it('makes a failed call and a command that exited non-zero error spans', async () => {
		const spans = await exported('opencode/failing-tools.jsonl');
		const tools = spans.filter(span => span.name.startsWith('execute_tool '));
		expect(tools.map(span => [span.name, span.status.code])).toEqual([
			['execute_tool read', 2],
			['execute_tool bash', 2],
		]);
	});
});
