import {describe, expect, it} from 'vitest';
import {modelFromText} from '../../test/helpers/load.js';
import {shapeLines} from '../../tools/shape-log.js';
import {createModel, isToolActivity, type Model, type ToolActivity} from './state.js';

const log = [...shapeLines({shape: 'tools', runs: 20, seed: 3})].join('\n') + '\n';

function toolsOf(model: Model): ToolActivity[] {
	return model.activities.filter(isToolActivity);
}

/** The log's `exec` calls (its last step's `attemptCompletion` is a call too, with no output to cut). */
function execsOf(model: Model): ToolActivity[] {
	return toolsOf(model).filter(call => call.toolName === 'exec');
}

function withLimit(limit: number | undefined, wholeBudget = 0): Model {
	const model = createModel();
	model.textKeep = limit === undefined ? undefined : {limit, wholeBudget};
	return modelFromText(log, {model});
}

describe('Model.textKeep', () => {
	it('keeps whole results and arguments when no limit is set', () => {
		const calls = execsOf(withLimit(undefined));
		expect(calls).toHaveLength(20);
		for (const call of calls) {
			expect(call.result?.fullLength).toBeUndefined();
			expect(call.args).toMatchObject({command: expect.any(String)});
		}
	});

	it('keeps the start of a longer result and says how long the whole one is', () => {
		const whole = execsOf(withLimit(undefined));
		const cut = execsOf(withLimit(40));
		cut.forEach((call, index) => {
			const text = whole[index]?.result?.text ?? '';
			expect(call.result?.text).toBe(text.slice(0, 40));
			expect(call.result?.fullLength).toBe(text.length);
			expect(call.args).toEqual(whole[index]?.args);
		});
	});

	it('keeps results whole until the whole budget is spent, then the start of each, and counts those cut', () => {
		const whole = execsOf(withLimit(undefined));
		const sizes = whole.map(call => call.result?.text.length ?? 0);
		// A budget that holds the first five results whole and not the sixth.
		const budget = sizes.slice(0, 5).reduce((sum, size) => sum + size, 0);
		const model = withLimit(40, budget);
		const calls = execsOf(model);
		expect(calls.slice(0, 5).map(call => call.result?.text)).toEqual(whole.slice(0, 5).map(call => call.result?.text));
		expect(calls.slice(0, 5).every(call => call.result?.fullLength === undefined)).toBe(true);
		expect(calls[5]?.result?.text).toBe(whole[5]?.result?.text.slice(0, 40));
		expect(model.cutResults).toBe(calls.filter(call => call.result?.fullLength !== undefined).length);
		expect(model.cutResults).toBeGreaterThan(0);
	});

	it('at 0 keeps neither results nor arguments, for the summaries', () => {
		for (const call of execsOf(withLimit(0))) {
			expect(call.result?.text).toBe('');
			expect(call.result?.fullLength).toBeGreaterThan(0);
			expect(call.args).toBeUndefined();
		}
	});

	it('keeps the answer to attemptCompletion whole: its row reads the todos it refused on', () => {
		const model = createModel();
		model.textKeep = {limit: 10, wholeBudget: 0};
		const line = (type: string, body: Record<string, unknown>) =>
			JSON.stringify({type, id: `e-${type}`, timestamp: 1, jobId: 'j', runId: 'r', expertKey: 'x', stepNumber: 1, ...body});
		const text = JSON.stringify({remainingTodos: [{id: 1, title: 'Verify the fix', completed: false}]});
		modelFromText(
			[
				line('callTools', {toolCalls: [{id: 'c', skillName: '@perstack/base', toolName: 'attemptCompletion', args: {}}]}),
				line('attemptCompletion', {toolResult: {id: 'c', skillName: '@perstack/base', toolName: 'attemptCompletion', result: [{type: 'textPart', text}]}}),
			].join('\n') + '\n',
			{model},
		);
		expect(toolsOf(model)[0]?.result).toEqual({text, error: undefined, ref: expect.anything()});
	});

	it('does not cut between the halves of a surrogate pair', () => {
		const model = createModel();
		model.textKeep = {limit: 3, wholeBudget: 0};
		const line = (type: string, body: Record<string, unknown>) =>
			JSON.stringify({type, id: `e-${type}`, timestamp: 1, jobId: 'j', runId: 'r', expertKey: 'x', stepNumber: 1, ...body});
		const call = {id: 'c', skillName: '@perstack/base', toolName: 'exec', args: {}};
		modelFromText(
			[
				line('callTools', {toolCalls: [call]}),
				line('resolveToolResults', {toolResults: [{id: 'c', skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', text: 'ab😀cd'}]}]}),
			].join('\n') + '\n',
			{model},
		);
		expect(toolsOf(model)[0]?.result).toMatchObject({text: 'ab', fullLength: 6});
	});
});
