import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import type {Summary} from '../../source/output/summary.js';
import {fixturePath} from '../helpers/load.js';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {after, badLineNumber, before, corpus, framed} from './corpus.js';
import {builtinPrices} from '../../source/query/prices.js';

/*
 * The corpus through the CLI, fed on stdin as `… | perscope` is: it must end with 0 when its input ends, report
 * each bad line with its number, and summarise the valid run around it. What the CLI writes is checked on runs in
 * this process (test/helpers/cli-in-process.ts); what is about the process (stdin closed at once, exit codes, the
 * memory a huge line costs) on the built CLI as a process, which also reads one case of the corpus from a real pipe.
 */

const maxRssScript = fileURLToPath(new URL('max-rss.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'perscope-bad-input-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

type Result = {status: number | null; stdout: string; stderr: string};

function perscope(args: string[], input?: Buffer | string, env: Record<string, string> = {}): Result {
	const result = spawnSync(process.execPath, [cliPath, ...args], {
		cwd: repoRoot,
		env: {...process.env, ...env},
		input: input ?? '',
		encoding: 'utf8',
		// `ignore` is /dev/null: stdin that is closed at once.
		stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
		maxBuffer: 64 * 1024 * 1024,
	});
	return {status: result.status, stdout: result.stdout, stderr: result.stderr};
}

/** The CLI run in this process, `input` on its stdin. */
async function inProcess(args: string[], input?: Buffer | string, env: Record<string, string> = {}): Promise<Result> {
	const {stdout, stderr, code} = await perscopeInProcess(args, input === undefined ? undefined : [Buffer.from(input)], env);
	return {status: code, stdout, stderr};
}

function summaryOf(result: Result): Summary {
	expect(result.status, result.stderr).toBe(0);
	return JSON.parse(result.stdout);
}

const emptySummary = {
	jobs: [],
	costUsd: 0,
	prices: {source: builtinPrices.source, date: builtinPrices.date, file: null},
	events: 0,
	unknownEvents: {},
	diagnostics: [],
	diagnosticCount: 0,
};

describe.each(corpus)('perscope --summary --json on stdin: $name', testCase => {
	const expectedLines = testCase.diagnostic.flatMap((isDiagnostic, n) => (isDiagnostic ? [badLineNumber(n)] : []));

	it('exits 0, counts each bad line with its number, and summarises the run around them', async () => {
		const summary = summaryOf(await inProcess(['--summary', '--json'], framed(testCase.lines)));
		expect(summary.diagnostics.map(diagnostic => [diagnostic.line, diagnostic.source])).toEqual(expectedLines.map(line => [line, 'stdin']));
		const run = summary.jobs.find(job => job.jobId === 'job-1')?.runs.find(candidate => candidate.runId === 'run-1');
		expect(run?.status).toBe('completed');
		expect(run?.steps).toBe(1);
		expect(run?.usage.inputTokens).toBe(10);
		expect(run?.activities).toBeGreaterThanOrEqual(3);
	});

	it('--print writes the transcript and one diagnostic line on stderr per bad line', async () => {
		const result = await inProcess(['--print'], framed(testCase.lines));
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

describe('the built CLI, as a process', () => {
	it.each(['--print', '--summary --json'])('%s: a case of the corpus piped in writes what the run in this process writes', async mode => {
		const input = framed(corpus[0]!.lines);
		const args = mode.split(' ');
		expect(perscope(args, input)).toEqual(await inProcess(args, input));
	});
});

describe('input that is not a log', () => {
	it('an empty file is an empty summary', async () => {
		const path = join(dir, 'empty.ndjson');
		writeFileSync(path, '');
		expect(summaryOf(await inProcess(['--summary', '--json', path]))).toEqual(emptySummary);
	});

	it('a file of whitespace only is an empty summary, with nothing diagnosed', async () => {
		const path = join(dir, 'blank.ndjson');
		writeFileSync(path, '\n   \n\t\t\n\r\n\n');
		expect(summaryOf(await inProcess(['--summary', '--json', path]))).toEqual(emptySummary);
	});

	it.skipIf(!existsSync('/proc/self/status'))(
		'a file that says it is empty but is not (/proc) was read as empty: its lines are read, as from a pipe',
		async () => {
			// The in-process CLI reads the status of this process, which has some fifty `Name:\tvalue` lines.
			const {status, stdout} = await inProcess(['--summary', '/proc/self/status']);
			// Bad lines are reported, not fatal.
			expect(status).toBe(0);
			expect(stdout).toMatch(/^0 events, [3-9]\d bad lines\n$/);
			const fromPipe = perscope(['--summary'], readFileSync('/proc/self/status'));
			expect(fromPipe.stdout).toMatch(/^0 events, [3-9]\d bad lines\n$/);
		},
	);

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
		expect(result.stderr).toBe(
			`perscope: cannot read ${path}: it is a directory, but not a Perstack job, a directory of jobs or a folder of Claude Code, Codex or Gemini CLI sessions\n`,
		);
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
	const expected = inProcess(['--summary', '--json', fixturePath('real/delegate.ndjson')]);
	const variants: Array<[string, Buffer]> = [
		['CRLF', Buffer.from(original.toString('utf8').replaceAll('\n', '\r\n'))],
		['a UTF-8 byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original])],
		['no newline after the last line', Buffer.from(original.toString('utf8').trimEnd())],
	];

	it.each(variants)('%s', async (_name, bytes) => {
		const summary = summaryOf(await inProcess(['--summary', '--json'], bytes));
		const whole = summaryOf(await expected);
		expect({...summary, diagnostics: summary.diagnostics}).toEqual({
			...whole,
			diagnostics: whole.diagnostics.map(diagnostic => ({...diagnostic, source: 'stdin'})),
		});
	});

	it('a byte order mark at the start of a later line (two logs that each begin with one, concatenated) was a bad line in one stream, not as two files', async () => {
		const mark = Buffer.from([0xef, 0xbb, 0xbf]);
		const second = readFileSync(fixturePath('real/tools.ndjson'));
		const files = [join(dir, 'marked-delegate.ndjson'), join(dir, 'marked-tools.ndjson')];
		writeFileSync(files[0]!, Buffer.concat([mark, original]));
		writeFileSync(files[1]!, Buffer.concat([mark, second]));
		const asFiles = summaryOf(await inProcess(['--summary', '--json', ...files]));
		const asOneStream = summaryOf(await inProcess(['--summary', '--json'], Buffer.concat([mark, original, mark, second])));
		expect(asOneStream.diagnostics).toEqual([]);
		expect(asOneStream).toEqual(asFiles);
		// Read the fast ways and the plain way alike.
		expect(summaryOf(await inProcess(['--summary', '--json'], Buffer.concat([mark, original, mark, second]), {PERSCOPE_FAST: '0'}))).toEqual(asOneStream);
	});

	it('a log concatenated with itself counted its streaming events again (229 events instead of 136) and did not report them, as it did the others', async () => {
		const tools = readFileSync(fixturePath('real/tools.ndjson'));
		const once = summaryOf(await inProcess(['--summary', '--json', fixturePath('real/tools.ndjson')]));
		for (const [how, summary] of [
			['one stream', summaryOf(await inProcess(['--summary', '--json'], Buffer.concat([tools, tools])))],
			['the same file twice', summaryOf(await inProcess(['--summary', '--json', fixturePath('real/tools.ndjson'), fixturePath('real/tools.ndjson')]))],
		] as const) {
			expect(summary.events, how).toBe(136);
			expect(summary.jobs, how).toEqual(once.jobs);
			// Every line of the second copy is a duplicate, the 93 streaming events among them.
			expect(summary.diagnostics, how).toHaveLength(136);
			expect(summary.diagnostics.every(diagnostic => diagnostic.reason.startsWith('duplicate event: '))).toBe(true);
			expect(summary.diagnostics.filter(diagnostic => /^duplicate event: (stream|startStreaming|completeStreaming)/.test(diagnostic.reason))).toHaveLength(93);
		}
	});
});

describe('step numbers written another way than the runtime writes them', () => {
	// The real runtime's log, its step 4 (an exec and its reasoning) rewritten.
	const original = readFileSync(fixturePath('real/tools.ndjson'), 'utf8');
	const run = 'yx0qylj95kkijg52otg17vwe';
	const rewritten = (written: string) => {
		const path = join(dir, `tools-step-${written.replaceAll('"', 'q')}.ndjson`);
		writeFileSync(path, original.replaceAll(/"stepNumber":4([,}])/g, `"stepNumber":${written}$1`));
		return path;
	};

	const conversation = inProcess(['--conversation', `${run}@4`, fixturePath('real/tools.ndjson')]);

	it.each(['"4"', '4.0', '4e0'])(
		'--conversation said "no longer available … the file may have changed" for a step written %s, which every other mode reads',
		async written => {
			const expected = await conversation;
			expect(expected.status, expected.stderr).toBe(0);
			const path = rewritten(written);
			const fromFile = await inProcess(['--conversation', `${run}@4`, path]);
			expect(fromFile.status, fromFile.stderr).toBe(0);
			expect(fromFile.stdout).toBe(expected.stdout);
			// From a pipe too: the step's line is found among the recent lines kept.
			const fromPipe = await inProcess(['--conversation', `${run}@4`], readFileSync(path));
			expect(fromPipe.stdout).toBe(expected.stdout);
		},
	);

	it('a whole step at stepNumber 1e20 turned a completed run into "ended without a final event", with no diagnostic', async () => {
		const path = rewritten('1e20');
		const summary = summaryOf(await inProcess(['--summary', '--json', path]));
		const tools = summary.jobs[0]!.runs[0]!;
		expect(tools.status).toBe('completed');
		expect(tools.endedWithoutFinalEvent).toBeUndefined();
		// The step is not counted, and every line that had it says why.
		expect(tools.steps).toBe(7);
		// The lines whose own step number, or whose checkpoint's or step's, was 4 (a next checkpoint's is not read).
		type Numbered = {stepNumber?: number; checkpoint?: {stepNumber?: number}; step?: {stepNumber?: number}};
		const lines = original
			.trimEnd()
			.split('\n')
			.flatMap((line, index) => {
				const event = JSON.parse(line) as Numbered;
				return [event.stepNumber, event.checkpoint?.stepNumber, event.step?.stepNumber].includes(4) ? [index + 1] : [];
			});
		expect(summary.diagnostics.map(diagnostic => diagnostic.line)).toEqual(lines);
		expect(summary.diagnostics[0]!.reason).toBe(
			'startGeneration event: stepNumber 100000000000000000000 is not a step number (a whole number from 0 to 9007199254740991); the event is read without it',
		);
		// Every reader judges it so: the plain one (the schema) and the fast ones give the same document.
		expect(summaryOf(await inProcess(['--summary', '--json', path], undefined, {PERSCOPE_FAST: '0'}))).toEqual(summary);
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
		expect(summary.diagnostics).toEqual([
			{line: 2, source: 'stdin', reason: expect.stringMatching(/^line of 10485\d{4} bytes is over the --max-line-bytes limit of 67108864; skipped$/)},
		]);
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
		expect(grown).toBeLessThan((400 * megabyte) / 3);
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
