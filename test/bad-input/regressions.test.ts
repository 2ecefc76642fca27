import {describe, expect, it} from 'vitest';
import type {Model} from '../../source/model/state.js';
import {depthOf, panesInTreeOrder, runsInTreeOrder} from '../../source/query/tree.js';
import {jsonForTerminal} from '../../source/output/activity-json.js';
import {buildSummary} from '../../source/output/summary.js';
import {summaryTable} from '../../source/output/summary-table.js';
import {maxIndentDepth, transcriptLine} from '../../source/output/transcript.js';
import {wrapToWidth} from '../../source/text/wrap.js';
import {findMatches} from '../../source/query/search.js';
import {findMatches as findInInspector} from '../../source/view-model/lines/inspector-find.js';
import {inspectorLines} from '../../source/view-model/lines/inspector-lines.js';
import {modelProblems, outputProblems, runChangesWithoutRev, unsafeForTerminal} from '../fuzz/invariants.js';
import {modelFromText, perstackLine} from '../helpers/load.js';

/*
 * One test per bug found while feeding perscope bad input, named after the bug. Timings use generous
 * bounds: the bugs were quadratic, so the inputs are sized where quadratic means minutes.
 */

function perstack(type: string, runId: string, fields: Record<string, unknown> = {}, id?: string): string {
	return JSON.stringify({
		type,
		id: id ?? `${type}-${runId}-${Math.random().toString(36).slice(2)}`,
		timestamp: 1_700_000_000_000,
		jobId: 'job',
		runId,
		expertKey: `expert-${runId}`,
		stepNumber: 1,
		...fields,
	});
}

function startRun(runId: string, checkpoint: Record<string, unknown> = {}): string {
	const inputMessages = [{type: 'userMessage', contents: [{type: 'textPart', text: `task of ${runId}`}]}];
	return perstack('startRun', runId, {initialCheckpoint: {status: 'init', stepNumber: 1, ...checkpoint}, inputMessages});
}

function timed<T>(work: () => T): {result: T; ms: number} {
	const start = performance.now();
	const result = work();
	return {result, ms: performance.now() - start};
}

function expectConsistent(model: Model): void {
	expect(modelProblems(model)).toEqual([]);
	expect(outputProblems(model)).toEqual([]);
}

describe('regressions', () => {
	it('a drover subagent whose events came before its parent’s showed up in two jobs (and was counted twice)', () => {
		const model = modelFromText(
			[
				JSON.stringify({kind: 'run_start', runId: 'child', ts: 1, agentId: 'log-reader'}),
				JSON.stringify({kind: 'run_start', runId: 'root', ts: 2, agentId: 'triage'}),
				JSON.stringify({kind: 'tool_call_start', runId: 'root', ts: 3, turn: 1, toolUseId: 't1', toolName: 'task', input: {}}),
				JSON.stringify({kind: 'subagent_start', runId: 'root', ts: 4, turn: 1, childRunId: 'child', agentId: 'log-reader'}),
			].join('\n'),
		);
		expectConsistent(model);
		const summary = buildSummary(model);
		expect(summary.jobs.map(job => [job.jobId, job.runs.map(run => run.runId)])).toEqual([['root', ['root', 'child']]]);
		expect(model.runs.get('child')?.jobId).toBe('root');
	});

	it('a Perstack child that started before its parent is adopted when the parent starts, in the parent’s job', () => {
		const model = modelFromText(
			[
				JSON.stringify({
					type: 'startRun',
					id: 'c',
					runId: 'child',
					expertKey: 'helper',
					initialCheckpoint: {status: 'init', delegatedBy: {runId: 'parent', toolCallId: 'call-1'}},
				}),
				startRun('parent'),
				perstack('callDelegate', 'parent', {toolCalls: [{id: 'call-1', skillName: 'helper', toolName: 'helper', args: {query: 'help'}}]}),
			].join('\n'),
		);
		expectConsistent(model);
		expect(model.runs.get('parent')?.childRunIds).toEqual(['child']);
		expect(model.runs.get('child')?.jobId).toBe('job');
		expect(runsInTreeOrder(model, model.jobs.get('job')!).map(run => run.runId)).toEqual(['parent', 'child']);
	});

	it('a child that started before its parent’s delegation kept its rev when the delegation linked it, so views and the load worker missed the link', () => {
		const lines = [
			JSON.stringify({
				type: 'startRun',
				id: 'c',
				runId: 'child',
				expertKey: 'helper',
				initialCheckpoint: {status: 'init', delegatedBy: {runId: 'parent', toolCallId: 'call-1'}},
			}),
			startRun('parent'),
			perstack('callDelegate', 'parent', {toolCalls: [{id: 'call-1', skillName: 'helper', toolName: 'helper', args: {query: 'help'}}]}),
		];
		expect(runChangesWithoutRev(lines.map(line => Buffer.from(line)))).toEqual([]);
		expect(modelFromText(lines.join('\n')).runs.get('child')?.delegatingActivityId).not.toBeNull();
	});

	it('a run joining another pane left a run that had already resumed it pointing at a pane that was gone', () => {
		const model = modelFromText(
			[
				// X is known from a stray event; Y resumes X; then Z stops; then X's own start says it resumes Z.
				perstack('retry', 'X', {reason: 'stray'}),
				startRun('Y', {status: 'stoppedByDelegate', runId: 'X'}),
				startRun('Z'),
				perstack('stopRunByDelegate', 'Z', {checkpoint: {status: 'stoppedByDelegate', stepNumber: 1}}),
				startRun('X', {status: 'stoppedByDelegate', runId: 'Z'}),
				perstack('completeRun', 'Y', {checkpoint: {status: 'completed', stepNumber: 2}, text: 'done'}),
			].join('\n'),
		);
		expectConsistent(model);
		const pane = model.panes.get('Z');
		expect(pane?.runIds).toEqual(['Z', 'X', 'Y']);
		expect(['X', 'Y', 'Z'].map(runId => model.runs.get(runId)?.paneId)).toEqual(['Z', 'Z', 'Z']);
	});

	it('a run resuming a run of another job moves into that job, so the pane is in one tree', () => {
		const model = modelFromText(
			[
				startRun('first'),
				perstack('stopRunByInteractiveTool', 'first', {checkpoint: {status: 'stoppedByInteractiveTool', stepNumber: 1}}),
				JSON.stringify({
					type: 'startRun',
					id: 's2',
					jobId: 'other-job',
					runId: 'second',
					expertKey: 'expert-first',
					initialCheckpoint: {status: 'stoppedByInteractiveTool', runId: 'first'},
				}),
			].join('\n'),
		);
		expectConsistent(model);
		expect(model.runs.get('second')?.jobId).toBe('job');
	});

	it('adopting children scanned every run on every start (50,000 runs took minutes)', () => {
		const lines = Array.from({length: 50_000}, (_, i) => startRun(`r${i}`));
		const {result: model, ms} = timed(() => modelFromText(lines.join('\n')));
		expect(model.runs.size).toBe(50_000);
		expect(ms).toBeLessThan(10_000);
	});

	it('making a repeated activity id unique counted up from #2 each time (50,000 equal ids took minutes)', () => {
		// drover events have no ids: each retry of a run is `<run>:retry`, made unique by a count.
		const retry = JSON.stringify({kind: 'output_retry', runId: 'r', ts: 1_700_000_000_000, attempt: 1, reason: 'again'});
		const lines = [
			JSON.stringify({kind: 'run_start', runId: 'r', ts: 1_700_000_000_000, agentId: 'a', specHash: 'x'}),
			...Array.from({length: 50_000}, () => retry),
		];
		const {result: model, ms} = timed(() => modelFromText(lines.join('\n')));
		expect(model.activities.at(-1)?.id).toBe('r:retry#50000');
		expect(new Set(model.activities.map(activity => activity.id)).size).toBe(model.activities.length);
		expect(ms).toBeLessThan(10_000);
	});

	describe('a delegation chain 20,000 runs deep', () => {
		const lines = Array.from({length: 20_000}, (_, i) =>
			i === 0 ? startRun('r0') : startRun(`r${i}`, {delegatedBy: {runId: `r${i - 1}`, toolCallId: `t${i}`}}),
		);
		const model = modelFromText(lines.join('\n'));
		const job = model.jobs.get('job')!;

		it('overflowed the call stack walking the tree (the summary crashed)', () => {
			expect(runsInTreeOrder(model, job)).toHaveLength(20_000);
			expect(panesInTreeOrder(model, job).at(-1)?.depth).toBe(19_999);
			expect(buildSummary(model).jobs[0]?.runs).toHaveLength(20_000);
		});

		it('indented each transcript line by its depth (gigabytes of spaces) and measured depth from the top each time', () => {
			const deepest = model.runs.get('r19999')!;
			expect(depthOf(model, deepest)).toBe(19_999);
			const {result: table, ms} = timed(() => summaryTable(model));
			expect(ms).toBeLessThan(10_000);
			expect(Math.max(...table.split('\n').map(line => line.length))).toBeLessThan(maxIndentDepth * 2 + 200);
			const last = model.activities.at(-1)!;
			expect(transcriptLine(model, last)).toMatch(/^ {64}\(depth 19999\) \[expert-r19999\] 💬 query/);
		});
	});

	it('a timestamp beyond what a Date can hold crashed the inspector (toISOString throws)', () => {
		const model = modelFromText([startRun('r'), perstack('retry', 'r', {reason: 'r', timestamp: 1e300})].join('\n'));
		const retry = model.activities.at(-1)!;
		expect(retry.timestamp).toBeUndefined();
		expect(() => inspectorLines(model, retry, undefined, 80)).not.toThrow();
	});

	it('token counts of 1e308 added up to Infinity, which is null in --summary --json', () => {
		const model = modelFromText(
			[
				startRun('r'),
				perstack('continueToNextStep', 'r', {checkpoint: {status: 'proceeding', stepNumber: 1}, step: {usage: {inputTokens: 1e308, outputTokens: '1e308'}}}),
				perstack('continueToNextStep', 'r', {checkpoint: {status: 'proceeding', stepNumber: 2}, step: {usage: {inputTokens: 1e308, outputTokens: -1e308}}}),
				JSON.stringify({kind: 'usage', runId: 'd', ts: 1, usage: {inputTokens: 1e308, outputTokens: 'NaN'}}),
				JSON.stringify({kind: 'usage', runId: 'd', ts: 2, usage: {inputTokens: 1e308, outputTokens: 5}}),
			].join('\n'),
		);
		const summary = buildSummary(model);
		const usages = summary.jobs.flatMap(job => [job.usage, ...job.runs.map(run => run.usage)]);
		for (const usage of usages) for (const count of Object.values(usage)) expect(Number.isFinite(count)).toBe(true);
		// Infinity would come back from JSON as null.
		expect(JSON.parse(JSON.stringify(usages))).toEqual(usages);
	});

	it('the inspector did not sanitise field labels, and a child run id is one', () => {
		const evilChild = 'child\u001B]0;title\u0007\u001B[31m';
		const model = modelFromText(
			[
				startRun('parent'),
				perstack('callDelegate', 'parent', {toolCalls: [{id: 'call-1', skillName: 'helper', toolName: 'helper', args: {query: 'q'}}]}),
				JSON.stringify({
					type: 'startRun',
					id: 'c',
					jobId: 'job',
					runId: evilChild,
					expertKey: 'helper',
					initialCheckpoint: {status: 'init', delegatedBy: {runId: 'parent', toolCallId: 'call-1'}},
				}),
			].join('\n'),
		);
		const delegate = model.activities.find(activity => activity.type === 'delegate')!;
		const text = inspectorLines(model, delegate, undefined, 200)
			.map(line => line.text)
			.join('\n');
		expect(text).toContain('child␛]0;title␇␛[31m');
		expect(unsafeForTerminal.test(text)).toBe(false);
	});

	it('--json passed C1 controls and bidi overrides through raw (U+009B is CSI to many terminals)', () => {
		const value = {text: 'a\u009B2Jb\u202Ec\u2028d\u007Fe\u001B[0m', nested: ['\u0085']};
		const json = jsonForTerminal(value);
		expect(unsafeForTerminal.test(json)).toBe(false);
		expect(json).toContain('\\u009B2J');
		expect(JSON.parse(json)).toEqual(value);
	});

	it('a query over 250 characters was searched in time its length times each text’s (30,000 characters over 200 long results took minutes)', () => {
		// V8's own search compares the part of a long needle its tables do not cover at each place; a text of
		// one letter and a query of that letter around an `x` is its worst case.
		const lines = Array.from({length: 200}, (_, index) => [
			perstackLine('callTools', {
				newMessage: {contents: []},
				toolCalls: [{id: `c${index}`, skillName: '@perstack/base', toolName: 'exec', args: {command: 'cat'}}],
			}),
			perstackLine('resolveToolResults', {
				toolResults: [{id: `c${index}`, skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', id: 't', text: `x${'a'.repeat(64_000)}`}]}],
			}),
		]).flat();
		const model = modelFromText(lines.join('\n'));
		expect(model.activities).toHaveLength(200);
		const query = `${'a'.repeat(200)}x${'a'.repeat(30_000)}`;
		const {result, ms} = timed(() => findMatches(model, query));
		expect(result).toEqual([]);
		expect(findMatches(model, `x${'a'.repeat(30_000)}`)).toHaveLength(200);
		expect(ms).toBeLessThan(10_000);
	});

	it('a 20,000-character query at the inspector’s / overflowed the stack (its regular expression), and took seconds from 5,000', () => {
		const lines = Array.from({length: 2000}, (_, index) => ({text: `${'abcdefghij'.repeat(10)}${index}`}));
		const query = 'abcdefghij'.repeat(2000);
		const {result, ms} = timed(() => findInInspector([...lines, {text: `>${query.toUpperCase()}<`}], query));
		expect(result).toEqual([{line: 2000, start: 1, end: 20_001}]);
		expect(ms).toBeLessThan(5_000);
	});

	it('wrapping a long line was quadratic (the inspector froze on a 500 KB tool result)', () => {
		const line = '{"key":"value", '.repeat(40_000);
		const {result: lines, ms} = timed(() => wrapToWidth(line, 80));
		// Breaks fall on spaces, which may be dropped there; nothing else is lost.
		expect(lines.join('').replaceAll(' ', '')).toBe(line.replaceAll(' ', ''));
		expect(lines.every(piece => piece.length <= 80)).toBe(true);
		expect(ms).toBeLessThan(5_000);
	});
});

describe('a byte order mark', () => {
	it.each([1, 2])('split over the first reads (%i byte at a time) was read as part of the first event, which became a bad line', chunkSize => {
		const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${startRun('r1')}\n`)]);
		const model = modelFromText(text, {chunkSize});
		expect(model.diagnosticCount).toBe(0);
		expect(model.runs.has('r1')).toBe(true);
	});

	it('on its own, cut short by the end of the input, is one bad line, not lost', () => {
		const model = modelFromText(Buffer.from([0xef, 0xbb]), {chunkSize: 1});
		expect(model.diagnosticCount).toBe(1);
	});
});
