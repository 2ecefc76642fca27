import {describe, expect, it} from 'vitest';
import {modelFromFixtures, runByExpert} from '../../test/helpers/load.js';
import {activityTypes, baseToolTypes, createModel, endInput, isToolActivity} from './state.js';

describe('createModel', () => {
	it('starts with nothing read', () => {
		const model = createModel();
		expect(model.events).toBe(0);
		expect(model.jobs.size + model.runs.size + model.activities.length).toBe(0);
		expect(model.inputEnd).toBeUndefined();
	});

	it('gives each model its own collections', () => {
		const first = createModel();
		first.unknownEvents.set('x', 1);
		expect(createModel().unknownEvents.size).toBe(0);
	});
});

describe('endInput', () => {
	it('records how the input ended and marks the model and the runs waiting for delegates as changed', () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		const waiting = runByExpert(model, 'release-coordinator');
		const done = runByExpert(model, 'docs-checker');
		const before = {model: model.rev, waiting: waiting.rev, done: done.rev};
		endInput(model, {exitCode: 1, lastStderr: 'Delegation error'});
		expect(model.inputEnd).toEqual({exitCode: 1, lastStderr: 'Delegation error'});
		expect(model.rev).toBeGreaterThan(before.model);
		expect(waiting.rev).toBeGreaterThan(before.waiting);
		expect(done.rev).toBe(before.done);
	});
});

describe('isToolActivity', () => {
	it('is true for tool calls, and false for queries, delegations and results', () => {
		const kinds = new Map(modelFromFixtures('demo.ndjson').activities.map(activity => [activity.type, isToolActivity(activity)]));
		expect(kinds.get('exec')).toBe(true);
		expect(kinds.get('readTextFile')).toBe(true);
		expect(kinds.get('generalTool')).toBe(true);
		expect(kinds.get('attemptCompletion')).toBe(true);
		expect(kinds.get('query')).toBe(false);
		expect(kinds.get('delegate')).toBe(false);
		expect(kinds.get('delegationComplete')).toBe(false);
		expect(kinds.get('complete')).toBe(false);
	});

	it('covers every kind of activity exactly once in the list of types', () => {
		expect(new Set(activityTypes).size).toBe(activityTypes.length);
		for (const type of baseToolTypes) expect(activityTypes).toContain(type);
	});
});
