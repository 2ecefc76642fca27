import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {fixturesDir} from '../helpers/load.js';
import {decodeJsonLines} from './receiver.js';
import {runCli} from './run-cli.js';

/*
 * The OpenTelemetry export fed hostile logs (issue #34), through the built CLI: what a backend or a reader of
 * `--otlp-file` would get.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-otlp-hostile-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

const toolsLog = readFileSync(join(fixturesDir, 'real', 'tools.ndjson'), 'utf8').trimEnd().split('\n');

/** tools.ndjson with its first tool call's arguments nested `depth` arrays deep (JSON.parse builds that, JSON.stringify cannot write it). */
function withDeepArguments(depth: number): string {
	const index = toolsLog.findIndex(line => line.includes('"type":"callTools"'));
	const event = JSON.parse(toolsLog[index]!) as {toolCalls: Array<{args: unknown}>};
	event.toolCalls[0]!.args = '@DEEP@';
	const lines = [...toolsLog];
	lines[index] = JSON.stringify(event).replace('"@DEEP@"', `{"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`);
	return `${lines.join('\n')}\n`;
}

describe('--otlp-content', () => {
	it('exported tool arguments too deep to serialise as "[object Object]", where --json writes a placeholder', async () => {
		const log = join(dir, 'deep-args.ndjson');
		writeFileSync(log, withDeepArguments(100_000));
		const file = join(dir, 'deep-args.jsonl');
		const result = await runCli(['--json', '--otlp-content', '--otlp-file', file, log]);
		expect(result.code, result.stderr).toBe(0);
		const first = JSON.parse(result.stdout.split('\n')[1]!) as {type: string; args: unknown};
		expect(first).toMatchObject({type: 'todo', args: '[too deep to serialise]'});
		const todo = decodeJsonLines(readFileSync(file, 'utf8')).find(span => span.name === 'execute_tool todo');
		expect(todo?.attributes['gen_ai.tool.call.arguments']).toBe('[too deep to serialise]');
		expect(readFileSync(file, 'utf8')).not.toContain('[object Object]');
	});
});
