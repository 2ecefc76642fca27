import {describe, expect, it} from 'vitest';
import type {AgentEvent} from '../../../model/events.js';
import {fromDrover} from './normalise.js';
import {droverEventSchema} from './schema.js';

/* drover events as the viewer takes them: what each kind becomes, and the values drover sends its own way. */

const ref = {source: 'drover.ndjson', line: 7, offset: 0};

function event(value: Record<string, unknown>): AgentEvent {
	return fromDrover(droverEventSchema().parse({runId: 'r', ts: 1795389000000, ...value}), ref);
}

describe('fromDrover', () => {
	it('names an event by its line, as drover gives events no id', () => {
		expect(event({kind: 'turn_start', turn: 2})).toMatchObject({
			dialect: 'drover',
			wireType: 'turn_start',
			id: 'drover.ndjson:7',
			kind: 'stepStart',
			step: 2,
			runId: 'r',
		});
	});

	it('counts a usage event’s total as its input and output tokens', () => {
		expect(event({kind: 'usage', usage: {inputTokens: 120, outputTokens: '30', costUsd: 0.1}})).toMatchObject({
			kind: 'usage',
			usage: {inputTokens: 120, outputTokens: 30, totalTokens: 150},
		});
	});

	it('makes a task tool call a delegation, and any other a tool call', () => {
		expect(event({kind: 'tool_call_start', toolUseId: 't1', toolName: 'task', input: {prompt: 'p'}})).toMatchObject({
			kind: 'toolCalls',
			as: 'delegate',
			calls: [{id: 't1', toolName: 'task', args: {prompt: 'p'}}],
		});
		expect(event({kind: 'tool_call_start', toolUseId: 't2', toolName: 'grep'})).toMatchObject({kind: 'toolCalls', as: 'tool'});
	});

	it('takes a tool result’s text from its content, and its error from isError', () => {
		expect(event({kind: 'tool_call_end', toolUseId: 't1', result: {content: 'no such file', isError: true}})).toMatchObject({
			kind: 'toolResults',
			results: [{id: 't1', text: 'no such file', error: 'no such file'}],
		});
		expect(event({kind: 'tool_call_end', toolUseId: 't1', result: {lines: 3}})).toMatchObject({results: [{text: '{"lines":3}', error: undefined}]});
	});

	it('reads drover’s words for how a run ended', () => {
		expect(event({kind: 'run_end', status: 'succeeded'})).toMatchObject({kind: 'runEnd', status: 'completed'});
		expect(event({kind: 'subagent_end', childRunId: 'c', status: 'max_turns'})).toMatchObject({
			kind: 'runEnd',
			runId: 'c',
			status: 'stoppedByExceededMaxSteps',
		});
		expect(event({kind: 'run_end'})).toMatchObject({kind: 'runEnd', status: 'stoppedByError'});
	});
});
