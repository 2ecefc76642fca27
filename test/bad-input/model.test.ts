import {describe, expect, it} from 'vitest';
import type {Activity, Model, ToolActivity} from '../../source/model/state.js';
import {isToolActivity} from '../../source/model/state.js';
import {activityJsonLine} from '../../source/output/activity-json.js';
import {buildSummary} from '../../source/output/summary.js';
import {summaryTable} from '../../source/output/summary-table.js';
import {transcriptLine} from '../../source/output/transcript.js';
import {safeJson} from '../../source/text/describe-activity.js';
import {inspectorLines} from '../../source/view-model/lines/inspector-lines.js';
import {modelProblems, outputProblems} from '../fuzz/invariants.js';
import {modelFromText} from '../helpers/load.js';
import {badLineNumber, corpus, event, framed, nested} from './corpus.js';

/*
 * Every case of the corpus, read in-process the way a file is: whole, and cut into tiny chunks so each
 * bad line also straddles chunk boundaries.
 */

function runActivities(model: Model, runId = 'run-1'): Activity[] {
	return model.activities.filter(activity => activity.runId === runId);
}

/** The valid run around the bad lines came through whole. */
function expectFrameIntact(model: Model): void {
	const run = model.runs.get('run-1');
	expect(run?.status).toBe('completed');
	const core = runActivities(model).filter(activity => ['query', 'exec', 'complete'].includes(activity.type));
	expect(core.map(activity => activity.type)).toEqual(['query', 'exec', 'complete']);
	const exec = core[1];
	expect(exec && isToolActivity(exec) ? exec.result?.text : undefined).toBe('ok');
	const complete = core[2];
	expect(complete?.type === 'complete' ? complete.text : undefined).toBe('all green');
}

/** Whatever the model holds, every output can be made from it. */
function expectOutputsWork(model: Model): void {
	expect(modelProblems(model)).toEqual([]);
	expect(outputProblems(model)).toEqual([]);
	for (const activity of model.activities) {
		transcriptLine(model, activity);
		JSON.parse(activityJsonLine(activity));
		inspectorLines(model, activity, undefined, 80);
	}

	summaryTable(model);
}

describe.each(corpus)('bad input: $name', testCase => {
	for (const chunkSize of [undefined, 1, 7]) {
		it(`is diagnosed line by line and loses none of the valid events (chunks of ${chunkSize ?? 'everything'})`, () => {
			const model = modelFromText(framed(testCase.lines), chunkSize === undefined ? {} : {chunkSize});
			const expected = testCase.diagnostic.flatMap((isDiagnostic, n) => (isDiagnostic ? [badLineNumber(n)] : []));
			expect(model.diagnostics.map(diagnostic => diagnostic.line)).toEqual(expected);
			expect(model.diagnosticCount).toBe(expected.length);
			expectFrameIntact(model);
			expectOutputsWork(model);
		});
	}

	it('reads the same with CRLF line ends', () => {
		const model = modelFromText(framed(testCase.lines, '\r\n'), {chunkSize: 5});
		expect(model.diagnostics.map(diagnostic => diagnostic.line)).toEqual(
			testCase.diagnostic.flatMap((isDiagnostic, n) => (isDiagnostic ? [badLineNumber(n)] : [])),
		);
		expectFrameIntact(model);
	});
});

describe('what the bad lines that are still events turn into', () => {
	const byName = (name: string) => {
		const found = corpus.find(testCase => testCase.name.startsWith(name));
		if (!found) throw new Error(`no case ${name}`);
		return modelFromText(framed(found.lines));
	};

	const retries = (model: Model) => runActivities(model).filter(activity => activity.type === 'retry');

	it('invalid UTF-8 inside a string becomes U+FFFD and the event is kept', () => {
		const [retry] = retries(byName('invalid UTF-8'));
		expect(retry?.type === 'retry' ? retry.reason : undefined).toBe('caf\uFFFD(\uFFFD');
	});

	it('unknown types are counted by type, not diagnosed', () => {
		const model = byName('unknown types');
		expect(Object.fromEntries(model.unknownEvents)).toEqual({startPlanning: 1, brand_new_kind: 1, futureDaemonEvent: 1});
	});

	it('an event id seen before changes nothing: the first event counts, the repeats are diagnosed (#21.7)', () => {
		const model = byName('duplicate event ids');
		expect(retries(model).map(activity => [activity.id, activity.type === 'retry' ? activity.reason : ''])).toEqual([['dup', 'first']]);
		expect(model.diagnostics.map(diagnostic => diagnostic.reason)).toEqual([
			'duplicate event: retry dup was seen before; ignored',
			'duplicate event: retry dup was seen before; ignored',
		]);
	});

	it('a duplicated tool call is one activity', () => {
		const model = byName('duplicate lines');
		expect(runActivities(model).map(activity => activity.type)).toEqual(['query', 'exec', 'complete']);
	});

	it('numbers as strings are read; NaN-like, infinite and out-of-range values count as missing, and so do negative and too large step numbers', () => {
		const model = byName('numbers as strings');
		const steps = Object.fromEntries(retries(model).map(activity => [activity.id, [activity.step, activity.timestamp]]));
		// A retry without a step number of its own is of the step its run is at.
		expect(steps).toEqual({
			n1: [1, 1_700_000_000_000],
			n2: [1, 1_700_000_000_000],
			n3: [1, 1_700_000_000_000],
			n4: [1, undefined],
			// A Date cannot hold 1e308 ms: the inspector would throw formatting it.
			n5: [1, undefined],
			n6: [1, -1],
		});
		expect(JSON.stringify(buildSummary(model))).not.toContain('null,"endedAt":null');
	});

	it('fields the viewer does not need may be absent or of the wrong type', () => {
		const model = byName('fields a viewer never needs');
		expect(retries(model).map(activity => (activity.type === 'retry' ? activity.reason : ''))).toEqual(['', 'r']);
	});
});

describe('deeply nested values inside valid events', () => {
	const deep = nested(100_000);
	const lines = [
		event('startRun', {initialCheckpoint: {status: 'init', stepNumber: 1}}),
		event('callTools', {toolCalls: [{id: 'deep-call', skillName: 'mcp', toolName: 'deep', args: {x: 1}}]}).replace('{"x":1}', deep),
		event('resolveToolResults', {
			toolResults: [{id: 'deep-call', skillName: 'mcp', toolName: 'deep', result: [{type: 'textPart', text: `{"error":${deep}}`}]}],
		}),
		JSON.stringify({kind: 'run_start', runId: 'drover-1', ts: 1, agentId: 'agent'}),
		JSON.stringify({kind: 'tool_call_start', runId: 'drover-1', ts: 2, turn: 1, toolUseId: 'u1', toolName: 'grep', input: {x: 1}}).replace('{"x":1}', deep),
		JSON.stringify({kind: 'tool_call_end', runId: 'drover-1', ts: 3, turn: 1, toolUseId: 'u1', result: 1}).replace('"result":1', `"result":${deep}`),
		JSON.stringify({type: 'step_started', runId: 'daemon-1', stepName: 'step', message: 'go'}),
		JSON.stringify({type: 'agent_streaming', runId: 'daemon-1', agentName: 'step', event: {type: 'tool-call', toolName: 't', args: 'X'}}).replace(
			'"X"',
			JSON.stringify(deep),
		),
		JSON.stringify({type: 'agent_streaming', runId: 'daemon-1', agentName: 'step', event: {type: 'tool-result', toolName: 't', output: 1}}).replace(
			'"output":1',
			`"output":${deep}`,
		),
	];
	const model = modelFromText(lines.join('\n'));

	it('are events, not diagnostics (regression: JSON.stringify of a deep tool result threw and cost the event)', () => {
		expect(model.diagnostics).toEqual([]);
		const tools = model.activities.filter(isToolActivity);
		expect(tools.map(tool => [tool.toolName, tool.result !== undefined])).toEqual([
			['deep', true],
			['grep', true],
			['t', true],
		]);
		const [mcp] = tools;
		expect(mcp?.result?.error).toBe('[value too deep to show]');
	});

	it('can be shown by every output without throwing', () => {
		expectOutputsWork(model);
		for (const activity of model.activities.filter((candidate): candidate is ToolActivity => isToolActivity(candidate))) {
			expect(safeJson(activity.args)).toBe('[value too deep or cyclic to show]');
			expect(JSON.parse(activityJsonLine(activity)).args).toBe('[too deep to serialise]');
			expect(transcriptLine(model, activity)).toContain('[value too deep or cyclic to show]');
			const raw = lines[activity.ref.line - 1];
			expect(inspectorLines(model, activity, raw, 80).length).toBeGreaterThan(5);
		}
	});
});
