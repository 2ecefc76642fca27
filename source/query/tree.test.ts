import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, modelFromText, runByExpert} from '../../test/helpers/load.js';
import {endInput, type Job, type Model} from '../model/state.js';
import {
	depthOf,
	endedWhileWaiting,
	endedWithoutFinalEvent,
	hasLiveRun,
	isLive,
	jobStepsText,
	isRootPane,
	jobTotals,
	panesInTreeOrder,
	runsInTreeOrder,
	shownStatus,
} from './tree.js';

function onlyJob(model: Model): Job {
	const jobs = [...model.jobs.values()];
	if (jobs.length !== 1) throw new Error(`expected one job, got ${jobs.length}`);
	return jobs[0]!;
}

function fixtureLines(name: string): string[] {
	return readFileSync(fixturePath(name), 'utf8')
		.split('\n')
		.filter(line => line !== '');
}

function runIdOf(line: string): unknown {
	const event: unknown = JSON.parse(line);
	return typeof event === 'object' && event !== null ? Reflect.get(event, 'runId') : undefined;
}

describe('panesInTreeOrder', () => {
	it('lists a nested delegation depth first, each resumed run folded into its pane', () => {
		const model = modelFromFixtures('nested-delegate.ndjson');
		const nodes = panesInTreeOrder(model, onlyJob(model));
		expect(nodes.map(node => [model.runs.get(node.pane.paneId)?.expertKey, node.depth, node.pane.runIds.length])).toEqual([
			['coordinator', 0, 2],
			['planner', 1, 2],
			['researcher', 2, 1],
		]);
		expect(nodes.every(node => !node.orphan)).toBe(true);
	});

	it('puts a delegate whose parent is not in the log at the top, marked as an orphan', () => {
		const model = modelFromFixtures('nested-delegate.ndjson');
		const coordinatorFirst = runByExpert(model, 'coordinator').runId;
		const partial = modelFromText(
			fixtureLines('nested-delegate.ndjson')
				.filter(line => runIdOf(line) !== coordinatorFirst)
				.join('\n'),
		);
		const nodes = panesInTreeOrder(partial, onlyJob(partial));
		const planner = nodes.find(node => partial.runs.get(node.pane.paneId)?.expertKey === 'planner');
		expect(planner).toMatchObject({depth: 0, orphan: true});
		expect(isRootPane(partial, planner!.pane)).toBe(true);
		expect(nodes.find(node => partial.runs.get(node.pane.paneId)?.expertKey === 'researcher')).toMatchObject({depth: 1, orphan: false});
	});
});

describe('runsInTreeOrder', () => {
	it('tells the runs as they happened: the coordinator, its delegates, then the coordinator resumed', () => {
		const model = modelFromFixtures('demo.ndjson');
		const runs = runsInTreeOrder(model, onlyJob(model));
		expect(runs.map(run => `${run.expertKey} ${run.status}`)).toEqual([
			'bugfix-lead stoppedByDelegate',
			'test-runner completed',
			'code-reader completed',
			'bugfix-lead completed',
		]);
	});

	it('nests a delegate of a delegate under the run that delegated it', () => {
		const model = modelFromFixtures('nested-delegate.ndjson');
		expect(runsInTreeOrder(model, onlyJob(model)).map(run => run.expertKey)).toEqual(['coordinator', 'planner', 'researcher', 'planner', 'coordinator']);
	});
});

describe('depthOf', () => {
	it('counts delegations from the top, the same for every run of a pane', () => {
		const model = modelFromFixtures('nested-delegate.ndjson');
		expect(depthOf(model, runByExpert(model, 'coordinator', 1))).toBe(0);
		expect(depthOf(model, runByExpert(model, 'planner', 1))).toBe(1);
		expect(depthOf(model, runByExpert(model, 'researcher'))).toBe(2);
	});
});

describe('jobTotals', () => {
	it('adds up steps and tokens over every run of the job and names the coordinator', () => {
		const model = modelFromFixtures('demo.ndjson');
		const totals = jobTotals(model, onlyJob(model));
		expect(totals.coordinator?.expertKey).toBe('bugfix-lead');
		expect(totals.status).toBe('completed');
		// The runtime's step counter (the highest step: parallel delegates share numbers), and the steps its runs ran.
		expect(totals.steps).toBe(14);
		expect(totals.stepsRun).toBe(17);
		expect(totals.usage).toMatchObject({inputTokens: 42_692, outputTokens: 907, cachedInputTokens: 13_824});
		expect(totals.endedAt! - totals.startedAt!).toBe(10_221);
	});

	it("takes its status from a child run's events when the child run is read on its own (no root run)", () => {
		const childRun = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8')
			.split('\n')
			.filter(line => line.includes('"runId":"mycc7mg8nbsgxciteyvrtyci"'))
			.join('\n');
		const model = modelFromText(childRun);
		const totals = jobTotals(model, onlyJob(model));
		expect(totals.status).toBe('completed');
		expect(totals.coordinator?.expertKey).toBe('child-expert');
		// Its steps are 2 to 4 of the job: the job's counter stood at 4, and this run ran 3 of them.
		expect(totals.steps).toBe(4);
		expect(totals.stepsRun).toBe(3);
	});

	it('takes its status from the coordinator, not from a failed delegate', () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		expect(jobTotals(model, onlyJob(model)).status).toBe('stoppedByDelegate');
	});
});

describe('endedWhileWaiting', () => {
	it('says nothing while the input may still go on', () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		expect(endedWhileWaiting(model, runByExpert(model, 'release-coordinator'))).toBeUndefined();
	});

	it('once the input ended, names the delegate that failed and how the command exited', () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		endInput(model, {exitCode: 1, lastStderr: 'Delegation error'});
		const coordinator = runByExpert(model, 'release-coordinator');
		expect(endedWhileWaiting(model, coordinator)).toEqual({
			failedRunId: runByExpert(model, 'changelog-writer').runId,
			reason: 'changelog-writer failed: AI_APICallError: Overloaded; the command exited 1: Delegation error',
		});
		expect(endedWhileWaiting(model, runByExpert(model, 'docs-checker'))).toBeUndefined();
	});

	it('does not count a coordinator that was resumed after its delegates returned', () => {
		const model = modelFromFixtures('demo.ndjson');
		endInput(model, {exitCode: 0, lastStderr: undefined});
		for (const run of model.runs.values()) expect(endedWhileWaiting(model, run)).toBeUndefined();
	});
});

describe('endedWithoutFinalEvent', () => {
	/** real/delegate.ndjson cut in the middle of the child's run: the coordinator waits for it, it runs. */
	const cut = () => modelFromText(fixtureLines('real/delegate.ndjson').slice(0, 20).join('\n'));

	it('while the input may go on, a run with no final event yet is running, and its job live', () => {
		const model = cut();
		expect(shownStatus(runByExpert(model, 'child-expert'))).toBe('proceeding');
		expect(endedWithoutFinalEvent(model, runByExpert(model, 'child-expert'))).toBe(false);
		expect(hasLiveRun(model, onlyJob(model))).toBe(true);
	});

	it('once the input ended, that run ended without a final event, and the coordinator waiting for it is told why', () => {
		const model = cut();
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect(endedWithoutFinalEvent(model, runByExpert(model, 'child-expert'))).toBe(true);
		expect(endedWithoutFinalEvent(model, runByExpert(model, 'coordinator'))).toBe(false);
		expect(endedWhileWaiting(model, runByExpert(model, 'coordinator'))).toEqual({failedRunId: null, reason: 'child-expert ended without a final event'});
	});

	it('says nothing of runs that did end', () => {
		const model = modelFromFixtures('real/delegate.ndjson');
		endInput(model, {exitCode: 0, lastStderr: undefined});
		for (const run of model.runs.values()) expect(endedWithoutFinalEvent(model, run)).toBe(false);
		expect(hasLiveRun(model, onlyJob(model))).toBe(false);
	});
});

describe('shownStatus', () => {
	it('shows a run that has begun generating as running, though its checkpoint still says init', () => {
		const lines = fixtureLines('real/simple.ndjson');
		const startIndex = lines.findIndex(line => line.includes('"type":"startRun"'));
		const started = modelFromText(lines.slice(0, startIndex + 1).join('\n'));
		const [run] = started.runs.values();
		expect(shownStatus(run!)).toBe('init');

		const generating = modelFromText(lines.slice(0, startIndex + 3).join('\n'));
		const [busy] = generating.runs.values();
		expect(busy!.status).toBe('init');
		expect(shownStatus(busy!)).toBe('proceeding');
		expect(isLive(shownStatus(busy!))).toBe(true);
	});

	it('a resumed run reads as running, not "waiting for delegates", from its start until it stops again', () => {
		// boss → manager → writer ∥ checker: manager's resumed run starts (line 91) from the checkpoint it stopped
		// at for its delegates, and ends its first step at line 93.
		const lines = fixtureLines('real/boss-nested-parallel.ndjson');
		const resumed = (count: number) => runByExpert(modelFromText(lines.slice(0, count).join('\n')), 'manager', 1);
		expect(resumed(91).status).toBe('stoppedByDelegate');
		expect(shownStatus(resumed(91))).toBe('proceeding');
		expect(shownStatus(resumed(93))).toBe('proceeding');
		expect(shownStatus(resumed(lines.length))).toBe('completed');
		// The run it resumed waits, as it did.
		expect(shownStatus(runByExpert(modelFromText(lines.slice(0, 91).join('\n')), 'manager', 0))).toBe('stoppedByDelegate');
		// A person's answer resumes a run too: the continued run is running, not waiting for input.
		const continued = fixtureLines('interactive.ndjson');
		const start = continued.findIndex(line => line.includes('"type":"startRun"') && line.includes('"status":"stoppedByInteractiveTool"'));
		const model = modelFromText(continued.slice(0, start + 1).join('\n'));
		const run = runByExpert(model, 'release-notes', 1);
		expect(run.status).toBe('stoppedByInteractiveTool');
		expect(shownStatus(run)).toBe('proceeding');
	});

	it('a log cut just after a resumed run started: that run ended without a final event, nobody ended while waiting for it', () => {
		const lines = fixtureLines('real/boss-nested-parallel.ndjson');
		const model = modelFromText(lines.slice(0, 91).join('\n'));
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const resumed = runByExpert(model, 'manager', 1);
		expect(endedWithoutFinalEvent(model, resumed)).toBe(true);
		expect(endedWhileWaiting(model, resumed)).toBeUndefined();
	});

	it('treats only starting and running as live', () => {
		expect(isLive('completed')).toBe(false);
		expect(isLive('stoppedByDelegate')).toBe(false);
		expect(isLive('init')).toBe(true);
	});
});

describe('jobStepsText', () => {
	it('counts the job’s steps, and the steps run where they differ, each with its own plural (#32 §3.15)', () => {
		expect(jobStepsText({steps: 1, stepsRun: 1})).toBe('1 step');
		expect(jobStepsText({steps: 14, stepsRun: 17})).toBe('14 steps · 17 steps run');
		expect(jobStepsText({steps: 3, stepsRun: 1})).toBe('3 steps · 1 step run');
	});
});
