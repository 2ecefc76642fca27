import {execFileSync, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/cli-process.js';
import {fixturesDir} from '../helpers/load.js';
import {decodeJsonLines} from './receiver.js';
import {runCli} from './run-cli.js';

/*
 * The OpenTelemetry export fed hostile logs (issue #34), through the built CLI: what a backend or a reader of
 * `--otlp-file` would get.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-otlp-hostile-'));
const small = join(dir, 'small');
mkdirSync(small);
// A file system of 512 KiB (CI runs as root on a machine that allows it), for a disk that fills.
const smallMounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', small]).status === 0;
afterAll(() => {
	if (smallMounted) spawnSync('umount', ['-l', small]);
	rmSync(dir, {recursive: true, force: true});
});

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

describe('--otlp-file on a disk that fills', () => {
	it('--otlp-file /dev/full (every write fails with ENOSPC) exited 0: it exits 1 and says why', async () => {
		const result = await runCli(['--summary', '--otlp-file', '/dev/full', join(fixturesDir, 'real', 'delegate.ndjson')]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/perscope: OTLP: 0 spans written to \/dev\/full, then writing failed \(ENOSPC: no space left on device, write: /);
	});

	it('a file cut short on a full disk stayed behind with a partial last line and exit 0: it ends after its last whole line, says so, and exits 1', async ({skip}) => {
		if (!smallMounted) skip('mounting a 512 KiB tmpfs failed (not root?): no small file system to fill');
		// 678 spans: a first line of 512 (~470 KB) fits, the second (~150 KB) does not.
		const log = join(dir, 'generated.ndjson');
		execFileSync(process.execPath, [join(repoRoot, 'dist/tools/generate-log.js'), '--jobs', '6', '--deltas', '0', '--message-bytes', '50', '--out', log], {stdio: 'ignore'});
		const file = join(small, 'spans.jsonl');
		const result = await runCli(['--summary', '--otlp-file', file, log]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`perscope: OTLP: 512 spans written to ${file}, then writing failed (ENOSPC: no space left on device, write: it ends after its 512 whole spans)`);
		const text = readFileSync(file, 'utf8');
		expect(text.endsWith('\n')).toBe(true);
		// Every line is a whole request.
		expect(decodeJsonLines(text)).toHaveLength(512);
	});
});
