import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath, repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';

/*
 * How the headless modes end when the world around them goes away: the reader of their output leaves
 * (`| head`), stdout is closed, or a signal arrives in the middle of a read. Each must end promptly,
 * quietly, with the code a shell expects.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-exits-'));
const bigLog = join(dir, 'big.ndjson');
const smallLog = join(dir, 'small.ndjson');

beforeAll(() => {
	// ~30 MB of realistic events: read for ~1 s, so that output is still being written when the reader leaves.
	// The tests that read a file to its end whatever happens take ~3 MB: with stdout closed the process is given
	// /dev/null (Node opens it in place of a closed descriptor), and a follow reaches the end either way.
	for (const [path, bytes] of [
		[bigLog, '30000000'],
		[smallLog, '3000000'],
	] as const) {
		const result = spawnSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--seed', '3', '--target-bytes', bytes, '--out', path], {
			encoding: 'utf8',
		});
		expect(result.status, result.stderr).toBe(0);
	}
});

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

const startRun = JSON.stringify({
	type: 'startRun',
	id: 'e1',
	expertKey: 'x',
	timestamp: 1,
	jobId: 'j',
	runId: 'r',
	stepNumber: 1,
	initialCheckpoint: {status: 'init', stepNumber: 1},
	inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: 'a query'}]}],
});

describe('when the reader goes away', () => {
	it.each([
		['--print', 'a file'],
		['--json', 'a file'],
		['--print', 'stdin'],
	])('%s of %s into `| head -1` exits 0 at once, with nothing on stderr', async (mode, from) => {
		const child = spawn(process.execPath, [cliPath, mode, ...(from === 'a file' ? [bigLog] : [])], {cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe']});
		let stderr = '';
		child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
		const exit = new Promise<{code: number | null; signal: NodeJS.Signals | null}>(resolve => child.once('close', (code, signal) => resolve({code, signal})));
		if (from === 'stdin') {
			child.stdin.on('error', () => undefined);
			spawn('cat', [bigLog], {stdio: ['ignore', child.stdin, 'ignore']});
		} else {
			child.stdin.end();
		}

		// Read the first line, then close the pipe as `head -1` does.
		await new Promise<void>(resolve => {
			let seen = '';
			child.stdout.on('data', (chunk: Buffer) => {
				seen += chunk.toString('utf8');
				if (seen.includes('\n')) {
					child.stdout.destroy();
					resolve();
				}
			});
		});
		const closedAt = Date.now();
		expect(await exit).toEqual({code: 0, signal: null});
		expect(Date.now() - closedAt).toBeLessThan(3000);
		expect(stderr).toBe('');
	});

	it.each(['--print', '--json', '--summary', '--summary --json'])('%s with stdout closed (>&-) exits 0 with nothing on stderr', mode => {
		const result = spawnSync('/bin/sh', ['-c', `"$0" "$1" ${mode} "$2" >&-`, process.execPath, cliPath, smallLog], {cwd: repoRoot, encoding: 'utf8'});
		expect(result.stderr).toBe('');
		expect(result.status).toBe(0);
	});
});

describe('signals during a read that has not ended', () => {
	/** A perscope reading a pipe that stays open, after it has shown the first activity. */
	async function reading(args: string[]) {
		const child = spawn(process.execPath, [cliPath, ...args], {cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
		child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
		const exit = new Promise<{code: number | null; signal: NodeJS.Signals | null}>(resolve => child.once('close', (code, signal) => resolve({code, signal})));
		child.stdin.on('error', () => undefined);
		child.stdin.write(`${startRun}\n`);
		await waitUntil(
			() => stdout.includes('query') || args.includes('--summary'),
			'the first activity',
			() => stdout + stderr,
		);
		// A summary shows nothing before its input ends: give it a moment to be mid-read.
		if (args.includes('--summary')) await new Promise(resolve => setTimeout(resolve, 300));
		return {child, exit, output: () => ({stdout, stderr})};
	}

	// A shell reports death by signal N as 128 + N: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
	it.each([
		['SIGTERM', '--print'],
		['SIGTERM', '--summary'],
		['SIGINT', '--print'],
		['SIGINT', '--summary'],
		['SIGHUP', '--json'],
	] as const)('%s during %s of stdin ends the process at once, by that signal', async (signal, mode) => {
		const {child, exit, output} = await reading([mode]);
		const sentAt = Date.now();
		child.kill(signal);
		const ended = await exit;
		expect(Date.now() - sentAt).toBeLessThan(2000);
		expect(ended.signal === signal || ended.code === 128 + {SIGHUP: 1, SIGINT: 2, SIGTERM: 15}[signal]).toBe(true);
		expect(output().stderr).toBe('');
	});

	it('Ctrl-C while following a file stops following, flushes the transcript and exits 0', async () => {
		const run = startCli(['--print', '--follow', smallLog]);
		await waitUntil(
			() => run.stdout().includes('query'),
			'the transcript to start',
			() => run.stderr(),
		);
		run.child.kill('SIGINT');
		expect(await run.exit).toEqual({code: 0, signal: null});
		expect(run.stdout().endsWith('\n')).toBe(true);
	});

	it('SIGTERM while following a file ends it promptly and quietly', async () => {
		const run = startCli(['--print', '--follow', smallLog]);
		await waitUntil(
			() => run.stdout().includes('query'),
			'the transcript to start',
			() => run.stderr(),
		);
		const sentAt = Date.now();
		run.child.kill('SIGTERM');
		const ended = await run.exit;
		expect(Date.now() - sentAt).toBeLessThan(2000);
		expect([0, 143]).toContain(ended.code ?? (ended.signal === 'SIGTERM' ? 143 : -1));
	});
});
