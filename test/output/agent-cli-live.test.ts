import {appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {builtPerscopeInProcess} from '../helpers/cli-in-process.js';
import {repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';

/*
 * The agent CLIs as people run them: `perscope -- codex exec --json …` and `-- gemini -p … --output-format
 * stream-json`, and a log followed while the CLI writes it. The CLIs are not installed here: a stand-in
 * (fixtures/scripts/replay-cli.mjs) prints a real recording at the pace it was recorded, with its stderr. The
 * built CLI runs in this process where what it writes is checked (its command is a process all the same), as a
 * process where it is stopped by a signal.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-agent-cli-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

const replay = join(repoRoot, 'fixtures/scripts/replay-cli.mjs');

async function perscope(args: string[]): Promise<{stdout: string; stderr: string; status: number | null}> {
	const {stdout, stderr, code} = await builtPerscopeInProcess(args);
	return {stdout, stderr, status: code};
}

describe('-- COMMAND of an agent CLI', () => {
	it.each([
		['fixtures/codex/edit-and-test.jsonl', '--summary'],
		['fixtures/codex/retry-exhausted.jsonl', '--print'],
		['fixtures/gemini/fix-and-delegate.jsonl', '--json'],
		['fixtures/gemini/fix-and-delegate.jsonl', '--summary'],
	])('%s as a command’s output gives %s what the recorded file gives', async (recording, mode) => {
		const args = mode === '--summary' ? ['--summary', '--json'] : [mode];
		const fromFile = await perscope([...args, recording]);
		const live = await perscope([...args, '--', process.execPath, replay, recording, '5', '50']);
		expect(live.status).toBe(0);
		expect(live.stdout).toBe(fromFile.stdout);
		// The command's stderr is passed on, marked as its own.
		expect(live.stderr).toContain('[stderr] ');
	});

	it('ends with a failed CLI’s exit code, and says which run failed and why', async () => {
		const live = await perscope(['--summary', '--', process.execPath, replay, 'fixtures/gemini/max-turns.jsonl', '5', '50', '53']);
		expect(live.stdout).toContain('✗ failed: gemini failed: FatalTurnLimitedError: Reached max session turns for this session.');
		expect(live.status).toBe(53);
	});
});

describe('--otlp of an agent CLI', () => {
	it('gives a live Codex run, whose lines carry no time, spans at the times its lines arrived', async () => {
		const spans = join(dir, 'codex-spans.jsonl');
		const startedAt = Date.now();
		const live = await perscope(['--summary', '--otlp-file', spans, '--', process.execPath, replay, 'fixtures/codex/edit-and-test.jsonl', '5']);
		expect(live.status).toBe(0);
		type Span = {name: string; startTimeUnixNano: string; status?: {code?: number}};
		const written: Span[] = readFileSync(spans, 'utf8')
			.split('\n')
			.filter(Boolean)
			.flatMap(line =>
				(JSON.parse(line) as {resourceSpans: Array<{scopeSpans: Array<{spans: Span[]}>}>}).resourceSpans.flatMap(resource =>
					resource.scopeSpans.flatMap(scope => scope.spans),
				),
			);
		const tools = written.filter(span => span.name.startsWith('execute_tool'));
		expect(tools.map(span => span.name)).toEqual([
			'execute_tool command_execution',
			'execute_tool file_change',
			'execute_tool command_execution',
			'execute_tool file_change',
			'execute_tool web_search',
		]);
		for (const span of written) expect(Number(BigInt(span.startTimeUnixNano) / 1_000_000n)).toBeGreaterThanOrEqual(startedAt);
		// The command that exited 1 is an error.
		expect(tools[2]!.status?.code).toBe(2);
	});
});

describe('--follow of a log an agent CLI is writing', () => {
	it('shows a Gemini run’s tools as they are written and its end once it comes', async () => {
		const lines = readFileSync(join(repoRoot, 'fixtures/gemini/fix-and-delegate.jsonl'), 'utf8').split('\n').filter(Boolean);
		const log = join(dir, 'gemini.jsonl');
		writeFileSync(log, `${lines.slice(0, 9).join('\n')}\n`);
		const run = startCli(['--print', '--follow', log]);
		await waitUntil(
			() => run.stdout().includes('read_file notes.txt ✗ File not found'),
			'the first tools',
			() => run.stderr(),
		);
		expect(run.stdout()).not.toContain('✅ complete');
		appendFileSync(log, `${lines.slice(9, 27).join('\n')}\n`);
		await waitUntil(
			() => run.stdout().includes('✓ run completed · 5 steps'),
			'the run to end',
			() => run.stderr(),
		);
		run.child.kill('SIGINT');
		expect(await run.exit).toEqual({code: 0, signal: null});
		expect(run.stdout()).toContain('[gemini] ✅ complete Fixed greet.txt: it now says Hello, world.');
	});

	it('goes on with a Codex run whose log is written a line at a time', async () => {
		const lines = readFileSync(join(repoRoot, 'fixtures/codex/mcp-and-retry.jsonl'), 'utf8').split('\n').filter(Boolean);
		const log = join(dir, 'codex.jsonl');
		writeFileSync(log, '');
		const run = startCli(['--print', '--follow', log]);
		for (const line of lines) appendFileSync(log, `${line}\n`);
		await waitUntil(
			() => run.stdout().includes('✓ run completed · 1 step'),
			'the run to end',
			() => run.stderr(),
		);
		run.child.kill('SIGINT');
		expect(await run.exit).toEqual({code: 0, signal: null});
		expect(run.stdout()).toContain('[codex] 🔧 notes/fail {} ✗ notes are offline');
	});
});
