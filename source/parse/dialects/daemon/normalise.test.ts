import {describe, expect, it} from 'vitest';
import type {AgentEvent} from '../../../model/events.js';
import {fromDaemon} from './normalise.js';
import {daemonSchemas} from './schema.js';

/* Strategy daemon events as the viewer takes them: what each type becomes, and the values it sends its own way. */

const ref = {source: 'daemon.ndjson', line: 3, offset: 0};

function event(value: Record<string, unknown>): AgentEvent {
	return fromDaemon(daemonSchemas().event.parse({runId: 'run_1', ts: '2026-11-22T10:30:01.000Z', ...value}), ref);
}

function streamed(inner: Record<string, unknown>): AgentEvent {
	return event({type: 'agent_streaming', agentName: 'analyzer', event: inner});
}

describe('fromDaemon', () => {
	it('reads the ISO timestamp, and takes the run as the job', () => {
		expect(event({type: 'step_started', stepName: 'analyzer', message: 'Review it'})).toMatchObject({
			dialect: 'daemon',
			id: 'daemon.ndjson:3',
			jobId: 'run_1',
			timestamp: Date.parse('2026-11-22T10:30:01.000Z'),
			kind: 'childRunStart',
			childExpertKey: 'analyzer',
			query: 'Review it',
		});
	});

	it('names a streamed event by its inner type, and decodes tool arguments sent as JSON text', () => {
		expect(streamed({type: 'tool-call', toolName: 'read_file', args: '{"path":"a.js"}'})).toMatchObject({
			wireType: 'agent_streaming/tool-call',
			agent: 'analyzer',
			kind: 'toolCalls',
			calls: [{toolName: 'read_file', args: {path: 'a.js'}}],
		});
		expect(streamed({type: 'tool-call', toolName: 'x', args: '{not json'})).toMatchObject({calls: [{args: '{not json'}]});
	});

	it('flags a tool result that is an error', () => {
		expect(streamed({type: 'tool-result', toolName: 'read_file', output: 'Error: no such file'})).toMatchObject({
			kind: 'toolResults',
			results: [{text: 'Error: no such file', error: 'Error: no such file'}],
		});
		expect(streamed({type: 'tool-result', toolName: 'read_file', output: {lines: 3}})).toMatchObject({results: [{text: '{"lines":3}', error: undefined}]});
	});

	it('counts usage as prompt and completion tokens', () => {
		expect(event({type: 'agent_output', agentName: 'analyzer', text: 'done', usage: {promptTokens: 10, completionTokens: 5}})).toMatchObject({
			kind: 'runEnd',
			text: 'done',
			usage: {inputTokens: 10, outputTokens: 5, totalTokens: 15},
		});
	});
});
