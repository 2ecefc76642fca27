import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, runByExpert} from '../../test/helpers/load.js';
import {Ingest} from '../load/ingest.js';
import {field} from '../text/describe-activity.js';
import {createModel, endInput, type Activity, type InputEnd} from '../model/state.js';
import {answerLine, indentFor, maxIndentDepth, TranscriptWriter, transcriptLine, type TranscriptFormat} from './transcript.js';

/** A transcript as `--print` or `--json` writes it: the fixture read in chunks of `chunkSize` bytes, taken after every read. */
function transcriptOf(
	fixture: string,
	format: TranscriptFormat,
	options: {chunkSize?: number; end?: InputEnd; include?: (activity: Activity) => boolean} = {},
): string {
	const model = createModel();
	const writer = new TranscriptWriter(model, format, options.include);
	const ingest = new Ingest({maxLineBytes: 1 << 24, model, afterEvent: () => writer.collect()});
	const splitter = ingest.splitter(fixture);
	const bytes = readFileSync(fixturePath(fixture));
	const size = options.chunkSize ?? bytes.length;
	let out = '';
	for (let at = 0; at < bytes.length; at += size) {
		splitter.push(bytes.subarray(at, at + size));
		out += writer.take();
	}

	splitter.end();
	endInput(model, options.end ?? {exitCode: undefined, lastStderr: undefined});
	writer.finish();
	return out + writer.take();
}

describe('the text transcript (--print)', () => {
	it('writes a delegation when it is made, the child indented under it, and the answer once it is in', () => {
		expect(transcriptOf('real/delegate.ndjson', 'text').split('\n').slice(0, 12)).toEqual([
			'── job xrg3kr5eyfy4evxm775cs81p · coordinator · started 2026-11-21 21:00:57 UTC',
			'[coordinator] 💬 query Find out what is in the workspace.',
			'[coordinator] → delegate child-expert: List the workspace and summarise what is there.',
			'[coordinator] ⏸ run waits for delegates: child-expert',
			'  [child-expert] 💬 query List the workspace and summarise what is there.',
			'  [child-expert] 📁 list .',
			'  [child-expert] 📄 read README.txt',
			'  [child-expert] 🏁 attempt completion',
			"  [child-expert] ✅ complete The workspace contains one file: README.txt (one line: 'hello from the workspace').",
			'  [child-expert] ✓ run completed · 3 steps',
			"[coordinator] ← child-expert: The workspace contains one file: README.txt (one line: 'hello from the workspace').",
			'[coordinator] 📬 delegation complete child-expert',
		]);
	});

	it('is the same whether the bytes come at once or a few at a time', () => {
		for (const fixture of ['demo.ndjson', 'parallel-delegate.ndjson', 'streaming.ndjson']) {
			expect(transcriptOf(fixture, 'text', {chunkSize: 97})).toBe(transcriptOf(fixture, 'text'));
		}
	});

	it('writes a tool error after a cross, and a run error once', () => {
		const text = transcriptOf('real/tools.ndjson', 'text');
		expect(text).toContain('[tools-expert] 📄 read missing-file.txt ✗ File missing-file.txt does not exist.\n');
		const error = transcriptOf('real/error.ndjson', 'text');
		// The error is an activity of its own, not a cross on another line; then the run's stop says it failed.
		expect(error).toContain(
			'[error-expert] ❌ error AI_NoOutputGeneratedError: No output generated. Check the stream for errors.\n' +
				'[error-expert] ✗ run failed: AI_NoOutputGeneratedError: No output generated. Check the stream for errors.\n',
		);
		expect(error.split('\n').filter(line => line.includes('❌'))).toHaveLength(1);
	});

	it('ends by saying which run the job left waiting for its delegates, and why', () => {
		const text = transcriptOf('delegate-failure.ndjson', 'text', {end: {exitCode: 1, lastStderr: 'Delegation error'}});
		expect(text.trimEnd().split('\n').slice(-2)).toEqual([
			'[release-coordinator] ✗ the job ended while this run waited for its delegates: changelog-writer failed: AI_APICallError: Overloaded; the command exited 1: Delegation error',
			'── job sm8w3d6nos5nv2eqmkf28xm4 ✗ failed: ended while waiting for delegates: changelog-writer failed: AI_APICallError: Overloaded; the command exited 1: Delegation error · 4 steps · 7 steps run · 10243 in / 190 out tokens · $0.03 · 1.7s',
		]);
	});

	// Regression: a Codex turn cut off before its first item (a real sample: `thread.started`, `turn.started`, then
	// nothing) printed only `[codex] ✗ ended without a final event…`, without its job's start and end lines; in the
	// real Claude Code frame catalog two jobs of 9,190 and 9,360 tokens were told that way, their cost nowhere.
	it('starts and ends a job whose only line is its run’s end at the end of the input', () => {
		expect(transcriptOf('codex/samples/agentcmd-research-stream-output-multi-1.jsonl', 'text').split('\n')).toEqual([
			'── job 019a2d7b-c0ed-75a0-8908-de832785d47f · codex · started at an unknown time',
			'[codex] ✗ ended without a final event: the input ended while this run was running',
			'── job 019a2d7b-c0ed-75a0-8908-de832785d47f ✗ failed: codex ended without a final event · 0 steps · 0 in / 0 out tokens · ? · –',
			'',
		]);
	});

	// Regression: a result whose call came before the log began printed `[claude] 🔧 ` and nothing more (the real
	// frame catalog's Read results, their tool_use lines not kept): Claude Code's results name no tool.
	it('says a result’s call is not in the log, and gives the result, where its call never came', () => {
		const lines = transcriptOf('claude-code/frame-catalog-opus5.VERBATIM-LINES.ndjson', 'text').split('\n');
		expect(lines.filter(line => line.includes('🔧'))).toEqual([
			'[claude] 🔧 tool (its call is not in the log) ↩ 1   SMOKE-TOOL-OK',
			'  [general-purpose] 🔧 tool (its call is not in the log) ↩ 1   SMOKE-SUBAGENT-OK',
		]);
	});

	it('tells the runs the input ended in the middle of job by job, each job’s lines followed by its end line', () => {
		const lines = transcriptOf('claude-code/frame-catalog-opus5.VERBATIM-LINES.ndjson', 'text').split('\n');
		const tail = lines.slice(lines.findIndex(line => line.includes('ended without a final event')));
		expect(tail.map(line => line.replace(/(── job \w{8})[^ ]* (✗|·) .*/, '$1 $2'))).toEqual([
			'[claude] ✗ ended without a final event: the input ended while this run was running',
			'── job 2e564f1b ✗',
			'[claude] ✗ ended without a final event: the input ended while this run was running',
			'── job a8002833 ✗',
			'[claude] ✗ ended without a final event: the input ended while this run was running',
			'  [general-purpose] ✗ ended without a final event: the input ended while this run was running',
			'── job 861a7a4f ✗',
			'── job 4c3a88c5 ·',
			'[claude] ✗ ended without a final event: the input ended while this run was running',
			'[claude] ✂ answer cut off: part',
			'── job 4c3a88c5 ✗',
			'',
		]);
		expect(lines.filter(line => line.startsWith('── job 2e564f1b'))).toEqual([
			'── job 2e564f1b-2b2a-4929-83c1-e2e84a9290f4 · claude · started 2026-07-27 15:15:21 UTC',
			'── job 2e564f1b-2b2a-4929-83c1-e2e84a9290f4 ✗ failed: claude ended without a final event · 1 step · 9190 in / 1 out tokens · $0.05 · 0ms',
		]);
	});

	it('leaves out what the filter does not include, and the marks of runs; the job is named before its first line', () => {
		const text = transcriptOf('demo.ndjson', 'text', {include: activity => activity.type === 'exec'});
		expect(text.trimEnd().split('\n')).toEqual([
			'── job nibyyurl65b4kj4hbi6jlvhk · bugfix-lead · started 2026-11-23 00:00:01 UTC',
			'  [test-runner] ⚡ exec npm test ✗ Command failed: npm test ↵ sh: 1: vitest: not found ↵ npm error Lifecycle script `test` failed with error: ↵ npm error code 127',
			'  [test-runner] ⚡ exec npm ci',
			'  [test-runner] ⚡ exec npx vitest run',
			'[bugfix-lead] ⚡ exec npx vitest run',
		]);
	});
});

describe('the JSON transcript (--json)', () => {
	it('writes every activity once, each after the one before it in its pane', () => {
		const model = modelFromFixtures('demo.ndjson');
		const lines = transcriptOf('demo.ndjson', 'json', {chunkSize: 61}).trimEnd().split('\n');
		expect(lines).toHaveLength(model.activities.length);
		const written = new Set<string>();
		for (const line of lines) {
			const activity: unknown = JSON.parse(line);
			const id = String(field(activity, 'id'));
			const previous = field(activity, 'previousActivityId');
			if (typeof previous === 'string') expect(written.has(previous)).toBe(true);
			written.add(id);
		}
	});

	it('writes a delegation only once its answer is in, with the answer', () => {
		const lines = transcriptOf('real/delegate.ndjson', 'json').trimEnd().split('\n');
		const delegateAt = lines.findIndex(line => line.includes('"type":"delegate"'));
		const childCompleteAt = lines.findIndex(line => line.includes('"expertKey":"child-expert"') && line.includes('"type":"complete"'));
		expect(delegateAt).toBeGreaterThan(childCompleteAt);
		expect(lines[delegateAt]).toContain('"result":{"text":"The workspace contains one file');
	});

	it('still writes a question that was never answered when the input ends', () => {
		const lines = transcriptOf('real/interactive-1.ndjson', 'json').trimEnd().split('\n');
		expect(lines.at(-1)).toMatch(/"type":"interactiveTool".*"result":null/);
	});
});

describe('transcriptLine and answerLine', () => {
	it('indent by delegation depth and name the expert', () => {
		const model = modelFromFixtures('nested-delegate.ndjson');
		const researcher = runByExpert(model, 'researcher');
		const first = model.activities.find(activity => activity.runId === researcher.runId)!;
		expect(transcriptLine(model, first)).toMatch(/^ {4}\[researcher\] 💬 query /);
	});

	it('an answer of several lines shows its first line and an ellipsis; other activities have no answer line', () => {
		const model = modelFromFixtures('real/delegate.ndjson');
		const delegate = model.activities.find(activity => activity.type === 'delegate');
		if (delegate?.type !== 'delegate' || !delegate.result) throw new Error('no answered delegation in the fixture');
		expect(answerLine(model, delegate)).toBe(
			"[coordinator] ← child-expert: The workspace contains one file: README.txt (one line: 'hello from the workspace').",
		);
		const longer = {...delegate, result: {...delegate.result, text: 'Two findings:\n- README.txt\n- nothing else\n'}};
		expect(answerLine(model, longer)).toBe('[coordinator] ← child-expert: Two findings: …');
		const failed = {...delegate, result: {...delegate.result, error: 'child crashed'}};
		expect(answerLine(model, failed)).toBe('[coordinator] ← child-expert: ✗ child crashed');
		const list = model.activities.find(activity => activity.type === 'listDirectory')!;
		expect(answerLine(model, list)).toBeUndefined();
	});

	it('an empty answer ended the line at its colon (`← generalist: `): it says it was empty; one that opens with blank lines shows its first words', () => {
		// Gemini CLI's recording: the generalist sub-agent returned nothing.
		const gemini = modelFromFixtures('gemini/fix-and-delegate.jsonl');
		const empty = gemini.activities.find(activity => activity.type === 'delegate');
		if (empty?.type !== 'delegate' || !empty.result) throw new Error('no answered delegation in the recording');
		expect(empty.result.text.trim()).toBe('');
		expect(answerLine(gemini, empty)).toBe('[gemini] ← generalist: (empty answer)');
		const model = modelFromFixtures('real/delegate.ndjson');
		const delegate = model.activities.find(activity => activity.type === 'delegate');
		if (delegate?.type !== 'delegate' || !delegate.result) throw new Error('no answered delegation in the fixture');
		expect(answerLine(model, {...delegate, result: {...delegate.result, text: '\n\nFound it.\n'}})).toBe('[coordinator] ← child-expert: Found it.');
	});
});

describe('indentFor', () => {
	it('indents two spaces a level, and past the cap writes the depth instead', () => {
		expect(indentFor(0)).toBe('');
		expect(indentFor(2)).toBe('    ');
		expect(indentFor(maxIndentDepth)).toHaveLength(2 * maxIndentDepth);
		expect(indentFor(20_000)).toBe(`${'  '.repeat(maxIndentDepth)}(depth 20000) `);
	});
});
