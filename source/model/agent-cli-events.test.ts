import {describe, expect, it} from 'vitest';
import type {AgentEvent} from './events.js';
import {reduce} from './reduce.js';
import {createModel, type Model} from './state.js';
import {jobCost, totalCost} from '../query/cost.js';
import {builtinPrices} from '../query/prices.js';

/*
 * What the model gained for the agent CLIs' streams (docs/model-rules.md, "Runs outside the checkpoint protocol"):
 * a child named by the call that delegated it, a query after a run's start, a step counted from its start, and a
 * runtime's own report of what work cost.
 */

let line = 0;
function event(runId: string, payload: Record<string, unknown>, jobId = 'session'): AgentEvent {
	line++;
	return {
		dialect: 'claude-code',
		wireType: 'test',
		id: `l${line}`,
		jobId,
		runId,
		expertKey: undefined,
		step: undefined,
		timestamp: 1_000 + line,
		agent: undefined,
		ref: {source: 's', line, offset: 0},
		...payload,
	} as AgentEvent;
}

function root(model: Model): void {
	reduce(model, event('main', {kind: 'childRunStart', childRunId: 'main', childExpertKey: 'claude', query: 'Fix it.', viaToolName: undefined}));
}

function delegate(model: Model, id: string, subagent: string): void {
	reduce(
		model,
		event('main', {
			kind: 'toolCalls',
			as: 'delegate',
			calls: [{id, skillName: '', toolName: 'Agent', args: {subagent_type: subagent, prompt: `do ${id}`}}],
			text: undefined,
			thinking: undefined,
		}),
	);
}

describe('runs outside the checkpoint protocol', () => {
	it('a root run starts in the job its event names, with its query', () => {
		const model = createModel();
		root(model);
		const run = model.runs.get('main');
		expect(run).toMatchObject({jobId: 'session', expertKey: 'claude', status: 'proceeding', query: 'Fix it.'});
		expect(model.activities.map(activity => activity.type)).toEqual(['query']);
	});

	it('a child named by its delegating call hangs under that call, not the latest one, whatever came first', () => {
		const model = createModel();
		root(model);
		delegate(model, 'call-a', 'Explore');
		delegate(model, 'call-b', 'general-purpose');
		reduce(
			model,
			event('main', {
				kind: 'childRunStart',
				childRunId: 'call-a',
				childExpertKey: 'Explore',
				query: 'do call-a',
				viaToolName: 'Agent',
				viaToolCallId: 'call-a',
			}),
		);
		// A grandchild whose delegation has not been seen yet waits for it.
		reduce(
			model,
			event('call-b', {kind: 'childRunStart', childRunId: 'call-c', childExpertKey: 'Plan', query: undefined, viaToolName: 'Agent', viaToolCallId: 'call-c'}),
		);
		reduce(
			model,
			event('main', {
				kind: 'childRunStart',
				childRunId: 'call-b',
				childExpertKey: 'general-purpose',
				query: 'do call-b',
				viaToolName: 'Agent',
				viaToolCallId: 'call-b',
			}),
		);
		reduce(
			model,
			event('call-b', {
				kind: 'toolCalls',
				as: 'delegate',
				calls: [{id: 'call-c', skillName: '', toolName: 'Agent', args: {subagent_type: 'Plan'}}],
				text: undefined,
				thinking: undefined,
			}),
		);
		const delegation = (id: string) => model.activities.find(activity => activity.type === 'delegate' && activity.toolCallId === id);
		expect(delegation('call-a')).toMatchObject({childRunIds: ['call-a']});
		expect(delegation('call-b')).toMatchObject({childRunIds: ['call-b']});
		expect(delegation('call-c')).toMatchObject({childRunIds: ['call-c'], runId: 'call-b'});
		expect(model.runs.get('call-c')).toMatchObject({parentRunId: 'call-b', jobId: 'session'});
		expect(model.runs.get('call-a')).toMatchObject({parentRunId: 'main', query: 'do call-a'});
	});

	it('a query after the start is an activity, and the run’s query when it had none', () => {
		const model = createModel();
		reduce(model, event('main', {kind: 'childRunStart', childRunId: 'main', childExpertKey: 'claude', query: undefined, viaToolName: undefined}));
		reduce(model, event('main', {kind: 'query', text: 'What is 2+2?'}));
		reduce(model, event('main', {kind: 'query', text: 'And 3+3?'}));
		expect(model.runs.get('main')?.query).toBe('What is 2+2?');
		expect(model.activities.map(activity => activity.type === 'query' && activity.text)).toEqual(['What is 2+2?', 'And 3+3?']);
	});

	it('a step counted at its start is among the run’s steps without an end', () => {
		const model = createModel();
		root(model);
		reduce(model, event('main', {kind: 'stepStart', counted: true}));
		reduce(model, event('main', {kind: 'stepStart', counted: true}));
		reduce(model, event('main', {kind: 'stepStart'}));
		expect(model.runs.get('main')?.endedSteps).toEqual([1, 2]);
	});

	it('a job’s cost is what the runtime reported, plus the table’s cost of the runs no report covers', () => {
		const model = createModel();
		root(model);
		const usage = {inputTokens: 1_000_000, outputTokens: 0, reasoningTokens: 0, totalTokens: 1_000_000, cachedInputTokens: 0};
		reduce(model, event('main', {kind: 'runtimeInit', model: 'claude-sonnet-4-5'}));
		reduce(model, event('main', {kind: 'usage', usage}));
		expect(jobCost(model, model.jobs.get('session')!, builtinPrices)).toBe(3);
		reduce(model, event('main', {kind: 'reportedCost', usd: 0.5, runIds: ['main']}));
		reduce(model, event('main', {kind: 'reportedCost', usd: 0.25, runIds: ['main']}));
		// Both named the run alone: what they said is also that run's (its cost where the table has no price).
		expect(model.jobs.get('session')?.reportedCost).toEqual({usd: 0.75, runIds: new Set(['main']), byRun: new Map([['main', 0.75]])});
		expect(jobCost(model, model.jobs.get('session')!, builtinPrices)).toBe(0.75);
		// A run of the job after the report, and a job with no report, are priced by the table.
		reduce(model, event('later', {kind: 'childRunStart', childRunId: 'later', childExpertKey: 'claude', query: undefined, viaToolName: undefined}));
		reduce(model, event('later', {kind: 'runtimeInit', model: 'claude-sonnet-4-5'}));
		reduce(model, event('later', {kind: 'usage', usage}));
		reduce(model, event('other', {kind: 'childRunStart', childRunId: 'other', childExpertKey: 'x', query: undefined, viaToolName: undefined}, 'other-job'));
		expect(jobCost(model, model.jobs.get('session')!, builtinPrices)).toBe(3.75);
		expect(totalCost(model, builtinPrices)).toBe(3.75);
	});
});
