import {describe, expect, it} from 'vitest';
import type {Activity, DelegateActivity, ToolActivity} from './state.js';
import {isToolActivity} from './state.js';
import {activitiesOfRun, modelFromFixtures, modelFromText, paneActivities, perstackLine, runByExpert} from '../../test/helpers/load.js';

function delegates(activities: Activity[]): DelegateActivity[] {
	return activities.filter((activity): activity is DelegateActivity => activity.type === 'delegate');
}

function tools(activities: Activity[]): ToolActivity[] {
	return activities.filter(isToolActivity);
}

describe('delegation (real runtime log)', () => {
	const model = modelFromFixtures('real/delegate.ndjson');
	const coordinator = runByExpert(model, 'coordinator', 0);
	const resumed = runByExpert(model, 'coordinator', 1);
	const child = runByExpert(model, 'child-expert');

	it('a child run nests under the activity that delegated it', () => {
		expect(child.parentRunId).toBe(coordinator.runId);
		const [delegate] = delegates(activitiesOfRun(model, coordinator));
		expect(delegate?.delegateExpertKey).toBe('child-expert');
		expect(delegate?.query).toBe('List the workspace and summarise what is there.');
		expect(delegate?.childRunIds).toEqual([child.runId]);
		expect(child.delegatingActivityId).toBe(delegate?.id);
		expect(child.delegatedBy).toEqual({expertKey: 'coordinator', runId: coordinator.runId});
	});

	it('a delegation is one delegate activity, not a general tool as well', () => {
		const types = activitiesOfRun(model, coordinator).map(activity => activity.type);
		expect(types).toEqual(['query', 'delegate']);
	});

	it('a resumed coordinator continues the same pane and does not log its query twice', () => {
		expect(resumed.runId).not.toBe(coordinator.runId);
		expect(resumed.resumesRunId).toBe(coordinator.runId);
		expect(resumed.paneId).toBe(coordinator.paneId);
		const pane = paneActivities(model, coordinator.paneId);
		expect(pane.map(activity => activity.type)).toEqual(['query', 'delegate', 'delegationComplete', 'attemptCompletion', 'complete']);
		expect(pane.filter(activity => activity.type === 'query')).toHaveLength(1);
	});

	it('the delegate activity receives the child result when the coordinator resumes', () => {
		const [delegate] = delegates(activitiesOfRun(model, coordinator));
		expect(delegate?.result?.text).toContain('README.txt');
		const done = activitiesOfRun(model, resumed).find(activity => activity.type === 'delegationComplete');
		expect(done?.type === 'delegationComplete' && done.results.map(result => result.expertKey)).toEqual(['child-expert']);
	});

	it('the daisy chain is unbroken in every pane', () => {
		for (const pane of model.panes.values()) {
			const activities = paneActivities(model, pane.paneId);
			activities.forEach((activity, index) => {
				expect(activity.previousActivityId).toBe(index === 0 ? null : activities[index - 1]!.id);
			});
		}
	});

	it('usage of a run is the sum of its steps, not the job-wide checkpoint total', () => {
		expect(coordinator.usage.inputTokens).toBe(923);
		expect(child.usage.inputTokens).toBe(926 + 1059 + 2338);
		expect(resumed.usage.inputTokens).toBe(2119);
	});

	it('steps count the steps each run ended (step numbers run across the job)', () => {
		expect([coordinator.endedSteps.length, child.endedSteps.length, resumed.endedSteps.length]).toEqual([1, 3, 2]);
	});

	it('statuses follow the last checkpoint of each run', () => {
		expect([coordinator.status, child.status, resumed.status]).toEqual(['stoppedByDelegate', 'completed', 'completed']);
	});
});

describe('tools (real runtime log)', () => {
	const model = modelFromFixtures('real/tools.ndjson');
	const run = runByExpert(model, 'tools-expert');
	const activities = activitiesOfRun(model, run);

	it('maps base tools by name, in order', () => {
		expect(activities.map(activity => activity.type)).toEqual([
			'query',
			'todo',
			'writeTextFile',
			'readTextFile',
			'listDirectory',
			'readTextFile',
			'exec',
			'appendTextFile',
			'todo',
			'attemptCompletion',
			'todo',
			'attemptCompletion',
			'complete',
		]);
	});

	it('a tool error surfaces on its activity', () => {
		const missing = tools(activities).find(activity => activity.type === 'readTextFile' && JSON.stringify(activity.args).includes('missing-file'));
		expect(missing?.result?.error).toBe('File missing-file.txt does not exist.');
		const fine = tools(activities).find(activity => activity.type === 'readTextFile' && JSON.stringify(activity.args).includes('notes.md'));
		expect(fine?.result?.error).toBeUndefined();
		expect(fine?.result?.text).toContain('alpha');
	});

	it('reasoning from the step is attached to its activities', () => {
		const exec = activities.find(activity => activity.type === 'exec');
		expect(exec?.reasoning).toBe('The missing file errored as expected. Count the lines with wc.');
	});

	it('the completed result text wins over the deltas', () => {
		const complete = activities.find(activity => activity.type === 'complete');
		expect(complete?.type === 'complete' && complete.text).toBe(
			'I created `notes.md` with three bullet points, read it back, listed the workspace, counted its lines with `wc` (4 lines) and appended a closing line. All todos are complete.',
		);
	});

	it('every tool activity is settled once its step ends', () => {
		expect(activities.every(activity => activity.settled)).toBe(true);
	});
});

describe('answers without streaming and stopped runs (real runtime logs)', () => {
	it('a plain-text answer comes only from completeRun.text', () => {
		const model = modelFromFixtures('real/simple-text.ndjson');
		const run = runByExpert(model, 'simple-text-expert');
		const complete = activitiesOfRun(model, run).find(activity => activity.type === 'complete');
		expect(complete?.type === 'complete' && complete.text).toBe('Hello! 2 + 2 = 4. Let me know if you need anything else.');
		expect(run.status).toBe('completed');
	});

	it('a provider error stops the run with an error activity', () => {
		const model = modelFromFixtures('real/error.ndjson');
		const run = runByExpert(model, 'error-expert');
		expect(run.status).toBe('stoppedByError');
		const error = activitiesOfRun(model, run).find(activity => activity.type === 'error');
		expect(error?.type === 'error' && [error.errorName, error.message]).toEqual([
			'AI_NoOutputGeneratedError',
			'No output generated. Check the stream for errors.',
		]);
	});

	it('an interactive stop and its --continue -i answer read as one pane', () => {
		const model = modelFromFixtures('real/interactive-1.ndjson', 'real/interactive-2-continue.ndjson');
		const first = runByExpert(model, 'interactive-expert', 0);
		const second = runByExpert(model, 'interactive-expert', 1);
		expect(first.status).toBe('stoppedByInteractiveTool');
		expect(second.resumesRunId).toBe(first.runId);
		expect(second.paneId).toBe(first.paneId);
		const pane = paneActivities(model, first.paneId);
		expect(pane.map(activity => activity.type)).toEqual(['query', 'interactiveTool', 'attemptCompletion', 'complete']);
		const ask = pane[1];
		expect(ask && isToolActivity(ask) && [ask.toolName, ask.result?.text]).toEqual(['askUser', 'Blue, please.']);
	});

	it('the continued half alone still names the run it resumes', () => {
		const model = modelFromFixtures('real/interactive-2-continue.ndjson');
		const run = runByExpert(model, 'interactive-expert');
		expect(run.resumesRunId).toBe('q4l2711nl1jqa97o9nfsuz2j');
		expect(activitiesOfRun(model, run).some(activity => activity.type === 'query')).toBe(false);
	});
});

describe('bad and unexpected input', () => {
	it('unknown types are counted, not fatal, and the events around them still reduce', () => {
		const text = [
			perstackLine('startRun', {
				initialCheckpoint: {status: 'init', stepNumber: 1},
				inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: 'hi'}]}],
			}),
			perstackLine('startPlanning', {plan: 1}),
			perstackLine('startPlanning', {plan: 2}),
			perstackLine('completeRun', {checkpoint: {status: 'completed', stepNumber: 1}, text: 'bye'}),
		].join('\n');
		const model = modelFromText(text);
		expect(model.unknownEvents.get('startPlanning')).toBe(2);
		expect(model.events).toBe(4);
		expect(runByExpert(model, 'expert').status).toBe('completed');
	});

	it('a malformed line is a diagnostic with its line number, and loses nothing else', () => {
		const text = [
			perstackLine('startRun', {initialCheckpoint: {status: 'init', stepNumber: 1}}),
			'{"type": "callTools", "runId": ',
			'not json at all',
			'[1,2,3]',
			perstackLine('callTools', {toolCalls: 'not an array'}),
			perstackLine('completeRun', {checkpoint: {status: 'completed', stepNumber: 1}, text: 'done'}),
		].join('\r\n');
		const model = modelFromText(text, {chunkSize: 7});
		expect(model.diagnostics.map(diagnostic => diagnostic.line)).toEqual([2, 3, 4, 5]);
		expect(model.diagnostics[2]?.reason).toContain('expected an object');
		expect(model.diagnostics[3]?.reason).toContain('toolCalls');
		expect(runByExpert(model, 'expert').status).toBe('completed');
	});

	it('a late delta never overwrites completed text, and deltas before their start still count', () => {
		const base = {expertKey: 'e', runId: 'r', stepNumber: 1};
		const text = [
			perstackLine('streamRunResult', {delta: 'Hel'}, base),
			perstackLine('startStreamingRunResult', {}, base),
			perstackLine('streamRunResult', {delta: 'lo'}, base),
			perstackLine('completeStreamingRunResult', {text: 'Hello.'}, base),
			perstackLine('streamRunResult', {delta: ' garbage'}, base),
		].join('\n');
		const model = modelFromText(text);
		const run = runByExpert(model, 'e');
		expect(run.streams.get(1)?.result.text).toBe('Hello.');
	});

	it('a child whose events arrive before its parent is adopted when the parent shows up', () => {
		const child = {expertKey: 'child', runId: 'c1', stepNumber: 2};
		const parent = {expertKey: 'parent', runId: 'p1', stepNumber: 1};
		const text = [
			perstackLine(
				'startRun',
				{initialCheckpoint: {status: 'init', stepNumber: 2, delegatedBy: {runId: 'p1', toolCallId: 'call-1', expert: {key: 'parent'}}}},
				child,
			),
			perstackLine('completeRun', {checkpoint: {status: 'completed', stepNumber: 2}, text: 'child done'}, child),
			perstackLine('startRun', {initialCheckpoint: {status: 'init', stepNumber: 1}}, parent),
			perstackLine('callTools', {toolCalls: [{id: 'call-1', skillName: 'child', toolName: 'child', args: {query: 'do it'}}]}, parent),
			perstackLine('callDelegate', {toolCalls: [{id: 'call-1', skillName: 'child', toolName: 'child', args: {query: 'do it'}}]}, parent),
		].join('\n');
		const model = modelFromText(text);
		const childRun = runByExpert(model, 'child');
		const parentRun = runByExpert(model, 'parent');
		expect(parentRun.childRunIds).toEqual(['c1']);
		const [delegate] = delegates(activitiesOfRun(model, parentRun));
		expect(delegate?.childRunIds).toEqual(['c1']);
		expect(childRun.delegatingActivityId).toBe(delegate?.id);
	});

	it('completeRun before startRun leaves the run completed', () => {
		const text = [
			perstackLine('completeRun', {checkpoint: {status: 'completed', stepNumber: 3}, text: 'early'}),
			perstackLine('startRun', {initialCheckpoint: {status: 'init', stepNumber: 1}}),
		].join('\n');
		const run = runByExpert(modelFromText(text), 'expert');
		expect(run.status).toBe('completed');
	});
});
