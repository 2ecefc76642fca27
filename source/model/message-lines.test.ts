import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromFixtures, modelFromText, perstackLine, runByExpert} from '../../test/helpers/load.js';
import {messageLineOf, messageSteps} from './message-lines.js';

/** Line numbers (1-based) of the lines of `name` that hold the messages of each step of `runId`, found by reading every line. */
function stepLinesByScan(name: string, runId: string): Map<number, number> {
	const ends = new Set(['continueToNextStep', 'completeRun', 'stopRunByError', 'stopRunByDelegate', 'stopRunByInteractiveTool', 'stopRunByExceededMaxSteps']);
	const found = new Map<number, number>();
	for (const [index, text] of readFileSync(fixturePath(name), 'utf8').split('\n').entries()) {
		if (text === '') continue;
		const event = JSON.parse(text) as {type: string; runId: string; stepNumber: number};
		if (event.runId !== runId) continue;
		if (ends.has(event.type)) found.set(event.stepNumber, index + 1);
		else if (event.type === 'startGeneration' && !found.has(event.stepNumber)) found.set(event.stepNumber, index + 1);
	}

	return found;
}

describe('where a step’s messages are', () => {
	it('remembers, per step of a real run, the line of the step’s end and its byte offset', () => {
		const model = modelFromFixtures('real/tools.ndjson');
		const run = runByExpert(model, 'tools-expert');
		const expected = stepLinesByScan('real/tools.ndjson', run.runId);
		expect(messageSteps(run)).toEqual([...expected.keys()]);
		const bytes = readFileSync(fixturePath('real/tools.ndjson'));
		for (const [step, line] of expected) {
			const where = messageLineOf(run, step);
			expect(where).toMatchObject({source: 'real/tools.ndjson', step, line});
			expect(bytes.toString('utf8', where!.offset, where!.offset + 40)).toMatch(/^\{"type":"(continueToNextStep|completeRun)"/);
		}

		expect(messageLineOf(run)?.step).toBe(8);
		expect(messageLineOf(run, 99)).toBeUndefined();
	});

	it('keeps the step’s startGeneration until the step ends, then the end', () => {
		const started = modelFromText(perstackLine('startGeneration', {messages: []}) + '\n');
		expect(messageLineOf(started.runs.get('run-1')!, 1)).toMatchObject({line: 1});
		const ended = modelFromText(
			[
				perstackLine('startGeneration', {messages: []}),
				perstackLine('stopRunByError', {checkpoint: {status: 'stoppedByError', stepNumber: 1, messages: []}}),
			].join('\n') + '\n',
		);
		expect(messageLineOf(ended.runs.get('run-1')!, 1)).toMatchObject({line: 2});
		expect(messageSteps(ended.runs.get('run-1')!)).toEqual([1]);
	});

	it('keeps the line of every step, however many steps', () => {
		const long = modelFromText(
			Array.from({length: 30}, (_, index) => perstackLine('startGeneration', {messages: [], stepNumber: index + 1})).join('\n') + '\n',
		);
		expect(messageSteps(long.runs.get('run-1')!)).toEqual(Array.from({length: 30}, (_, index) => index + 1));
	});
});
