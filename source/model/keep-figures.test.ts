import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, modelFromText, runByExpert} from '../../test/helpers/load.js';
import {shapeLines} from '../../tools/shape-log.js';
import {createModel, isToolActivity, keepFiguresOnly, keepNoMessageLines, releasedActivity, type Model} from './state.js';

/*
 * What a model that keeps figures only (`Model.figuresOnly`: the summaries, `--conversation`) still
 * decides as a model that keeps everything does, though it let the activities go.
 */

const base = {jobId: 'job-1', runId: 'run-1', expertKey: 'expert', timestamp: 1_700_000_000_000};

function line(id: string, type: string, fields: Record<string, unknown>): string {
	return JSON.stringify({type, id, ...base, ...fields});
}

const start = line('e-start', 'startRun', {
	stepNumber: 1,
	initialCheckpoint: {id: 'cp-0', runId: 'run-1', status: 'init', stepNumber: 1, expert: {key: 'expert'}},
	inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: 'do it'}]}],
});

function call(id: string, toolCallId: string, step: number): string {
	return line(id, 'callTools', {stepNumber: step, toolCalls: [{id: toolCallId, skillName: '@perstack/base', toolName: 'exec', args: {command: 'ls'}}]});
}

function result(id: string, toolCallId: string, step: number): string {
	return line(id, 'resolveToolResults', {
		stepNumber: step,
		toolResults: [
			{id: toolCallId, skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', text: `out of ${toolCallId}`, id: `part-${id}`}]},
		],
	});
}

function complete(id: string): string {
	return line(id, 'completeRun', {
		stepNumber: 3,
		checkpoint: {id: `cp-${id}`, runId: 'run-1', status: 'completed', stepNumber: 3, expert: {key: 'expert'}},
		text: 'done',
	});
}

function both(lines: string[]): {kept: Model; figures: Model} {
	const text = `${lines.join('\n')}\n`;
	const figures = createModel();
	keepFiguresOnly(figures);
	return {kept: modelFromText(text), figures: modelFromText(text, {model: figures})};
}

/** A fixture read into a model that keeps figures only. */
function figuresOnlyModelOf(fixture: string): Model {
	const model = createModel();
	keepFiguresOnly(model);
	return modelFromText(readFileSync(fixturePath(fixture)), {source: fixture, model});
}

function counts(model: Model): number[] {
	return [...model.runs.values()].map(run => run.activityCount);
}

describe('a model that keeps figures only', () => {
	it('lets a tool call go once it has its result, and keeps one still waiting', () => {
		const {figures} = both([start, call('e-1', 'call-1', 1), call('e-2', 'call-2', 2), result('e-3', 'call-1', 2)]);
		const kept = figures.activities.filter(activity => activity !== releasedActivity);
		expect(kept.map(activity => (isToolActivity(activity) ? activity.toolCallId : activity.type))).toEqual(['call-2']);
		// The two calls keep their slots (the answered one holds the stand-in); the query, let go as it was made,
		// takes none, and is counted all the same.
		expect(figures.activities).toHaveLength(2);
		expect(figures.runs.get('run-1')?.activityCount).toBe(3);
	});

	it("does not list in a run's pane or unsettled calls the calls answered at once and let go", () => {
		const {figures} = both([start, call('e-1', 'call-1', 1), result('e-2', 'call-1', 1), call('e-3', 'call-2', 2), result('e-4', 'call-2', 2)]);
		const run = figures.runs.get('run-1')!;
		expect(figures.panes.get(run.paneId)?.activityIndices).toEqual([]);
		expect(run.unsettled).toEqual([]);
		expect(run.activityCount).toBe(3);
	});

	it('still matches a late result to its call', () => {
		const lines = [start, call('e-1', 'call-1', 1), call('e-2', 'call-2', 2), result('e-3', 'call-2', 2), result('e-4', 'call-1', 2), complete('e-5')];
		const {kept, figures} = both(lines);
		expect(counts(figures)).toEqual([4]);
		expect(counts(figures)).toEqual(counts(kept));
		expect(figures.activities.every(activity => activity === releasedActivity)).toBe(true);
	});

	it('still drops a repeated event, and says so', () => {
		const {kept, figures} = both([start, call('e-1', 'call-1', 1), result('e-2', 'call-1', 1), result('e-2', 'call-1', 1), complete('e-3'), complete('e-3')]);
		expect(figures.diagnostics.map(diagnostic => diagnostic.reason)).toEqual([
			'duplicate event: resolveToolResults e-2 was seen before; ignored',
			'duplicate event: completeRun e-3 was seen before; ignored',
		]);
		expect(figures.diagnostics).toEqual(kept.diagnostics);
		expect(counts(figures)).toEqual([3]);
	});

	it('finds a call it let go when the call or its result comes again under another event id', () => {
		const lines = [start, call('e-1', 'call-1', 1), result('e-2', 'call-1', 1), call('e-3', 'call-1', 1), result('e-4', 'call-1', 1), complete('e-5')];
		const {kept, figures} = both(lines);
		expect(counts(figures)).toEqual([3]);
		expect(counts(figures)).toEqual(counts(kept));
	});

	it('makes one completion and one error of a run whose end is said again', () => {
		const drover = (kind: string, status: string) => JSON.stringify({kind, runId: 'd-1', ts: 1_795_389_000_000, agentId: 'agent', ...(status ? {status} : {})});
		const {kept, figures} = both([
			drover('run_start', ''),
			drover('run_end', 'succeeded'),
			drover('run_end', 'succeeded'),
			drover('run_end', 'failed'),
			drover('run_end', 'failed'),
		]);
		expect(kept.activities.map(activity => activity.type)).toEqual(['complete', 'error']);
		expect(counts(figures)).toEqual([2]);
	});

	it('still links a delegation to its children, and a resumed run to its pane', () => {
		const full = modelFromFixtures('real/delegate.ndjson');
		const lean = figuresOnlyModelOf('real/delegate.ndjson');
		const child = runByExpert(lean, 'child-expert');
		const coordinator = runByExpert(lean, 'coordinator', 0);
		const resumed = runByExpert(lean, 'coordinator', 1);
		const delegate = lean.activities.find(activity => activity.type === 'delegate');
		expect(delegate?.type === 'delegate' && delegate.childRunIds).toEqual([child.runId]);
		expect(child.delegatingActivityId).toBe(delegate?.id);
		expect(coordinator.childRunIds).toEqual([child.runId]);
		expect(resumed.paneId).toBe(coordinator.paneId);
		expect(counts(lean)).toEqual(counts(full));
	});
});

describe('the streaming text of a model that keeps figures only', () => {
	it('is let go once its run has ended, where a model that keeps everything keeps it', () => {
		const full = modelFromFixtures('demo.ndjson');
		const lean = figuresOnlyModelOf('demo.ndjson');
		const streamed = (model: Model) => [...model.runs.values()].filter(run => run.streams.size > 0).map(run => run.runId);
		const ended = [...lean.runs.values()].filter(run => run.status === 'completed').map(run => run.runId);
		expect(ended.length).toBeGreaterThan(0);
		expect(streamed(full)).toEqual(expect.arrayContaining(ended));
		expect(streamed(lean).filter(runId => ended.includes(runId))).toEqual([]);
	});
});

describe('the step records of a model that keeps figures only', () => {
	it("say where each step's messages are, as a full model's do, and nothing the summaries do not show", () => {
		const full = modelFromFixtures('demo.ndjson');
		const lean = figuresOnlyModelOf('demo.ndjson');
		const where = (model: Model) =>
			[...model.runs.values()].flatMap(run => run.steps.map(record => [run.runId, record.step, record.messageLine, record.messageOffset]));
		expect(where(lean)).toEqual(where(full));
		expect(where(lean).length).toBeGreaterThan(0);
		const leanRecords = [...lean.runs.values()].flatMap(run => run.steps);
		expect(leanRecords.every(record => record.startedAt === undefined && record.finishedAt === undefined && record.checkpointId === undefined)).toBe(true);
		expect([...full.runs.values()].some(run => run.steps.some(record => record.checkpointId !== undefined))).toBe(true);
	});
});

describe("a summary's model, which reads no step's messages again", () => {
	it("keeps a run's first step record only, and every run comes out with the same figures as with them all", () => {
		let manyRecords = false;
		for (const fixture of ['demo.ndjson', 'daemon-strategy.ndjson', 'mixed-step.ndjson', 'max-steps.ndjson', 'continue-followup.ndjson']) {
			const withRecords = figuresOnlyModelOf(fixture);
			const summary = createModel();
			keepFiguresOnly(summary);
			keepNoMessageLines(summary);
			modelFromText(readFileSync(fixturePath(fixture)), {source: fixture, model: summary});
			const figures = (model: Model) =>
				[...model.runs.values()].map(run => [run.runId, run.status, run.endedSteps, run.usage, run.activityCount, run.startedAt, run.endedAt, run.currentStep]);
			expect(figures(summary), fixture).toEqual(figures(withRecords));
			manyRecords ||= [...withRecords.runs.values()].some(run => run.steps.length > 1);
			const firstOnly = (model: Model) => [...model.runs.values()].map(run => run.steps.slice(0, 1).map(record => record.step));
			expect(firstOnly(summary), fixture).toEqual(firstOnly(withRecords));
			expect(
				[...summary.runs.values()].every(run => run.steps.length <= 1),
				fixture,
			).toBe(true);
		}

		expect(manyRecords).toBe(true);
	});
});

describe('what every model shares', () => {
	it('children of one parent share who delegated them', () => {
		const model = modelFromText(`${[...shapeLines({shape: 'wide', runs: 4, seed: 1})].join('\n')}\n`);
		const children = [...model.runs.values()].filter(run => run.parentRunId !== null);
		expect(children).toHaveLength(3);
		expect(children.map(run => run.delegatedBy)).toEqual(children.map(() => ({expertKey: 'expert-0', runId: 'run-0'})));
		expect(new Set(children.map(run => run.delegatedBy)).size).toBe(1);
	});
});
