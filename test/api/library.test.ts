import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {createReducer, isToolActivity, streamingText, toolInput, type Diagnostic, type Reducer, type Summary} from 'perscope';
import * as built from '../../dist/api/index.js';
import {TextAccumulator} from '../../dist/model/text-accumulator.js';
import {builtPerscopeInProcess} from '../helpers/cli-in-process.js';
import {repoRoot} from '../helpers/cli-process.js';
import {expectEqual} from '../helpers/expect-same.js';
import {modelSnapshot} from '../helpers/model-snapshot.js';

/*
 * The library as a user who installed the package gets it: imported by the package's name, which Node and
 * vitest resolve through package.json "exports" to the built dist/ (a self-reference), so `npm run build` first.
 */

/** Every fixture that has golden files, as test/output/headless-outputs.ts names them. */
function fixtures(): Array<{name: string; path: string; golden: string}> {
	const top = readdirSync(join(repoRoot, 'fixtures')).filter(name => name.endsWith('.ndjson'));
	const real = readdirSync(join(repoRoot, 'fixtures/real'))
		.filter(name => name.endsWith('.ndjson'))
		.map(name => `real/${name}`);
	return [...top, ...real].sort().map(name => ({
		name,
		path: join(repoRoot, 'fixtures', name),
		golden: join(repoRoot, 'test/golden', `${name.replace('/', '-').replace(/\.ndjson$/, '')}.summary.json`),
	}));
}

/** A file's lines without their newlines (and without the empty string after the last newline). */
function linesOf(path: string): string[] {
	const lines = readFileSync(path, 'utf8').split('\n');
	if (lines.at(-1) === '') lines.pop();
	return lines;
}

function reducerOf(lines: ReadonlyArray<string | Uint8Array>, source = 'input'): Reducer {
	const reducer = createReducer({source});
	for (const line of lines) reducer.push(line);
	reducer.end();
	return reducer;
}

/** A model as plain data to compare, its streamed texts as the built TextAccumulator keeps them. */
const snapshot = (reducer: Reducer) => modelSnapshot(reducer.model, TextAccumulator);

describe('the package name', () => {
	it('resolves to the built entry in dist/, not to the sources', () => {
		expect(createReducer).toBe(built.createReducer);
	});
});

describe('a fixture pushed line by line gives its golden `--summary --json`', () => {
	it.each(fixtures())('$name', ({path, golden}) => {
		const expected = readFileSync(golden, 'utf8');
		const reducer = createReducer();
		for (const line of linesOf(path)) reducer.push(line);
		// The CLI writes its summary once the input has ended; before end() the summary counts it ended too.
		const beforeEnd = reducer.summaryJson();
		reducer.end();
		expect(reducer.summaryJson() + '\n').toBe(expected);
		expect(beforeEnd).toBe(reducer.summaryJson());
		// The object form: the same keys in the same order, the same values.
		expect(JSON.stringify(reducer.summary())).toBe(JSON.stringify(JSON.parse(expected)));
	});
});

describe('strings, Buffers and chunks give the same model', () => {
	it.each(fixtures())('$name', ({path}) => {
		const lines = linesOf(path);
		const reference = reducerOf(lines);
		const expected = snapshot(reference);
		// Buffers, half of them with their newline.
		expectEqual(snapshot(reducerOf(lines.map((line, n) => Buffer.from(n % 2 === 0 ? line : `${line}\n`)))), expected);
		// Bytes that are a view into a larger buffer.
		const views = lines.map(line => {
			const padded = Buffer.from(`xx${line}yy`);
			return new Uint8Array(padded.buffer, padded.byteOffset + 2, padded.length - 4);
		});
		expectEqual(snapshot(reducerOf(views)), expected);
		// Windows line ends: the same events (their byte offsets differ, so compare what is shown).
		expect(reducerOf(lines.map(line => `${line}\r\n`)).summaryJson()).toBe(reference.summaryJson());
		// The whole file as chunks cut anywhere, inside characters too.
		const bytes = readFileSync(path);
		fc.assert(
			fc.property(fc.array(fc.integer({min: 1, max: 300}), {minLength: 1, maxLength: 40}), sizes => {
				const reducer = createReducer();
				for (let at = 0, n = 0; at < bytes.length; n++) {
					const size = sizes[n % sizes.length] ?? 1;
					reducer.pushChunk(bytes.subarray(at, at + size));
					at += size;
				}

				reducer.end();
				expectEqual(snapshot(reducer), expected);
			}),
			{numRuns: 3},
		);
	});
});

describe('the end of the input', () => {
	it('ends a Gemini CLI chat’s last run with its answer: only the end says the last response made no more calls', () => {
		const lines = linesOf(join(repoRoot, 'fixtures/gemini/stream-with-chats/tmp/tmp-7jg85xlsvx/chats/session-2026-11-29T21-44-87be16a9.ndjson'));
		const reducer = createReducer();
		for (const line of lines) reducer.push(line);
		const last = '87be16a9-348b-4b32-baa8-f067a778c15d#2';
		expect(reducer.model.runs.get(last)?.status).toBe('proceeding');
		reducer.end();
		expect(reducer.model.runs.get(last)?.status).toBe('completed');
		expect(reducer.summary().jobs[0]?.status).toBe('completed');
	});
});

describe('bad input becomes diagnostics, and nothing throws', () => {
	const demo = linesOf(join(repoRoot, 'fixtures/demo.ndjson'));
	const golden: Summary = JSON.parse(readFileSync(join(repoRoot, 'test/golden/demo.summary.json'), 'utf8'));

	it('bad lines among good ones: each is reported with the number of the line pushed, and the rest is read as before', () => {
		const bad: Array<string | Uint8Array> = ['not json', '[1, 2]', '{"type":"startRun","id":"x"}', Buffer.from([0xff, 0xfe, 0x7b]), '{"unterminated": '];
		const seen: Diagnostic[] = [];
		const reducer = createReducer({source: 'run.ndjson', onDiagnostic: diagnostic => seen.push(diagnostic)});
		const badLines: number[] = [];
		let pushed = 0;
		const push = (line: string | Uint8Array) => {
			expect(() => reducer.push(line)).not.toThrow();
			pushed++;
		};
		demo.forEach((line, n) => {
			push(line);
			if (n % 40 !== 0) return;
			push(bad[(n / 40) % bad.length] ?? 'not json');
			badLines.push(pushed);
		});
		reducer.end();

		expect(reducer.model.diagnostics.map(diagnostic => diagnostic.line)).toEqual(badLines);
		expect(reducer.model.diagnostics.every(diagnostic => diagnostic.source === 'run.ndjson' && diagnostic.reason !== '')).toBe(true);
		expect(seen).toEqual(reducer.model.diagnostics);
		const {diagnostics, diagnosticCount, ...rest} = reducer.summary();
		expect(diagnostics).toEqual(reducer.model.diagnostics);
		expect(diagnosticCount).toBe(badLines.length);
		expect({...rest, diagnostics: [], diagnosticCount: 0}).toEqual(golden);
	});

	it('every push is a line, a blank one too; a push holding newlines is the lines they separate', () => {
		const reducer = createReducer();
		reducer.push('');
		reducer.push('bad one\nbad two\r\n');
		reducer.push('bad three\n');
		reducer.push('   ');
		reducer.push(Buffer.from('bad four'));
		expect(reducer.model.diagnostics.map(diagnostic => diagnostic.line)).toEqual([2, 3, 4, 6]);
	});

	it('what JavaScript may pass that is neither text nor bytes is one bad line', () => {
		const reducer = createReducer();
		for (const value of [null, undefined, 42, {type: 'startRun'}]) expect(() => Reflect.apply(reducer.push, reducer, [value])).not.toThrow();
		reducer.push('still read');
		expect(reducer.model.diagnostics.map(diagnostic => [diagnostic.line, diagnostic.reason.startsWith('not a line')])).toEqual([
			[1, true],
			[2, true],
			[3, true],
			[4, true],
			[5, false],
		]);
	});

	it('a chunk that is neither text nor bytes is reported on the line being read, which it leaves as it was', () => {
		const reducer = createReducer();
		reducer.push('not json');
		reducer.pushChunk('also ');
		expect(() => Reflect.apply(reducer.pushChunk, reducer, [42])).not.toThrow();
		reducer.pushChunk('not json\n');
		expect(reducer.model.diagnostics.map(diagnostic => [diagnostic.line, diagnostic.reason.startsWith('not a line')])).toEqual([
			[1, false],
			[2, true],
			[2, false],
		]);
	});

	it('a line over maxLineBytes is skipped and reported; the next one is read', () => {
		const limit = Math.max(...demo.map(line => Buffer.byteLength(line)));
		const reducer = createReducer({maxLineBytes: limit});
		reducer.push(`{"padding":"${'x'.repeat(limit)}"}`);
		for (const line of demo) reducer.push(line);
		reducer.end();
		expect(reducer.model.diagnostics).toEqual([{source: 'input', line: 1, reason: expect.stringContaining(`over the --max-line-bytes limit of ${limit}`)}]);
		expect(reducer.summary().jobs).toEqual(golden.jobs);
		expect(() => createReducer({maxLineBytes: 0})).toThrow(RangeError);
	});

	it('an event pushed twice is reported, not counted twice', () => {
		const reducer = reducerOf([...demo, demo[5] ?? '']);
		expect(reducer.model.diagnostics).toEqual([{source: 'input', line: demo.length + 1, reason: expect.stringContaining('duplicate event')}]);
		expect(reducer.summary().jobs).toEqual(golden.jobs);
	});

	it('a string chunk cut inside a surrogate pair turned its character into two U+FFFD (byte chunks were fine)', () => {
		const text = readFileSync(join(repoRoot, 'fixtures/demo.ndjson'), 'utf8').replaceAll('CI is red on main', 'CI 🚨 is red on main 😀');
		const whole = createReducer();
		whole.pushChunk(text);
		whole.end();
		const query = (reducer: Reducer) => reducer.model.activities.find(activity => activity.type === 'query')?.text;
		expect(query(whole)).toContain('CI 🚨 is red on main 😀');
		// Cut at every code unit: every pair of the text is split across two chunks.
		const cut = createReducer();
		for (const unit of text.split('')) cut.pushChunk(unit);
		cut.end();
		expect(query(cut)).toBe(query(whole));
		expect(cut.summaryJson()).toBe(whole.summaryJson());
		// A high half that no low half follows is one U+FFFD, whatever comes after it: bytes, a line, the end.
		const retry = '{"type":"retry","id":"e1","jobId":"j","runId":"r","expertKey":"x","stepNumber":1,"timestamp":1,"reason":"a\uD83D';
		for (const rest of [(reducer: Reducer) => reducer.pushChunk(Buffer.from('"}\n')), (reducer: Reducer) => reducer.push('"}')]) {
			const lone = createReducer();
			lone.pushChunk(retry);
			rest(lone);
			lone.end();
			expect(lone.model.diagnostics).toEqual([]);
			expect(lone.model.activities.map(activity => (activity.type === 'retry' ? activity.reason : ''))).toEqual(['a\uFFFD']);
		}

		const atEnd = createReducer();
		atEnd.pushChunk('{"a":1}\n\uD83D');
		atEnd.end();
		expect(atEnd.model.diagnostics).toEqual([
			{source: 'input', line: 1, reason: expect.stringContaining('not an event')},
			{source: 'input', line: 2, reason: expect.stringContaining('not JSON')},
		]);
	});

	it('a chunk that ends inside a line waits for the rest, or for end()', () => {
		const reducer = createReducer();
		reducer.pushChunk('not ');
		reducer.pushChunk(Buffer.from('json'));
		expect(reducer.model.diagnosticCount).toBe(0);
		reducer.end();
		expect(reducer.model.diagnostics).toEqual([{source: 'input', line: 1, reason: expect.any(String)}]);
	});
});

describe('the model', () => {
	it('holds jobs, runs and typed activities, current after every push', () => {
		const reducer = createReducer();
		const lines = linesOf(join(repoRoot, 'fixtures/demo.ndjson'));
		let rev = reducer.model.rev;
		for (const line of lines) {
			reducer.push(line);
			expect(reducer.model.rev).toBeGreaterThanOrEqual(rev);
			rev = reducer.model.rev;
		}

		expect(reducer.model.inputEnd).toBeUndefined();
		reducer.end({exitCode: 0});
		expect(reducer.model.inputEnd).toEqual({exitCode: 0, lastStderr: undefined});
		const {model} = reducer;
		const [job] = [...model.jobs.values()];
		expect(job?.runIds.map(runId => model.runs.get(runId)?.expertKey)).toEqual(['bugfix-lead', 'test-runner', 'code-reader', 'bugfix-lead']);
		expect([...model.runs.values()].map(run => run.activityCount)).toEqual(reducer.summary().jobs[0]?.runs.map(run => run.activities));

		const commands = model.activities.filter(isToolActivity).filter(activity => activity.type === 'exec');
		expect(commands.map(activity => [activity.toolName, typeof activity.result?.text])).toEqual(commands.map(() => ['exec', 'string']));
		const delegations = model.activities.flatMap(activity => (activity.type === 'delegate' ? [activity.delegateExpertKey] : []));
		expect(delegations).toEqual(['test-runner', 'code-reader']);
		expect(model.skills.get('@perstack/base')?.state).toBe('disconnected');
	});

	it('tool activities were typed only as args: unknown: toolInput gives each tool its own fields, and only those the call carried with the right type', () => {
		const reducer = createReducer();
		for (const line of linesOf(join(repoRoot, 'fixtures/real/tools.ndjson'))) reducer.push(line);
		const inputs = reducer.model.activities.filter(isToolActivity).map(toolInput);
		const reads = inputs.flatMap(input => (input.tool === 'readTextFile' ? [input.path] : []));
		expect(reads.length).toBeGreaterThan(0);
		expect(reads.every(path => typeof path === 'string' && path !== '')).toBe(true);
		const demo = createReducer();
		for (const line of linesOf(join(repoRoot, 'fixtures/demo.ndjson'))) demo.push(line);
		const commands = demo.model.activities
			.filter(isToolActivity)
			.map(toolInput)
			.flatMap(input => (input.tool === 'exec' ? [[input.command, ...input.args].join(' ')] : []));
		expect(commands).toEqual(['npm test', 'npm ci', 'npx vitest run', 'npx vitest run']);

		// A call whose arguments have the wrong shape: nothing is claimed that is not there.
		const odd = createReducer();
		const event = (type: string, body: Record<string, unknown>) =>
			JSON.stringify({type, id: `e-${type}`, timestamp: 1_795_400_000_000, jobId: 'j', runId: 'r', expertKey: 'x', stepNumber: 1, ...body});
		odd.push(event('startRun', {initialCheckpoint: {id: 'cp', runId: 'r', status: 'init', stepNumber: 1, expert: {key: 'x'}}, inputMessages: []}));
		odd.push(
			event('callTools', {
				toolCalls: [
					{
						id: 't1',
						skillName: '@perstack/base',
						toolName: 'exec',
						args: {command: 7, args: ['a', 3, 'b'], env: {PATH: '/bin', N: 1, ['__proto__']: 'x'}, timeout: 'soon'},
					},
				],
				newMessage: {},
				usage: {inputTokens: 1, outputTokens: 1, reasoningTokens: 0, totalTokens: 2, cachedInputTokens: 0},
			}),
		);
		const [exec] = odd.model.activities.filter(isToolActivity).map(toolInput);
		expect(exec).toEqual({
			tool: 'exec',
			command: undefined,
			args: ['a', 'b'],
			cwd: undefined,
			env: Object.assign(Object.create(null) as object, {PATH: '/bin', ['__proto__']: 'x'}),
			timeoutMs: undefined,
		});
	});

	it('streamingText is what a run is writing now', () => {
		const reducer = createReducer();
		const lines = linesOf(join(repoRoot, 'fixtures/streaming.ndjson'));
		// Up to the first tool call: step 1's reasoning is still streaming.
		const upTo = lines.findIndex(line => line.includes('"type":"callTools"'));
		for (const line of lines.slice(0, upTo)) reducer.push(line);
		const [run] = [...reducer.model.runs.values()];
		if (!run) throw new Error('no run');
		const deltas = lines.slice(0, upTo).flatMap(line => {
			const event: unknown = JSON.parse(line);
			return typeof event === 'object' && event !== null && Reflect.get(event, 'type') === 'streamReasoning'
				? [{text: String(Reflect.get(event, 'delta')), at: Number(Reflect.get(event, 'timestamp'))}]
				: [];
		});
		// In the order of their timestamps (the fixture swaps two), arrival order between equal ones.
		const ordered = deltas.map((delta, index) => ({...delta, index})).sort((a, b) => a.at - b.at || a.index - b.index);
		expect(streamingText(run)).toEqual({
			step: 1,
			reasoning: ordered.map(delta => delta.text).join(''),
			result: '',
			reasoningComplete: false,
			resultComplete: false,
		});
	});

	it('summary() is a copy: changing it leaves the model alone', () => {
		const reducer = reducerOf(linesOf(join(repoRoot, 'fixtures/demo.ndjson')));
		const summary = reducer.summary();
		summary.jobs[0]?.runs.splice(0);
		summary.diagnostics.push({source: 'x', line: 1, reason: 'mine'});
		expect(reducer.summary().jobs[0]?.runs).toHaveLength(4);
		expect(reducer.model.diagnostics).toEqual([]);
	});
});

describe('an agent CLI’s stream', () => {
	const recordings = ['claude-code/nested-subagents.ndjson', 'codex/sub-agent.jsonl', 'gemini/fix-and-delegate.jsonl'];

	it.each(recordings)('%s pushed line by line gives what `perscope --summary --json` gives for the file', async name => {
		const path = join(repoRoot, 'fixtures', name);
		const reducer = reducerOf(linesOf(path), path);
		// The built CLI's code, run in this process (test/helpers/cli-in-process.ts).
		const cli = await builtPerscopeInProcess(['--summary', '--json', path]);
		expect(cli.code, cli.stderr).toBe(0);
		expect(reducer.summaryJson()).toBe(cli.stdout.trimEnd());
		expect(reducer.model.diagnostics).toEqual([]);
		expect(reducer.summary().jobs[0]!.runs.length).toBeGreaterThan(1);
	});

	it('claude-code-action’s execution file (one JSON array of the stream’s messages) pushed in chunks gives what the stream gives', async () => {
		const array = readFileSync(join(repoRoot, 'fixtures/claude-code/action-execution-file.json'));
		const reducer = createReducer();
		for (let at = 0; at < array.length; at += 1000) reducer.pushChunk(array.subarray(at, at + 1000));
		reducer.end();
		const cli = await builtPerscopeInProcess(['--summary', '--json', join(repoRoot, 'fixtures/claude-code/nested-subagents.ndjson')]);
		expect(reducer.summaryJson()).toBe(cli.stdout.trimEnd());
		expect(reducer.model.diagnostics).toEqual([]);
	});

	it('dialect reads every line as that dialect’s: a Codex stream that begins with its retry is read as Codex’s, not as unknown lines', () => {
		const lines = [
			'{"type":"error","message":"Reconnecting... 1/5 (stream disconnected)"}',
			'{"type":"thread.started","thread_id":"t1"}',
			'{"type":"turn.started"}',
			'{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}',
		];
		const told = reducerOf(lines);
		expect(told.model.unknownEvents).toEqual(new Map([['error', 1]]));
		const forced = createReducer({dialect: 'codex'});
		for (const line of lines) forced.push(line);
		forced.end();
		expect(forced.model.unknownEvents).toEqual(new Map());
		const activities = forced.model.activities.map(activity => activity.type);
		expect(activities).toContain('retry');
		// The retry came before the thread said its id: it is the start of a run of its own, as a stream begun mid-turn.
		expect(forced.summary().jobs.map(job => [job.jobId, job.status, job.usage.inputTokens])).toEqual([
			['codex:line-1', 'proceeding', 0],
			['t1', 'completed', 10],
		]);
	});

	it('an unknown dialect is a RangeError naming the ones there are', () => {
		// @ts-expect-error: not a dialect, as plain JavaScript may pass.
		expect(() => createReducer({dialect: 'cursor'})).toThrow(
			'dialect must be one of perstack, amp, claude-code, codex, gemini, opencode, drover, daemon, not cursor',
		);
	});
});
