import {appendFileSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {describe, expect, it} from 'vitest';
import type {Summary} from '../../source/output/summary.js';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {startCli, waitUntil} from '../helpers/cli-process.js';
import {scratchDirectories} from '../helpers/scratch.js';
import {fixturePath} from '../helpers/load.js';

/*
 * claude-code-action keeps the messages of a run's Claude Code stream as one pretty-printed JSON array, its
 * execution file (`$RUNNER_TEMP/claude-execution-<id>/claude-execution-output.json`: JSON.stringify(messages,
 * null, 2)). fixtures/claude-code/action-execution-file.json is the recorded nested-subagents stream written so.
 * It must read as the stream reads, however it comes.
 */

const scratch = scratchDirectories('perscope-json-array-');
const stream = fixturePath('claude-code/nested-subagents.ndjson');
const array = fixturePath('claude-code/action-execution-file.json');

async function stdoutOf(args: string[], stdin?: Buffer): Promise<string> {
	const result = await perscopeInProcess(args, stdin === undefined ? undefined : [stdin]);
	expect(result.code, result.stderr).toBe(0);
	expect(result.stderr).toBe('');
	return result.stdout;
}

describe('a JSON array of events (claude-code-action’s execution file)', () => {
	it('reads as the stream it was made of, in every headless mode', async () => {
		for (const mode of [['--summary', '--json'], ['--summary'], ['--print'], ['--json']]) {
			expect(await stdoutOf([...mode, array]), mode.join(' ')).toBe(await stdoutOf([...mode, stream]));
		}
	});

	it('reads the same from a pipe and compressed', async () => {
		const expected = await stdoutOf(['--summary', '--json', stream]);
		expect(await stdoutOf(['--summary', '--json'], readFileSync(array))).toBe(expected);
		const compressed = join(scratch(), 'claude-execution-output.json.gz');
		writeFileSync(compressed, gzipSync(readFileSync(array)));
		expect(await stdoutOf(['--summary', '--json', compressed])).toBe(expected);
	});

	it('followed (-f) as it is written, in two parts, it reads as the stream does', async () => {
		const text = readFileSync(array);
		const growing = join(scratch(), 'claude-execution-output.json');
		// The first part ends inside an element: the sub-agent's first lines, not the answer.
		const cut = text.indexOf('"type": "result"');
		writeFileSync(growing, text.subarray(0, cut));
		const run = startCli(['--print', '-f', growing]);
		try {
			await waitUntil(() => run.stdout().includes('💬 query'), 'the first part', run.stderr);
			expect(run.stdout()).not.toContain('[claude] ✓ run completed');
			appendFileSync(growing, text.subarray(cut));
			await waitUntil(
				() => run.stdout().includes('[claude] ✓ run completed · 2 steps'),
				'the rest',
				() => run.stdout() + run.stderr(),
			);
		} finally {
			run.child.kill('SIGINT');
			await run.exit;
		}

		expect(run.stderr()).toBe('');
		const whole = await perscopeInProcess(['--print', stream]);
		expect(run.stdout()).toBe(whole.stdout);
	});

	it('a stream whose first line only starts with a bracket is lines: that line is one bad line, and every event is read', async () => {
		const logged = Buffer.concat([Buffer.from('[dotenv@17.2.0] injecting env (2) from .env\n'), readFileSync(stream)]);
		const result = await perscopeInProcess(['--summary'], [logged]);
		expect(result.stdout).toContain('19 events, 1 bad line');
		expect(result.stderr).toMatch(/:1: not JSON/);
	});

	it('a log whose first line is a lone brace (cut short) reads that line as one bad line and every event after it', async () => {
		const cut = Buffer.concat([Buffer.from('{\n'), readFileSync(stream)]);
		const result = await perscopeInProcess(['--summary'], [cut]);
		expect(result.stdout).toContain('19 events, 1 bad line');
	});

	it('an array cut short keeps the events before the cut, and reports the element it cut as a bad line', async () => {
		const text = readFileSync(array, 'utf8');
		const cut = join(scratch(), 'cut.json');
		// Part way into the last element, the result.
		writeFileSync(cut, text.slice(0, text.lastIndexOf('"type": "result"') + 10));
		const result = await perscopeInProcess(['--summary', cut]);
		expect(result.stdout).toContain('18 events, 1 bad line');
		expect(result.stderr).toMatch(/cut\.json:19: not JSON/);
	});
});

/*
 * Gemini CLI's `--output-format json` prints one pretty-printed object when the run ends, with no `type`:
 * fixtures/gemini/json-output.json is the real 0.61.0 output of fix-and-delegate.jsonl's first prompt, recorded
 * against the same scripted model (fixtures/gemini/scripts/record-all.sh).
 */
describe('Gemini CLI’s --output-format json', () => {
	const output = fixturePath('gemini/json-output.json');
	// The figures of its `stats.models["gemini-2.5-pro"].tokens`: prompt 8100 (cached 2700 of it), candidates 360,
	// thoughts 90, total 8550, as the same run's stream-json `result` counts them.
	const usage = {inputTokens: 8100, outputTokens: 360, reasoningTokens: 90, totalTokens: 8550, cachedInputTokens: 2700};

	it('is the session’s run: its model, usage, answer, and nothing reported as bad or unknown', async () => {
		const summary = JSON.parse(await stdoutOf(['--summary', '--json', output])) as Summary;
		expect(summary.diagnosticCount).toBe(0);
		expect(summary.unknownEvents).toEqual({});
		expect(summary.jobs).toHaveLength(1);
		const [job] = summary.jobs;
		expect(job!.jobId).toBe('eb430f71-ab25-4c20-bc34-12fc6f7fbf4a');
		expect(job!.runs.map(run => [run.runId, run.expertKey, run.status, run.model, run.steps])).toEqual([
			['eb430f71-ab25-4c20-bc34-12fc6f7fbf4a', 'gemini', 'completed', 'gemini-2.5-pro', 1],
		]);
		expect(job!.usage).toEqual(usage);
		const print = await stdoutOf(['--print', output]);
		expect(print).toContain(
			'[gemini] ✅ complete Fixed greet.txt: it now says Hello, world. The helper found the greeting only in greet.txt; there is no CHANGELOG.md.',
		);
		// The same bytes from a pipe, and read with the schemas (the reference).
		expect(await stdoutOf(['--summary', '--json'], readFileSync(output))).toBe(JSON.stringify(summary) + '\n');
	});

	it('its error (as the CLI’s JsonError type declares it) ends the run by that error', async () => {
		const failed = Buffer.from(
			JSON.stringify({session_id: 's-1', error: {type: 'FatalTurnLimitedError', message: 'Reached max session turns', code: 53}}, null, 2),
		);
		const summary = JSON.parse(await stdoutOf(['--summary', '--json'], failed)) as Summary;
		expect(summary.jobs.map(job => [job.jobId, job.status, job.runs[0]!.error])).toEqual([
			['s-1', 'stoppedByError', 'FatalTurnLimitedError: Reached max session turns'],
		]);
	});

	it('outputs that name no session (before 0.21) are runs of their own', async () => {
		const older = (answer: string) =>
			JSON.stringify({response: answer, stats: {models: {'gemini-2.5-pro': {tokens: {prompt: 10, candidates: 2, total: 12}}}}}, null, 2);
		const summary = JSON.parse(await stdoutOf(['--summary', '--json'], Buffer.from(`${older('one')}\n${older('two')}\n`))) as Summary;
		expect(summary.jobs.map(job => [job.jobId, job.runs.length, job.usage.inputTokens])).toEqual([
			['gemini:output-1', 1, 10],
			['gemini:output-2', 1, 10],
		]);
	});

	it('its object in another agent CLI’s stream is the bad line any line with no type is', async () => {
		const stream = Buffer.concat([readFileSync(fixturePath('codex/sub-agent.jsonl')), Buffer.from('{"response": "hi", "session_id": "s"}\n')]);
		const result = await perscopeInProcess(['--summary', '--json'], [stream]);
		const summary = JSON.parse(result.stdout) as Summary;
		expect(summary.unknownEvents).toEqual({});
		expect(summary.diagnostics.map(diagnostic => diagnostic.reason)).toEqual(['not an event: no "type" or "kind" field']);
	});

	it('a line with no type that is not Gemini CLI’s is still a bad line', async () => {
		const result = await perscopeInProcess(['--summary'], [Buffer.from('{"response": "hi"}\n{"session_id": "s"}\n')]);
		expect(result.stdout).toBe('0 events, 2 bad lines\n');
	});
});
