import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {AgentEvent, EventRef} from '../../../model/events.js';
import {fromPerstack, partsText} from './normalise.js';
import {perstackSchemas} from './schema.js';
import {fixtureFiles, root} from '../../../../test/helpers/fixture-files.js';

/* What each Perstack event becomes in the viewer's one event shape, read from logs the runtime wrote. */

type Wire = Record<string, unknown>;

function realLines(fixture: string): Wire[] {
	return readFileSync(join(root, 'fixtures/real', fixture), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((text): Wire => JSON.parse(text));
}

/** The `nth` event of `type` in a real log, with the line it is on. */
function realEvent(fixture: string, type: string, nth = 0): {value: Wire; ref: EventRef} {
	const lines = realLines(fixture);
	let seen = 0;
	for (const [index, value] of lines.entries()) {
		if (value.type !== type) continue;
		if (seen++ === nth) return {value, ref: {source: fixture, line: index + 1, offset: 0}};
	}

	throw new Error(`no ${type} #${nth} in ${fixture}`);
}

function normalise(value: Wire, ref: EventRef = {source: 'made.ndjson', line: 4, offset: 0}): AgentEvent {
	return fromPerstack(perstackSchemas().event.parse(value), ref);
}

function real(fixture: string, type: string, nth = 0): AgentEvent {
	const {value, ref} = realEvent(fixture, type, nth);
	return normalise(value, ref);
}

/** An event of `type` for a made-up run, for the types no real log here holds. */
function made(type: string, fields: Wire = {}): AgentEvent {
	return normalise({type, id: 'e1', expertKey: 'writer', timestamp: 1_795_294_857_966, jobId: 'j1', runId: 'r1', stepNumber: 2, ...fields});
}

const kindOfType: Record<string, AgentEvent['kind']> = {
	initializeRuntime: 'runtimeInit',
	skillConnected: 'skill',
	skillDisconnected: 'skill',
	startRun: 'runStart',
	startGeneration: 'stepStart',
	callTools: 'toolCalls',
	callDelegate: 'toolCalls',
	callInteractiveTool: 'toolCalls',
	resolveToolResults: 'toolResults',
	attemptCompletion: 'toolResults',
	finishToolCall: 'marker',
	finishAllToolCalls: 'marker',
	resumeToolCalls: 'marker',
	stopRunByExceededMaxSteps: 'stepEnd',
	continueToNextStep: 'stepEnd',
	stopRunByDelegate: 'stepEnd',
	stopRunByInteractiveTool: 'stepEnd',
	stopRunByError: 'stepEnd',
	completeRun: 'stepEnd',
	startStreamingReasoning: 'stream',
	streamReasoning: 'stream',
	completeStreamingReasoning: 'stream',
	startStreamingRunResult: 'stream',
	streamRunResult: 'stream',
	completeStreamingRunResult: 'stream',
};

describe('fromPerstack on real logs', () => {
	it.each(fixtureFiles().filter(path => path.includes('/real/')))('gives every event of %s its kind, ids and place in the log', path => {
		const fixture = path.slice(path.lastIndexOf('/') + 1);
		for (const [index, value] of realLines(fixture).entries()) {
			const ref = {source: fixture, line: index + 1, offset: 0};
			const event = normalise(value, ref);
			expect(event.kind, String(value.type)).toBe(kindOfType[String(value.type)]);
			expect(event).toMatchObject({
				dialect: 'perstack',
				wireType: value.type,
				id: value.id,
				jobId: value.jobId,
				runId: value.runId,
				timestamp: value.timestamp,
				ref,
			});
		}
	});

	it('reads the runtime’s start: expert, model, version, step limit and query', () => {
		expect(real('simple.ndjson', 'initializeRuntime')).toMatchObject({
			kind: 'runtimeInit',
			expertName: 'simple-expert',
			model: 'claude-sonnet-4-5',
			runtimeVersion: '0.0.76',
			maxSteps: 100,
			query: 'What is the capital of France?',
		});
	});

	it('reads the answer a continued run starts with', () => {
		expect(real('interactive-2-continue.ndjson', 'initializeRuntime')).toMatchObject({answer: {toolCallId: 'toolu_mockmwqw7pum002d', text: 'Blue, please.'}});
	});

	it('takes a run’s query from its last user message, not its instructions', () => {
		expect(real('simple.ndjson', 'startRun')).toMatchObject({
			kind: 'runStart',
			expertKey: 'simple-expert',
			step: 1,
			query: 'What is the capital of France?',
			checkpoint: {status: 'init', step: 1},
		});
	});

	it('reads who delegated a run', () => {
		expect(real('delegate.ndjson', 'startRun', 1)).toMatchObject({
			expertKey: 'child-expert',
			query: 'List the workspace and summarise what is there.',
			checkpoint: {
				runId: 'mycc7mg8nbsgxciteyvrtyci',
				step: 2,
				delegatedBy: {runId: 'p8bixwhzqxnvtac1rfy8lxyg', expertKey: 'coordinator', toolCallId: 'toolu_mockmwqw7e5e0012'},
			},
		});
	});

	it('makes tool calls of callTools, with the model’s thinking beside them', () => {
		const event = real('tools.ndjson', 'callTools');
		expect(event).toMatchObject({
			kind: 'toolCalls',
			as: 'tool',
			calls: [
				{
					id: 'toolu_mockmwqwj6140051',
					skillName: '@perstack/base',
					toolName: 'todo',
					args: {newTodos: ['Write notes.md', 'Read notes.md back', 'Inspect the workspace', 'Count lines with wc']},
				},
			],
		});
		expect(event).toHaveProperty('thinking', expect.stringMatching(/^The user wants a small notes file/));
		expect(event).toHaveProperty('text', undefined);
	});

	it('makes delegations of callDelegate, with the text the model wrote before them', () => {
		expect(real('delegate.ndjson', 'callDelegate')).toMatchObject({
			kind: 'toolCalls',
			as: 'delegate',
			calls: [{id: 'toolu_mockmwqw7e5e0012', toolName: 'child-expert'}],
			text: "I'll ask the researcher to inspect the workspace.",
		});
	});

	it('makes a question to the user of callInteractiveTool', () => {
		expect(real('interactive-1.ndjson', 'callInteractiveTool')).toMatchObject({
			kind: 'toolCalls',
			as: 'interactive',
			calls: [{id: 'toolu_mockmwqw7pum002d', skillName: 'user-input', toolName: 'askUser', args: {question: 'Which colour should the report use?'}}],
			text: 'I need one detail from you first.',
		});
	});

	it('reads tool results as text, and tells the failed ones by their error', () => {
		const results = real('tools.ndjson', 'resolveToolResults', 2);
		expect(results).toMatchObject({
			kind: 'toolResults',
			results: [
				{toolName: 'readTextFile', error: undefined},
				{toolName: 'listDirectory', error: undefined},
				{toolName: 'readTextFile', error: 'File missing-file.txt does not exist.'},
			],
		});
		expect(results).toHaveProperty(['results', 0, 'text'], expect.stringContaining('"content":"# Notes'));
	});

	it('makes a result of attemptCompletion', () => {
		expect(real('simple.ndjson', 'attemptCompletion')).toMatchObject({
			kind: 'toolResults',
			results: [{id: 'toolu_mockmwqwj0h0004u', toolName: 'attemptCompletion', text: '{}', error: undefined}],
		});
	});

	it('ends a step that completes the run with its answer and the step’s usage and times', () => {
		expect(real('simple.ndjson', 'completeRun')).toMatchObject({
			kind: 'stepEnd',
			ending: 'complete',
			text: "The capital of France is Paris. It has been the country's capital since the late 10th century.",
			startedAt: 1_795_295_400_189,
			finishedAt: 1_795_295_400_401,
			stepUsage: {inputTokens: 1900, outputTokens: 23, totalTokens: 1923},
			checkpoint: {status: 'completed', step: 1, usage: {totalTokens: 1923}},
			error: undefined,
		});
	});

	it('ends a step that delegates with the delegations it waits for', () => {
		expect(real('delegate.ndjson', 'stopRunByDelegate')).toMatchObject({
			ending: 'stopByDelegate',
			checkpoint: {
				status: 'stoppedByDelegate',
				pendingToolCallIds: ['toolu_mockmwqw7e5e0012'],
				delegateTo: [{toolCallId: 'toolu_mockmwqw7e5e0012', expertKey: 'child-expert', query: 'List the workspace and summarise what is there.'}],
			},
		});
	});

	it('ends a step that asks the user with the call it waits for', () => {
		expect(real('interactive-1.ndjson', 'stopRunByInteractiveTool')).toMatchObject({
			ending: 'stopByInteractiveTool',
			checkpoint: {status: 'stoppedByInteractiveTool', pendingToolCallIds: ['toolu_mockmwqw7pum002d']},
		});
	});

	it('keeps the answer a continued run resumes with as a partial result', () => {
		expect(real('interactive-2-continue.ndjson', 'startRun')).toMatchObject({
			checkpoint: {
				pendingToolCallIds: ['toolu_mockmwqw7pum002d'],
				partialResults: [{id: 'toolu_mockmwqw7pum002d', toolName: 'askUser', text: 'Blue, please.'}],
			},
		});
	});

	it('ends a step that failed with the error’s name and message', () => {
		expect(real('error.ndjson', 'stopRunByError')).toMatchObject({
			ending: 'stopByError',
			error: {name: 'AI_NoOutputGeneratedError', message: 'No output generated. Check the stream for errors.'},
		});
	});

	it('makes stream events of streaming lines, with each one’s channel, phase and text', () => {
		expect(real('tools.ndjson', 'startStreamingReasoning')).toMatchObject({kind: 'stream', channel: 'reasoning', phase: 'start', text: ''});
		expect(real('tools.ndjson', 'streamReasoning', 1)).toMatchObject({kind: 'stream', channel: 'reasoning', phase: 'delta', text: 'The user'});
		expect(real('simple.ndjson', 'completeStreamingRunResult')).toMatchObject({
			kind: 'stream',
			channel: 'result',
			phase: 'complete',
			text: expect.stringMatching(/^The capital of France is Paris/),
		});
	});

	it('reads a skill’s server and how long it took to connect', () => {
		expect(real('simple.ndjson', 'skillConnected')).toMatchObject({
			kind: 'skill',
			skillName: '@perstack/base',
			state: 'connected',
			detail: {serverName: '@perstack/base', serverVersion: '0.0.40', totalDurationMs: 32, connectDurationMs: 9},
		});
		expect(real('simple.ndjson', 'skillDisconnected')).toMatchObject({kind: 'skill', state: 'disconnected', detail: {}});
	});
});

describe('fromPerstack on events no real log here holds', () => {
	it('names an event without an id by its line, and one without a job by none', () => {
		expect(normalise({type: 'startGeneration', runId: 'r1'}, {source: 'log.ndjson', line: 9, offset: 0})).toMatchObject({
			id: 'log.ndjson:9',
			jobId: '',
			kind: 'stepStart',
		});
	});

	it('takes a step end’s expert from its checkpoint when the event has none', () => {
		expect(normalise({type: 'continueToNextStep', runId: 'r1', checkpoint: {status: 'proceeding', stepNumber: 3, expert: {key: 'planner'}}})).toMatchObject({
			expertKey: 'planner',
			step: 3,
			ending: 'continue',
		});
	});

	it('takes a status from a newer runtime as still proceeding', () => {
		expect(made('continueToNextStep', {checkpoint: {status: 'pausedForReview', stepNumber: 2}})).toMatchObject({checkpoint: {status: 'proceeding'}});
	});

	it('ends a run that ran out of steps', () => {
		expect(made('stopRunByExceededMaxSteps', {checkpoint: {status: 'stoppedByExceededMaxSteps', stepNumber: 100}})).toMatchObject({
			ending: 'stopByExceededMaxSteps',
			checkpoint: {status: 'stoppedByExceededMaxSteps', step: 100},
		});
	});

	it('takes a failed run’s error from its checkpoint when the event has none, and names a nameless one Error', () => {
		expect(made('stopRunByError', {checkpoint: {status: 'stoppedByError', stepNumber: 2, error: {message: 'rate limited'}}})).toMatchObject({
			error: {name: 'Error', message: 'rate limited'},
		});
	});

	it('reads a retry’s reason, or none', () => {
		expect(made('retry', {reason: 'overloaded'})).toMatchObject({kind: 'retry', reason: 'overloaded'});
		expect(made('retry')).toMatchObject({kind: 'retry', reason: ''});
	});

	it('gathers the results of a resolved thought, file or image', () => {
		expect(made('resolveThought', {toolResult: {id: 't1', toolName: 'think', result: 'noted'}})).toMatchObject({
			kind: 'toolResults',
			results: [{id: 't1', skillName: '', toolName: 'think', text: 'noted'}],
		});
		expect(made('resolvePdfFile', {toolResults: [{id: 't2', result: [{type: 'filePart'}]}]})).toMatchObject({results: [{id: 't2', text: '[file]'}]});
		expect(made('resolveImageFile')).toMatchObject({kind: 'toolResults', results: []});
	});

	it('reads a skill starting, and what it printed to stderr', () => {
		expect(made('skillStarting', {skillName: 'fs', command: 'npx', args: ['-y', 'fs-mcp']})).toMatchObject({
			kind: 'skill',
			state: 'starting',
			detail: {command: 'npx', args: ['-y', 'fs-mcp']},
		});
		expect(made('skillStarting', {skillName: 'fs'})).toMatchObject({detail: {}});
		expect(made('skillStderr', {skillName: 'fs', message: 'listening'})).toMatchObject({kind: 'skillStderr', skillName: 'fs', message: 'listening'});
	});

	it('reads docker and proxy events', () => {
		expect(made('dockerBuildProgress', {stage: 'build', message: 'step 2/5', progress: 40})).toMatchObject({
			kind: 'docker',
			service: '',
			stage: 'build',
			status: undefined,
			message: 'step 2/5',
			progress: 40,
		});
		expect(made('dockerContainerStatus', {service: 'runtime', status: 'running'})).toMatchObject({
			kind: 'docker',
			service: 'runtime',
			status: 'running',
			stage: undefined,
		});
		expect(made('proxyAccess', {action: 'blocked', domain: 'example.com', port: '443', reason: 'not allowed'})).toMatchObject({
			kind: 'proxy',
			action: 'blocked',
			domain: 'example.com',
			port: 443,
			reason: 'not allowed',
		});
	});

	it('makes markers of the state machine’s bookkeeping events', () => {
		for (const type of ['resumeToolCalls', 'finishMcpTools', 'skipDelegates', 'proceedToInteractiveTools']) expect(made(type).kind).toBe('marker');
	});
});

describe('partsText', () => {
	it('joins text parts with newlines and names parts that have no text', () => {
		expect(partsText([{type: 'textPart', text: 'one'}, {type: 'imagePart'}, {type: 'textPart', text: 'two'}])).toBe('one\n[image]\ntwo');
	});

	it('skips empty text parts, and reads a bare string or nothing as it is', () => {
		expect(partsText([{type: 'textPart', text: ''}, {type: 'textPart'}, {type: 'textPart', text: 'only'}])).toBe('only');
		expect(partsText('plain result')).toBe('plain result');
		expect(partsText(undefined)).toBe('');
	});
});
