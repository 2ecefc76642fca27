import {describe, expect, it} from 'vitest';
import {endInput, type Model} from '../model/state.js';
import {
	barCells,
	isMarkedWait,
	jobTimeline,
	longGapMinMs,
	longWaitMs,
	stepDoes,
	slowestCount,
	stepLanding,
	type Timeline,
	type TimelineRow,
	type TimelineStepRow,
} from './timeline.js';
import {modelFromFixtures, modelFromText, perstackLine, runByExpert} from '../../test/helpers/load.js';
import {stepText} from '../view-model/lines/timeline-text.js';

function onlyJob(model: Model) {
	const [job] = model.jobs.values();
	if (!job) throw new Error('no job');
	return job;
}

function steps(timeline: Timeline): TimelineStepRow[] {
	return timeline.rows.filter(row => row.kind === 'step');
}

/** The waterfall as text: `coordinator#1` for a step, `[planner]` for a pane, indented by depth. */
function outline(model: Model, rows: TimelineRow[]): string[] {
	return rows.map(row => {
		const indent = '  '.repeat(row.depth);
		return row.kind === 'pane' ? `${indent}[${row.expertKey}]` : `${indent}${model.runs.get(row.runId)?.expertKey ?? '?'}#${row.step}`;
	});
}

describe('a waterfall of nested delegations', () => {
	const model = modelFromFixtures('nested-delegate.ndjson');
	const timeline = jobTimeline(model, onlyJob(model));

	it('each child run sits under the step that delegated it, one level deeper, and resumed runs continue their pane', () => {
		expect(outline(model, timeline.rows)).toEqual([
			'[coordinator]',
			'coordinator#1',
			'coordinator#2',
			'  [planner]',
			'  planner#3',
			'  planner#4',
			'    [researcher]',
			'    researcher#5',
			'    researcher#6',
			'    researcher#7',
			'  planner#8',
			'  planner#9',
			'coordinator#10',
			'coordinator#11',
		]);
	});

	it('step times come from the step records: start, finish and duration', () => {
		const coordinator = runByExpert(model, 'coordinator', 0);
		const record = coordinator.steps.find(step => step.step === 1)!;
		const row = steps(timeline).find(step => step.runId === coordinator.runId && step.step === 1)!;
		expect(row.start).toBe(record.startedAt);
		expect(row.end).toBe(record.finishedAt);
		expect(row.durationMs).toBe(95);
		expect(row.usage?.inputTokens).toBe(1281);
		expect(row.checkpointId).toBe(record.checkpointId);
		expect(row.open).toBe(false);
	});

	it('the span runs from the first start to the last end, and a pane spans all of its runs', () => {
		const rows = steps(timeline);
		expect(timeline.spanStart).toBe(Math.min(...timeline.rows.map(row => row.start ?? Infinity)));
		expect(timeline.spanEnd).toBeGreaterThanOrEqual(Math.max(...rows.map(row => row.end ?? 0)));
		const coordinatorPane = timeline.rows[0]!;
		expect(coordinatorPane.kind).toBe('pane');
		expect(coordinatorPane.start).toBe(runByExpert(model, 'coordinator', 0).startedAt);
		expect(coordinatorPane.end).toBe(runByExpert(model, 'coordinator', 1).endedAt);
	});

	it('the slowest steps are marked: the top tenth, at least three', () => {
		const rows = steps(timeline);
		const slow = rows.filter(row => row.slow);
		expect(slow).toHaveLength(3);
		const slowest = Math.min(...slow.map(row => row.durationMs ?? 0));
		expect(rows.filter(row => !row.slow).every(row => (row.durationMs ?? 0) <= slowest)).toBe(true);
		expect(slow.map(row => row.step).sort((a, b) => a - b)).toEqual([2, 6, 9]);
	});
});

describe('parallel delegations', () => {
	it('both children sit under the one step that delegated them', () => {
		const model = modelFromFixtures('parallel-delegate.ndjson');
		expect(outline(model, jobTimeline(model, onlyJob(model)).rows)).toEqual([
			'[release-coordinator]',
			'release-coordinator#1',
			'  [changelog-writer]',
			'  changelog-writer#2',
			'  changelog-writer#3',
			'  changelog-writer#4',
			'  [docs-checker]',
			'  docs-checker#2',
			'  docs-checker#3',
			'  docs-checker#4',
			'release-coordinator#5',
			'release-coordinator#6',
		]);
	});

	it('in the demo, the child steps overlap in time', () => {
		const model = modelFromFixtures('demo.ndjson');
		const rows = steps(jobTimeline(model, onlyJob(model)));
		const runner = rows.find(row => row.expertKey === 'test-runner' && row.step === 5)!;
		const reader = rows.find(row => row.expertKey === 'code-reader' && row.step === 5)!;
		expect(runner.start! < reader.end! && reader.start! < runner.end!).toBe(true);
		// test-runner's step 6 (the failing npm test, then npm ci) is the slowest of the job.
		const slowest = [...rows].sort((a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0))[0]!;
		expect(slowest).toMatchObject({expertKey: 'test-runner', step: 6, slow: true});
	});
});

describe('long gaps between steps', () => {
	it('a gap over three times the median and over a second stands out; the others do not', () => {
		const stepEnd = (step: number, startedAt: number, finishedAt: number) =>
			perstackLine(
				'continueToNextStep',
				{
					stepNumber: step,
					checkpoint: {id: `cp${step}`, status: 'proceeding', stepNumber: step},
					step: {stepNumber: step, startedAt, finishedAt, usage: {inputTokens: 10, outputTokens: 1, reasoningTokens: 0, totalTokens: 11, cachedInputTokens: 0}},
				},
				{timestamp: finishedAt},
			);
		const t = 1_700_000_000_000;
		const lines = [
			perstackLine('startRun', {initialCheckpoint: {id: 'cp0', status: 'init', stepNumber: 1}, inputMessages: []}, {timestamp: t}),
			stepEnd(1, t, t + 100),
			stepEnd(2, t + 200, t + 300),
			stepEnd(3, t + 400, t + 500),
			stepEnd(4, t + 5500, t + 5600),
			stepEnd(5, t + 5700, t + 5800),
		];
		const model = modelFromText(lines.join('\n'));
		const timeline = jobTimeline(model, onlyJob(model));
		const rows = steps(timeline);
		expect(rows.map(row => row.gapBeforeMs)).toEqual([undefined, 100, 100, 5000, 100]);
		expect(timeline.medianGapMs).toBe(100);
		expect(rows.map(row => row.longGap)).toEqual([false, false, false, true, false]);
		expect(5000).toBeGreaterThan(longGapMinMs);
	});

	it('a wait of a minute or more is marked whatever the median: in a job where every gap is long, none stands out', () => {
		const stepEnd = (step: number, startedAt: number, finishedAt: number) =>
			perstackLine(
				'continueToNextStep',
				{
					stepNumber: step,
					checkpoint: {id: `cp${step}`, status: 'proceeding', stepNumber: step},
					step: {stepNumber: step, startedAt, finishedAt, usage: {inputTokens: 10, outputTokens: 1, reasoningTokens: 0, totalTokens: 11, cachedInputTokens: 0}},
				},
				{timestamp: finishedAt},
			);
		const t = 1_700_000_000_000;
		const lines = [
			perstackLine('startRun', {initialCheckpoint: {id: 'cp0', status: 'init', stepNumber: 1}, inputMessages: []}, {timestamp: t}),
			stepEnd(1, t, t + 100),
		];
		let at = t + 100;
		for (const [step, gap] of [
			[2, longWaitMs + 10_000],
			[3, longWaitMs],
			[4, longWaitMs - 1],
			[5, longWaitMs + 20_000],
		] as const) {
			lines.push(stepEnd(step, at + gap, at + gap + 100));
			at += gap + 100;
		}

		const model = modelFromText(lines.join('\n'));
		const rows = steps(jobTimeline(model, onlyJob(model)));
		expect(rows.map(row => row.longGap)).toEqual([false, false, false, false, false]);
		expect(rows.map(row => row.longWait)).toEqual([false, true, true, false, true]);
	});

	it('a gap is not long when it is under a second, however it compares to the median', () => {
		const model = modelFromFixtures('nested-delegate.ndjson');
		const rows = steps(jobTimeline(model, onlyJob(model)));
		const gaps = rows.filter(row => row.waitedFor === undefined);
		expect(gaps.every(row => row.gapBeforeMs === undefined || row.gapBeforeMs < longGapMinMs)).toBe(true);
		expect(gaps.some(row => row.longGap)).toBe(false);
	});

	it('a resumed run continues its pane: the time it waited for its delegates is the gap before its first step', () => {
		const model = modelFromFixtures('nested-delegate.ndjson');
		const rows = steps(jobTimeline(model, onlyJob(model)));
		const waits = rows.filter(row => row.waitedFor !== undefined);
		expect(waits.map(row => `${row.expertKey}#${row.step} ${row.waitedFor}`)).toEqual(['planner#8 delegates', 'coordinator#10 delegates']);
		const planner = rows.find(row => row.expertKey === 'planner' && row.step === 8)!;
		const researcherEnd = Math.max(...rows.filter(row => row.expertKey === 'researcher').map(row => row.end ?? 0));
		expect(planner.gapBeforeMs).toBeGreaterThan(0);
		// The wait spans the delegate's work: it starts before the researcher's last step ends.
		expect(planner.start! - planner.gapBeforeMs!).toBeLessThan(researcherEnd);
	});
});

describe('what ran in a step', () => {
	const does = (fixture: string) => {
		const model = modelFromFixtures(fixture);
		return steps(jobTimeline(model, onlyJob(model))).map(row => `${row.expertKey}#${row.step}: ${row.does}`);
	};

	it('names the tools called, counted, in the order they first came; an answer is "answered" once', () => {
		expect(does('real/tools.ndjson')).toEqual([
			'tools-expert#1: todo',
			'tools-expert#2: writeTextFile',
			'tools-expert#3: readTextFile ×2, listDirectory',
			'tools-expert#4: exec',
			'tools-expert#5: appendTextFile, todo',
			'tools-expert#6: answered',
			'tools-expert#7: todo',
			'tools-expert#8: answered',
		]);
	});

	it('names the experts delegated to, the return of the delegates, and retries', () => {
		const demo = does('demo.ndjson');
		expect(demo).toContain('bugfix-lead#4: → test-runner, → code-reader');
		expect(demo).toContain('bugfix-lead#9: delegates returned');
		expect(demo).toContain('bugfix-lead#11: retry');
	});

	it('calls a result whose call is not in the log `a tool`: it names none', () => {
		const model = modelFromFixtures('claude-code/frame-catalog-opus5.VERBATIM-LINES.ndjson');
		const orphan = model.activities.findIndex(activity => activity.id === 'toolu_014gZzVmz9aD3PJw93yUXYWy');
		expect(stepDoes(model, [orphan])).toBe('a tool');
	});

	it('names an error by its name, and says nothing for a step with no activity', () => {
		const model = modelFromFixtures('stop-error.ndjson');
		const rows = steps(jobTimeline(model, onlyJob(model)));
		expect(rows.at(-1)!.does).toMatch(/^(.+, )?error \w+/);
		expect(stepDoes(model, [])).toBe('');
	});
});

describe('runtimes without step records', () => {
	it('drover: a turn ends where the next one starts, the last where the run ended', () => {
		const model = modelFromFixtures('drover-subagent.ndjson');
		const root = runByExpert(model, 'ci-triage');
		const rows = steps(jobTimeline(model, onlyJob(model))).filter(row => row.runId === root.runId);
		expect(rows.map(row => row.step)).toEqual([1, 2, 3, 4]);
		for (let i = 0; i + 1 < rows.length; i++) expect(rows[i]!.end).toBe(rows[i + 1]!.start);
		expect(rows[rows.length - 1]!.end).toBe(root.endedAt);
		expect(rows.every(row => row.usage === undefined)).toBe(true);
	});

	it('drover: the subagent nests under the turn that called task', () => {
		const model = modelFromFixtures('drover-subagent.ndjson');
		const outlined = outline(model, jobTimeline(model, onlyJob(model)).rows);
		expect(outlined.indexOf('  [log-reader]')).toBe(outlined.indexOf('ci-triage#2') + 1);
	});

	it('strategy daemon: every child step is shown, the first one timed by its activities', () => {
		const model = modelFromFixtures('daemon-strategy.ndjson');
		const analyzer = runByExpert(model, 'analyzer');
		const rows = steps(jobTimeline(model, onlyJob(model))).filter(row => row.runId === analyzer.runId);
		expect(rows.map(row => row.step)).toEqual([...analyzer.endedSteps].sort((a, b) => a - b));
		expect(rows[0]!.start).toBeDefined();
	});
});

describe('the untimed timeline drew no bars (a stream with no time at all: Codex exec read from a file)', () => {
	// Its lines, in order: the parent's delegate (spawn_agent), the helper's query, the parent's wait, the
	// helper's answer (inside wait's result), close_agent, the parent's answer.
	const model = modelFromFixtures('codex/sub-agent.jsonl');
	const timeline = jobTimeline(model, onlyJob(model));
	const [parentPane, parentStep, helperPane, helperStep] = timeline.rows;

	it('draws its bars by the order the events came: the helper from its query to its answer, inside the step that started it', () => {
		expect(timeline.axis).toBe('order');
		expect(outline(model, timeline.rows)).toEqual(['[codex]', 'codex#1', '  [codex]', '  codex#1']);
		expect(parentStep?.kind === 'step' && parentStep.does).toBe('→ codex, wait, close_agent, answered');
		expect(parentStep?.bar).toEqual({from: 0, to: 6});
		expect(parentPane?.bar).toEqual({from: 0, to: 6});
		expect(helperStep?.bar).toEqual({from: 1, to: 4});
		expect(helperPane?.bar).toEqual({from: 1, to: 4});
		expect(timeline.barSpan).toEqual({from: 0, to: 6});
	});

	it('claims no time: no duration, no gap, no slowest step', () => {
		expect([timeline.spanStart, timeline.spanEnd]).toEqual([undefined, undefined]);
		for (const row of steps(timeline))
			expect([row.start, row.end, row.durationMs, row.gapBeforeMs, row.slow]).toEqual([undefined, undefined, undefined, undefined, false]);
	});

	it('runs one after the other on one thread lie one after the other', () => {
		const resumed = modelFromFixtures('codex/edit-and-test.jsonl');
		const rows = jobTimeline(resumed, onlyJob(resumed)).rows;
		expect(rows.map(row => row.bar)).toEqual([
			{from: 0, to: 4},
			{from: 0, to: 4},
			{from: 4, to: 7},
			{from: 4, to: 7},
		]);
	});

	it('a timed stream keeps its axis of time, bars at its times', () => {
		const timedModel = modelFromFixtures('real/delegate.ndjson');
		const timed = jobTimeline(timedModel, onlyJob(timedModel));
		expect(timed.axis).toBe('time');
		for (const row of timed.rows) expect(row.bar).toEqual({from: row.start, to: row.end});
		expect(timed.barSpan).toEqual({from: timed.spanStart, to: timed.spanEnd});
	});
});

describe('a step still running', () => {
	it('is open, and ends at the latest event so far', () => {
		const lines = [
			perstackLine('startRun', {initialCheckpoint: {id: 'cp0', status: 'init', stepNumber: 1}, inputMessages: []}, {timestamp: 1000}),
			perstackLine('startGeneration', {}, {timestamp: 1010}),
			perstackLine(
				'callTools',
				{newMessage: {contents: []}, toolCalls: [{id: 'c1', skillName: '@perstack/base', toolName: 'exec', args: {command: 'sleep'}}]},
				{timestamp: 1500},
			),
		];
		const model = modelFromText(lines.join('\n'));
		const [row] = steps(jobTimeline(model, onlyJob(model)));
		expect(row).toMatchObject({step: 1, start: 1010, end: 1500, open: true});
		expect(jobTimeline(model, onlyJob(model)).rows[0]).toMatchObject({kind: 'pane', endedWithoutFinalEvent: false});
		// The input ends there: the step is not open any more, and its pane ended without a final event.
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const ended = jobTimeline(model, onlyJob(model));
		expect(ended.rows[0]).toMatchObject({kind: 'pane', endedWithoutFinalEvent: true});
		expect(steps(ended)[0]).toMatchObject({step: 1, end: 1500, open: false});
	});
});

describe('slowestCount', () => {
	it('the top tenth, at least three, never more than half', () => {
		expect([0, 1, 2, 4, 6, 10, 30, 31, 100].map(slowestCount)).toEqual([0, 0, 1, 2, 3, 3, 3, 4, 10]);
	});
});

describe('barCells: a bar in N columns', () => {
	it('places a bar by its share of the span', () => {
		expect(barCells(0, 50, 0, 100, 10)).toEqual({offset: 0, length: 5});
		expect(barCells(50, 100, 0, 100, 10)).toEqual({offset: 5, length: 5});
		expect(barCells(25, 75, 0, 100, 20)).toEqual({offset: 5, length: 10});
	});

	it('always at least one cell, even for an instant, and never past the last column', () => {
		expect(barCells(100, 100, 0, 100, 10)).toEqual({offset: 9, length: 1});
		expect(barCells(31, 32, 0, 100, 10)).toEqual({offset: 3, length: 1});
		expect(barCells(-50, 500, 0, 100, 10)).toEqual({offset: 0, length: 10});
	});

	it('a span of no length puts the bar at the start; no columns, no bar', () => {
		expect(barCells(5, 5, 5, 5, 10)).toEqual({offset: 0, length: 1});
		expect(barCells(0, 10, 0, 100, 0)).toEqual({offset: 0, length: 0});
	});

	it('an end before the start is drawn as an instant', () => {
		expect(barCells(60, 40, 0, 100, 10)).toEqual({offset: 6, length: 1});
	});
});

describe('#32 §3.9 the timeline: a wait for a person’s answer is marked; enter lands on the step’s own first activity', () => {
	// The real runtime: askUser stops the run; the job is continued with the answer 19 s later.
	const model = modelFromFixtures('real/interactive-1.ndjson', 'real/interactive-2-continue.ndjson');
	const rows = steps(jobTimeline(model, onlyJob(model)));

	it('marks the step after the question as having waited for an answer, though the wait is short of a minute', () => {
		const answered = rows.find(row => row.waitedFor === 'input')!;
		expect(answered.gapBeforeMs).toBeLessThan(longWaitMs);
		expect(answered.longGap || answered.longWait).toBe(false);
		expect(isMarkedWait(answered)).toBe(true);
		expect(stepText(answered)).toMatch(/^waited 19\.\ds for an answer/);
		expect(rows.filter(row => isMarkedWait(row))).toEqual([answered]);
	});

	it('lands on what a step did, not on the query its run started with', () => {
		const tools = modelFromFixtures('real/tools.ndjson');
		const [first] = steps(jobTimeline(tools, onlyJob(tools)));
		expect(tools.activities[first!.activityIndices[0]!]?.type).toBe('query');
		expect(tools.activities[stepLanding(tools, first!)!]?.type).toBe('todo');
		// A step that answered in plain text lands on its answer.
		const simple = modelFromFixtures('real/simple-text.ndjson');
		const [only] = steps(jobTimeline(simple, onlyJob(simple)));
		expect(simple.activities[stepLanding(simple, only!)!]?.type).toBe('complete');
	});
});
