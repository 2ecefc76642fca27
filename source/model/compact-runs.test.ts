import {readFileSync} from 'node:fs';
import {relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {fixtureFiles, root} from '../../test/helpers/fixture-files.js';
import {modelFromText} from '../../test/helpers/load.js';
import {shapeLines, shapes} from '../tools/shape-log.js';
import {keepRunsInRowsFrom, livePane, liveRun, RunTable} from './run-tables.js';
import {createModel, keepFiguresOnly, type Model} from './state.js';

/*
 * A model that keeps figures only keeps closed runs and their panes as rows once it has many (compact-runs.ts,
 * run-tables.ts; here from its first run, or its 100th, on). Read through
 * `model.runs` and `model.panes`, and taken out of their rows whole, they must be exactly what the same model
 * keeping its runs whole has, whatever came after a run closed.
 */

/** `rowsFrom`: how many runs the model keeps whole before it keeps them in rows (0: none). */
function both(text: string | Buffer, rowsFrom = 0): {rows: Model; whole: Model} {
	const rows = createModel();
	keepFiguresOnly(rows);
	keepRunsInRowsFrom(rows, rowsFrom);
	const whole = createModel();
	keepFiguresOnly(whole);
	keepRunsInRowsFrom(whole, Number.POSITIVE_INFINITY);
	return {rows: modelFromText(text, {model: rows}), whole: modelFromText(text, {model: whole})};
}

/** A view's fields, read one by one (a view keeps them behind getters), as a plain object. */
function fieldsOf(value: object, like: object): Record<string, unknown> {
	const fields: Record<string, unknown> = {};
	for (const key of Object.keys(like)) fields[key] = Reflect.get(value, key);
	return fields;
}

function expectSameRuns(rows: Model, whole: Model): void {
	// A model of fewer runs than it keeps whole has none in rows.
	if (rows.runs.size > 100) expect(rows.runs).toBeInstanceOf(RunTable);
	expect([...rows.runs.keys()]).toEqual([...whole.runs.keys()]);
	expect([...rows.panes.keys()]).toEqual([...whole.panes.keys()]);
	expect(rows.runs.size).toBe(whole.runs.size);
	expect(rows.panes.size).toBe(whole.panes.size);
	expect(rows.jobs).toEqual(whole.jobs);
	expect([rows.rev, rows.treeRev, rows.depthEpoch, rows.events]).toEqual([whole.rev, whole.treeRev, whole.depthEpoch, whole.events]);
	for (const [id, run] of whole.runs) {
		// As readers see it, then taken out of its row as the reducer would.
		expect(fieldsOf(rows.runs.get(id)!, run)).toEqual({...run});
		expect(liveRun(rows, id)).toStrictEqual(run);
	}

	for (const [id, pane] of whole.panes) {
		expect(fieldsOf(rows.panes.get(id)!, pane)).toEqual({...pane});
		expect(livePane(rows, id)).toStrictEqual(pane);
	}
}

const base = {jobId: 'job-1', timestamp: 1_700_000_000_000};

function line(id: string, type: string, runId: string, expertKey: string, fields: Record<string, unknown>): string {
	return JSON.stringify({type, id, ...base, runId, expertKey, ...fields});
}

function start(id: string, runId: string, expertKey: string, delegatedBy?: {runId: string; expertKey: string; toolCallId: string}): string {
	return line(id, 'startRun', runId, expertKey, {
		stepNumber: 1,
		initialCheckpoint: {
			id: `cp-${id}`,
			runId,
			status: 'init',
			stepNumber: 1,
			expert: {key: expertKey},
			...(delegatedBy ? {delegatedBy: {runId: delegatedBy.runId, expert: {key: delegatedBy.expertKey}, toolCallId: delegatedBy.toolCallId}} : {}),
		},
		inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: `query of ${runId}`}]}],
	});
}

function complete(id: string, runId: string, expertKey: string): string {
	return line(id, 'completeRun', runId, expertKey, {
		stepNumber: 1,
		checkpoint: {id: `cp-${id}`, runId, status: 'completed', stepNumber: 1, expert: {key: expertKey}},
		text: `done ${runId}`,
		usage: {inputTokens: 10, outputTokens: 5, reasoningTokens: 0, totalTokens: 15, cachedInputTokens: 0},
	});
}

function delegate(id: string, runId: string, expertKey: string, toolCallId: string, child: string): string {
	return line(id, 'callDelegate', runId, expertKey, {
		stepNumber: 1,
		toolCalls: [{id: toolCallId, skillName: child, toolName: child, args: {query: 'do it'}}],
	});
}

function text(lines: string[]): string {
	return `${lines.join('\n')}\n`;
}

describe('runs kept as rows', () => {
	it('are most of the runs of a wide job once they closed: only a run events still come for stays whole', () => {
		const {rows} = both(text([...shapeLines({shape: 'wide', runs: 300, seed: 1})]));
		expect(rows.runs).toBeInstanceOf(RunTable);
		if (rows.runs instanceof RunTable) expect(rows.runs.rows.wholeRuns.size).toBeLessThanOrEqual(1);
		expect(rows.runs.size).toBe(300);
	});

	it('are the same runs when a run is touched after it was made a row', () => {
		const retry = line('e-4', 'retry', 'run-1', 'solo', {stepNumber: 1, reason: 'late retry'});
		const {rows, whole} = both(text([start('e-1', 'run-1', 'solo'), complete('e-2', 'run-1', 'solo'), start('e-3', 'run-2', 'other'), retry]));
		expect(rows.runs.get('run-1')?.activityCount).toBe(3);
		expectSameRuns(rows, whole);
	});

	it('are the same runs when a delegation arrives after its child closed', () => {
		const lines = [
			start('e-1', 'parent', 'boss'),
			start('e-2', 'child', 'worker', {runId: 'parent', expertKey: 'boss', toolCallId: 'call-1'}),
			complete('e-3', 'child', 'worker'),
			delegate('e-4', 'parent', 'boss', 'call-1', 'worker'),
		];
		const {rows, whole} = both(text(lines));
		expect(rows.runs.get('child')?.delegatingActivityId).toBe('call-1');
		expect(rows.runs.get('parent')?.childRunIds).toEqual(['child']);
		expectSameRuns(rows, whole);
	});

	it('are the same runs when two children wait for one delegation that arrives after both closed', () => {
		const by = {runId: 'parent', expertKey: 'boss', toolCallId: 'call-1'};
		const lines = [
			start('e-1', 'parent', 'boss'),
			start('e-2', 'a', 'worker', by),
			complete('e-3', 'a', 'worker'),
			start('e-4', 'b', 'worker', by),
			complete('e-5', 'b', 'worker'),
			delegate('e-6', 'parent', 'boss', 'call-1', 'worker'),
		];
		const {rows, whole} = both(text(lines));
		expect([rows.runs.get('a')?.delegatingActivityId, rows.runs.get('b')?.delegatingActivityId]).toEqual(['call-1', 'call-1']);
		expectSameRuns(rows, whole);
	});

	for (const file of fixtureFiles()) {
		const name = relative(root, file);
		it(`are the same runs for ${name}, and for it given twice`, () => {
			const bytes = readFileSync(file);
			const once = both(bytes);
			expectSameRuns(once.rows, once.whole);
			const twice = both(Buffer.concat([bytes, Buffer.from('\n'), bytes]));
			expectSameRuns(twice.rows, twice.whole);
		});
	}

	it('are the same runs for a resumed coordinator, whose pane holds two runs', () => {
		const {rows, whole} = both(readFileSync(`${root}fixtures/parallel-delegate.ndjson`));
		const resumed = [...whole.panes.values()].filter(pane => pane.runIds.length > 1);
		expect(resumed.length).toBeGreaterThan(0);
		expectSameRuns(rows, whole);
	});

	for (const shape of shapes) {
		it(`are the same runs for the ${shape} shape, in rows from the start or from the 100th run on`, () => {
			const lines = text([...shapeLines({shape, runs: 300, seed: 1})]);
			const fromStart = both(lines);
			expectSameRuns(fromStart.rows, fromStart.whole);
			const fromHundred = both(lines, 100);
			expectSameRuns(fromHundred.rows, fromHundred.whole);
		});
	}

	it('are not used by a model of a few runs, whose runs cost little whole', () => {
		const model = createModel();
		keepFiguresOnly(model);
		modelFromText(text([...shapeLines({shape: 'wide', runs: 300, seed: 1})]), {model});
		expect(model.runs).not.toBeInstanceOf(RunTable);
	});
});
