import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {fixtureFiles, root} from '../../../test/helpers/fixture-files.js';
import {modelFromText} from '../../../test/helpers/load.js';
import {expectEqual, expectSame} from '../../../test/helpers/expect-same.js';
import {shapeLines, shapes} from '../../../tools/shape-log.js';
import {createModel, keepFiguresOnly, keepNoMessageLines, type Model} from '../state.js';
import {RecordTable} from './record-table.js';
import {paneFitsRecord} from './record-values.js';
import {livePane, liveRun} from './run-store.js';

/*
 * A model that keeps figures only keeps closed runs and their panes as records once it has many (run-records.ts,
 * run-store.ts; here from its first run, or its 100th, on). Read through
 * `model.runs` and `model.panes`, and taken out of their records whole, they must be exactly what the same model
 * keeping its runs whole has, whatever came after a run closed.
 */

/**
 * `recordsFrom`: how many runs the model keeps whole before it keeps them as records (0: none). `summary`: the
 * models keep no step's messages' places either, as a summary's (`keepNoMessageLines`).
 */
function both(text: string | Buffer, recordsFrom = 0, summary = false): {records: Model; whole: Model} {
	const records = createModel();
	keepFiguresOnly(records, recordsFrom);
	const whole = createModel();
	keepFiguresOnly(whole, Number.POSITIVE_INFINITY);
	if (summary) for (const model of [records, whole]) keepNoMessageLines(model);
	return {records: modelFromText(text, {model: records}), whole: modelFromText(text, {model: whole})};
}

/** A view's fields, read one by one (a view keeps them behind getters), as a plain object. */
function fieldsOf(value: object, like: object): Record<string, unknown> {
	const fields: Record<string, unknown> = {};
	for (const key of Object.keys(like)) fields[key] = Reflect.get(value, key);
	return fields;
}

function expectSameRuns(records: Model, whole: Model): void {
	// A model of fewer runs than it keeps whole has none as records.
	if (records.runs.size > 100) expect(records.runs).toBeInstanceOf(RecordTable);
	expect([...records.runs.keys()]).toEqual([...whole.runs.keys()]);
	expect([...records.panes.keys()]).toEqual([...whole.panes.keys()]);
	expect(records.runs.size).toBe(whole.runs.size);
	expect(records.panes.size).toBe(whole.panes.size);
	expectEqual(records.jobs, whole.jobs);
	expect([records.rev, records.treeRev, records.depthEpoch, records.events]).toEqual([whole.rev, whole.treeRev, whole.depthEpoch, whole.events]);
	// expectEqual and expectSame: toEqual and toStrictEqual, decided first by isDeepStrictEqual (expect-same.ts),
	// for each of hundreds of runs and panes; vitest's own comparisons of them were most of this file's time.
	for (const [id, run] of whole.runs) {
		// As readers see it, then taken out of its record as the reducer would.
		expectEqual(fieldsOf(records.runs.get(id)!, run), {...run});
		expectSame(liveRun(records, id), run);
		// Key for key in the same order too (a usage made again from its columns, say): the summaries' JSON is written so.
		expect(JSON.stringify(liveRun(records, id))).toBe(JSON.stringify(run));
	}

	for (const [id, pane] of whole.panes) {
		expectEqual(fieldsOf(records.panes.get(id)!, pane), {...pane});
		expectSame(livePane(records, id), pane);
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

describe('runs kept as records', () => {
	it('are most of the runs of a wide job once they closed: only a run events still come for stays whole', () => {
		const {records} = both(text([...shapeLines({shape: 'wide', runs: 300, seed: 1})]));
		expect(records.runs).toBeInstanceOf(RecordTable);
		if (records.runs instanceof RecordTable) expect(records.runs.records.wholeRuns.size).toBeLessThanOrEqual(1);
		expect(records.runs.size).toBe(300);
	});

	it('are each read by its own id whatever order a walk asks for them in: in order, backwards, a pane or a parent between', () => {
		const {records, whole} = both(text([...shapeLines({shape: 'wide', runs: 300, seed: 1})]));
		const ids = [...whole.runs.keys()];
		const orders = [ids, [...ids].reverse(), ids.flatMap((id, i) => [id, ids[(i * 7) % ids.length]!])];
		for (const order of orders) {
			for (const id of order) {
				// What the summary's walks ask between runs: the run's pane, whether its parent is there.
				expect(records.runs.get(id)?.expertKey).toBe(whole.runs.get(id)!.expertKey);
				expect(records.panes.get(id)?.paneId).toBe(whole.panes.get(id)?.paneId);
				const parent = whole.runs.get(id)!.parentRunId;
				if (parent !== null) expect(records.runs.has(parent)).toBe(true);
			}
		}

		expect(records.runs.get('no-such-run')).toBeUndefined();
		expect(records.runs.get(ids[0]!)?.runId).toBe(ids[0]);
	});

	it('are the same runs when a run is touched after it was made a record', () => {
		const retry = line('e-4', 'retry', 'run-1', 'solo', {stepNumber: 1, reason: 'late retry'});
		const {records, whole} = both(text([start('e-1', 'run-1', 'solo'), complete('e-2', 'run-1', 'solo'), start('e-3', 'run-2', 'other'), retry]));
		expect(records.runs.get('run-1')?.activityCount).toBe(3);
		expectSameRuns(records, whole);
	});

	it('are the same runs when a delegation arrives after its child closed', () => {
		const lines = [
			start('e-1', 'parent', 'boss'),
			start('e-2', 'child', 'worker', {runId: 'parent', expertKey: 'boss', toolCallId: 'call-1'}),
			complete('e-3', 'child', 'worker'),
			delegate('e-4', 'parent', 'boss', 'call-1', 'worker'),
		];
		const {records, whole} = both(text(lines));
		expect(records.runs.get('child')?.delegatingActivityId).toBe('call-1');
		expect(records.runs.get('parent')?.childRunIds).toEqual(['child']);
		expectSameRuns(records, whole);
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
		const {records, whole} = both(text(lines));
		expect([records.runs.get('a')?.delegatingActivityId, records.runs.get('b')?.delegatingActivityId]).toEqual(['call-1', 'call-1']);
		expectSameRuns(records, whole);
	});

	for (const file of fixtureFiles()) {
		const name = relative(root, file);
		it(`are the same runs for ${name}, and for it given twice`, () => {
			const bytes = readFileSync(file);
			const once = both(bytes);
			expectSameRuns(once.records, once.whole);
			const twice = both(Buffer.concat([bytes, Buffer.from('\n'), bytes]));
			expectSameRuns(twice.records, twice.whole);
		});
	}

	it('are the same runs for a resumed coordinator, whose pane holds two runs', () => {
		const {records, whole} = both(readFileSync(`${root}fixtures/parallel-delegate.ndjson`));
		const resumed = [...whole.panes.values()].filter(pane => pane.runIds.length > 1);
		expect(resumed.length).toBeGreaterThan(0);
		expectSameRuns(records, whole);
	});

	for (const shape of shapes) {
		it(`are the same runs for the ${shape} shape, as records from the start or from the 100th run on`, () => {
			const lines = text([...shapeLines({shape, runs: 300, seed: 1})]);
			const fromStart = both(lines);
			expectSameRuns(fromStart.records, fromStart.whole);
			const fromHundred = both(lines, 100);
			expectSameRuns(fromHundred.records, fromHundred.whole);
		});
	}

	it('take back a resumed coordinator, and the pane of a delegate whose calls took it out step after step once its run closed', () => {
		// Small jobs as the bench's 20,000 (#33): a coordinator delegating to two experts over three steps.
		const directory = mkdtempSync(join(tmpdir(), 'perscope-records-'));
		try {
			const path = join(directory, 'jobs.ndjson');
			const args = ['--seed', '1', '--jobs', '30', '--steps', '3', '--children', '2', '--deltas', '0', '--message-bytes', '100', '--out', path];
			const generated = spawnSync(process.execPath, ['build/tools/generate-log.js', ...args], {cwd: root, encoding: 'utf8'});
			expect(generated.status, generated.stderr).toBe(0);
			const {records, whole} = both(readFileSync(path), 0, true);
			if (!(records.runs instanceof RecordTable)) throw new Error('kept whole');
			// Nor do the coordinators stay whole, stopped for their delegates and resumed: ~1 KB a job.
			expect(records.runs.records.wholeRuns.size).toBe(0);
			// Revived twice, such a pane stayed whole for good, though its run had closed: ~300 bytes a delegate.
			const fitting = [...records.runs.records.wholePanes.values()].filter(pane => paneFitsRecord(pane));
			expect(fitting).toEqual([]);
			// Read before this: what follows takes every run and pane out of its record.
			expectSameRuns(records, whole);
		} finally {
			rmSync(directory, {recursive: true, force: true});
		}
	});

	it('are not used by a model of a few runs, whose runs cost little whole', () => {
		const model = createModel();
		keepFiguresOnly(model);
		modelFromText(text([...shapeLines({shape: 'wide', runs: 300, seed: 1})]), {model});
		expect(model.runs).not.toBeInstanceOf(RecordTable);
	});
});
