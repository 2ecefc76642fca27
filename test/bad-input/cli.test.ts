import {spawn, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import type {Summary} from '../../source/output/summary.js';
import {fixturePath} from '../helpers/load.js';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {after, badLineNumber, before, corpus, framed} from './corpus.js';
import {builtinPrices} from '../../source/query/prices.js';

/*
 * The corpus through the real, built CLI, fed on stdin as `… | perscope` is: the process must end with
 * 0 when its input ends, report each bad line with its number, and summarise the valid run around it.
 */

const maxRssScript = fileURLToPath(new URL('max-rss.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'perscope-bad-input-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

type Result = {status: number | null; stdout: string; stderr: string};

function perscope(args: string[], input?: Buffer | string): Result {
	const result = spawnSync(process.execPath, [cliPath, ...args], {
		cwd: repoRoot,
		input: input ?? '',
		encoding: 'utf8',
		// `ignore` is /dev/null: stdin that is closed at once.
		stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
		maxBuffer: 64 * 1024 * 1024,
	});
	return {status: result.status, stdout: result.stdout, stderr: result.stderr};
}

function summaryOf(result: Result): Summary {
	expect(result.status, result.stderr).toBe(0);
	return JSON.parse(result.stdout);
}

const emptySummary = {jobs: [], costUsd: 0, prices: {source: builtinPrices.source, date: builtinPrices.date, file: null}, events: 0, unknownEvents: {}, diagnostics: []};

describe.each(corpus)('perscope --summary --json on stdin: $name', testCase => {
	const expectedLines = testCase.diagnostic.flatMap((isDiagnostic, n) => (isDiagnostic ? [badLineNumber(n)] : []));

	it('exits 0, counts each bad line with its number, and summarises the run around them', () => {
		const summary = summaryOf(perscope(['--summary', '--json'], framed(testCase.lines)));
		expect(summary.diagnostics.map(diagnostic => [diagnostic.line, diagnostic.source])).toEqual(expectedLines.map(line => [line, 'stdin']));
		const run = summary.jobs.find(job => job.jobId === 'job-1')?.runs.find(candidate => candidate.runId === 'run-1');
		expect(run?.status).toBe('completed');
		expect(run?.steps).toBe(1);
		expect(run?.usage.inputTokens).toBe(10);
		expect(run?.activities).toBeGreaterThanOrEqual(3);
	});

	it('--print writes the transcript and one diagnostic line on stderr per bad line', () => {
		const result = perscope(['--print'], framed(testCase.lines));
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('[expert] ⚡ exec npm test');
		expect(result.stdout).toContain('[expert] ✅ complete all green');
		const reported = result.stderr
			.split('\n')
			.filter(line => line !== '')
			.map(line => Number(/^perscope: stdin:(\d+): /.exec(line)?.[1]));
		expect(reported).toEqual(expectedLines);
	});
});

describe('input that is not a log', () => {
	it('an empty file is an empty summary', () => {
		const path = join(dir, 'empty.ndjson');
		writeFileSync(path, '');
		expect(summaryOf(perscope(['--summary', '--json', path]))).toEqual(emptySummary);
	});

	it('a file of whitespace only is an empty summary, with nothing diagnosed', () => {
		const path = join(dir, 'blank.ndjson');
		writeFileSync(path, '\n   \n\t\t\n\r\n\n');
		expect(summaryOf(perscope(['--summary', '--json', path]))).toEqual(emptySummary);
	});

	it('stdin closed at once (</dev/null) exits 0 with an empty summary', () => {
		expect(summaryOf(perscope(['--summary', '--json']))).toEqual(emptySummary);
		const table = perscope(['--summary']);
		expect(table).toEqual({status: 0, stdout: '0 events\n', stderr: ''});
		expect(perscope(['--print'])).toEqual({status: 0, stdout: '', stderr: ''});
	});

	it('a directory that is not a job is one clear message and exit code 1', () => {
		const path = join(dir, 'just-a-directory');
		mkdirSync(path);
		const result = perscope(['--summary', '--json', path]);
		expect(result.status).toBe(1);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(`perscope: cannot read ${path}: it is a directory, but not a Perstack job or a directory of jobs\n`);
	});

	it('a file that does not exist is one clear message and exit code 1', () => {
		const result = perscope(['--print', join(dir, 'missing.ndjson')]);
		expect(result.status).toBe(1);
		expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
		expect(result.stderr).toContain('missing.ndjson');
	});
});

describe('line ends and byte order marks do not change what a log says', () => {
	const original = readFileSync(fixturePath('real/delegate.ndjson'));
	const expected = summaryOf(perscope(['--summary', '--json', fixturePath('real/delegate.ndjson')]));
	const variants: Array<[string, Buffer]> = [
		['CRLF', Buffer.from(original.toString('utf8').replaceAll('\n', '\r\n'))],
		['a UTF-8 byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original])],
		['no newline after the last line', Buffer.from(original.toString('utf8').trimEnd())],
	];

	it.each(variants)('%s', (_name, bytes) => {
		const summary = summaryOf(perscope(['--summary', '--json'], bytes));
		expect({...summary, diagnostics: summary.diagnostics}).toEqual({...expected, diagnostics: expected.diagnostics.map(diagnostic => ({...diagnostic, source: 'stdin'}))});
	});
});

/** Streams a log with one line of `lineBytes` into the CLI on stdin, without ever holding that line. */
async function withHugeLine(lineBytes: number, args: string[]): Promise<{result: Result; maxRssBytes: number}> {
	const child = spawn(process.execPath, [maxRssScript, ...args], {cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
	child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
	const closed = new Promise<number | null>(resolve => child.once('close', code => resolve(code)));
	const write = async (chunk: Buffer | string) => {
		if (!child.stdin.write(chunk)) await new Promise(resolve => child.stdin.once('drain', resolve));
	};

	await write(`${before[0]}\n{"type":"retry","runId":"run-1","reason":"`);
	const piece = Buffer.alloc(1024 * 1024, 'a');
	for (let sent = 0; sent < lineBytes; sent += piece.length) await write(piece);
	await write(`"}\n${after[1]}\n`);
	child.stdin.end();
	const status = await closed;
	const rss = /perscope-test-max-rss-kb=(\d+)/.exec(stderr);
	return {result: {status, stdout, stderr: stderr.replace(/perscope-test-max-rss-kb=\d+\n/, '')}, maxRssBytes: Number(rss?.[1] ?? Number.NaN) * 1024};
}

describe('a single line longer than --max-line-bytes', () => {
	const megabyte = 1024 * 1024;
	const limit = 64 * megabyte;
	// What the process takes anyway: Node, the CLI's modules, an empty model.
	const baseline = withHugeLine(0, ['--summary', '--json']);

	it('a 100 MB line is skipped with a diagnostic, the events around it are kept, and memory stays bounded by the limit', async () => {
		const {result, maxRssBytes} = await withHugeLine(100 * megabyte, ['--summary', '--json']);
		const summary = summaryOf(result);
		expect(summary.diagnostics).toEqual([{line: 2, source: 'stdin', reason: expect.stringMatching(/^line of 10485\d{4} bytes is over the --max-line-bytes limit of 67108864; skipped$/)}]);
		expect(summary.events).toBe(2);
		expect(summary.jobs[0]?.runs[0]?.status).toBe('completed');
		// Holding at most the limit (a line under it must be parsed), plus what garbage collection lags behind.
		const grown = maxRssBytes - (await baseline).maxRssBytes;
		expect(grown).toBeLessThan(limit + 64 * megabyte);
	});

	it('memory depends on the limit, not on the line: a 400 MB line costs no more, far less than its size', async () => {
		const {result, maxRssBytes} = await withHugeLine(400 * megabyte, ['--summary', '--json']);
		expect(summaryOf(result).diagnostics.map(diagnostic => diagnostic.line)).toEqual([2]);
		const grown = maxRssBytes - (await baseline).maxRssBytes;
		expect(grown).toBeLessThan(limit + 64 * megabyte);
		expect(grown).toBeLessThan(400 * megabyte / 3);
	});

	it('with a small limit, a 100 MB line costs a small part of its size', async () => {
		const {result, maxRssBytes} = await withHugeLine(100 * megabyte, ['--summary', '--json', '--max-line-bytes', String(megabyte)]);
		expect(summaryOf(result).events).toBe(2);
		expect(maxRssBytes - (await baseline).maxRssBytes).toBeLessThan(70 * megabyte);
	});
});

describe('regressions: messages that quote the command line', () => {
	const hostile = '\u001b]0;owned\u0007\u001b[2J\u202E';
	const unsafe = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

	it('a path or an option with escape sequences and bidi controls reached the terminal raw in the error line: it is shown inert', () => {
		const missing = perscope(['--print', join(dir, `missing-${hostile}.ndjson`)]);
		expect(missing.status).toBe(1);
		expect(missing.stderr).toBe(`perscope: cannot read ${join(dir, 'missing-␛]0;owned␇␛[2J⟨U+202E⟩.ndjson')}: no such file\n`);
		const option = perscope([`--${hostile}`]);
		expect(option.status).toBe(2);
		expect(option.stderr).not.toMatch(unsafe);
		expect(option.stderr).toContain('␛]0;owned␇␛[2J⟨U+202E⟩');
	});
});
