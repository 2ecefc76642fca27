import {describe, expect, it} from 'vitest';
import {perstackSchemas} from './schema.js';

/*
 * What Perstack's schema does beyond declaring fields: defaults for names older runtimes leave out, tool
 * results as text or parts, lenient numbers and timestamps, and fields it does not read dropped.
 */

const head = {id: 'e1', expertKey: 'writer', jobId: 'j1', runId: 'r1'};

describe('perstackSchemas', () => {
	it('gives a tool call without a skill an empty skill name', () => {
		expect(perstackSchemas().toolCall.parse({id: 't1', toolName: 'readTextFile'})).toEqual({id: 't1', skillName: '', toolName: 'readTextFile'});
	});

	it('gives a tool result without a skill or tool empty names, and takes its result as a string or parts', () => {
		expect(perstackSchemas().toolResult.parse({id: 't1', result: 'plain'})).toEqual({id: 't1', skillName: '', toolName: '', result: 'plain'});
		expect(perstackSchemas().toolResult.parse({id: 't1', result: [{type: 'textPart', text: 'a', id: 'p1'}]})).toMatchObject({
			result: [{type: 'textPart', text: 'a'}],
		});
		expect(perstackSchemas().toolResult.safeParse({id: 't1', result: 42}).success).toBe(false);
	});

	it('reads step numbers and timestamps sent as strings, and takes bad ones as missing rather than refusing the event', () => {
		expect(perstackSchemas().event.parse({...head, type: 'startGeneration', timestamp: '1795294857966', stepNumber: '3'})).toMatchObject({
			timestamp: 1_795_294_857_966,
			stepNumber: 3,
		});
		expect(perstackSchemas().event.parse({...head, type: 'startGeneration', timestamp: 'soon', stepNumber: 'third'})).toMatchObject({
			timestamp: undefined,
			stepNumber: undefined,
		});
	});

	it('reads a checkpoint’s usage leniently and fills in the counts it lacks', () => {
		const checkpoint = perstackSchemas().checkpoint.parse({status: 'proceeding', usage: {inputTokens: '10', outputTokens: -1}});
		expect(checkpoint.usage).toEqual({inputTokens: 10, outputTokens: 0, reasoningTokens: 0, totalTokens: 0, cachedInputTokens: 0});
	});

	it('drops fields it does not read, so a large message history is not carried along', () => {
		const parsed = perstackSchemas().event.parse({
			...head,
			type: 'startGeneration',
			timestamp: 1,
			stepNumber: 1,
			messages: [{type: 'userMessage'}],
			experimental: true,
		});
		expect(parsed).not.toHaveProperty('messages');
		expect(parsed).not.toHaveProperty('experimental');
	});

	it('refuses an event of a type it does not know, or one whose required field is missing', () => {
		expect(perstackSchemas().event.safeParse({...head, type: 'someFutureEvent'}).success).toBe(false);
		expect(perstackSchemas().event.safeParse({...head, type: 'streamReasoning'}).success).toBe(false);
		expect(perstackSchemas().event.safeParse({id: 'e1', type: 'startGeneration'}).success).toBe(false);
	});

	it('is built once', () => {
		expect(perstackSchemas()).toBe(perstackSchemas());
	});
});
