import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {activitiesOfRun, fixturePath, modelFromText} from '../../../../test/helpers/load.js';
import {jobCost} from '../../../query/cost.js';
import {builtinPrices} from '../../../query/prices.js';
import {taskAnswer, usageOf} from './reader.js';

/*
 * opencode streams as a user reads them: a session as a job and each of its runs as a run, the model's responses
 * as steps with their tokens and opencode's own cost, the calls with their results, a `task` call's sub-agent as
 * a run of its own, errors failing the run. The whole figures of each recording and sample are in
 * fixtures/expected/opencode-*.json; the recordings are of the real opencode 1.18.33 (fixtures/opencode/).
 */

function fixture(name: string) {
	return modelFromText(readFileSync(fixturePath(`opencode/${name}`)), {source: name});
}

/** A stream of opencode lines for session `ses_1`, each given as its type and fields. */
function stream(...lines: Array<[string, Record<string, unknown>]>) {
	const text = lines.map(([type, fields], index) => JSON.stringify({type, timestamp: 1_795_000_000_000 + index, sessionID: 'ses_1', ...fields})).join('\n');
	return modelFromText(`${text}\n`);
}

const step = (reason: string, cost = 0.01): [string, Record<string, unknown>] => [
	'step_finish',
	{part: {type: 'step-finish', reason, tokens: {total: 130, input: 100, output: 20, reasoning: 5, cache: {read: 4, write: 1}}, cost}},
];
const start: [string, Record<string, unknown>] = ['step_start', {part: {type: 'step-start'}}];

describe('an opencode stream', () => {
	it('is told by its lines, without --dialect, and its real output opens with no diagnostics and no unknown types', () => {
		for (const name of [
			'edit-and-test.jsonl',
			'failing-tools.jsonl',
			'sub-agent.jsonl',
			'api-error.jsonl',
			'samples/nanoPyCodeAgent-opencode-1.18.21-read-probe.TRIMMED.jsonl',
		]) {
			const model = fixture(name);
			expect(model.diagnostics, name).toEqual([]);
			expect(model.unknownEvents.size, name).toBe(0);
			expect(
				[...model.runs.values()].every(run => run.dialect === 'opencode'),
				name,
			).toBe(true);
		}
	});

	it('makes a session a job, and a run of it after the last one ended (`--continue`) its next run', () => {
		const model = fixture('edit-and-test.jsonl');
		const session = 'ses_de24f6ca8ffezfuiTQO3aU8iIM';
		expect([...model.jobs.keys()]).toEqual([session]);
		expect(model.runs.get(session)).toMatchObject({status: 'completed', expertKey: 'opencode'});
		expect(model.runs.get(`${session}#2`)).toMatchObject({status: 'completed'});
		const activities = activitiesOfRun(model, model.runs.get(session)!);
		// The text and reasoning of the step go with its call; the last step's text is the answer.
		expect(activities[0]).toMatchObject({type: 'generalTool', toolName: 'read', message: 'Let me read it.', reasoning: 'Read the file first.'});
		expect(activities.at(-1)).toMatchObject({type: 'complete', text: 'Fixed: greet.txt now says Hello.'});
		expect(activitiesOfRun(model, model.runs.get(`${session}#2`)!).at(-1)).toMatchObject({type: 'complete', text: 'Goodbye! The greeting stays fixed.'});
	});

	it('costs a job what opencode said each step cost', () => {
		const model = fixture('edit-and-test.jsonl');
		// Five steps of $0.00276 each (800 input, 200 cache reads and 20 output tokens of claude-sonnet-4-5).
		expect(jobCost(model, model.jobs.get('ses_de24f6ca8ffezfuiTQO3aU8iIM')!, builtinPrices)).toBeCloseTo(0.0138, 10);
	});

	it('gives a failed call its error, and a command that exited non-zero its exit code', () => {
		const model = fixture('failing-tools.jsonl');
		const tools = activitiesOfRun(model, model.runs.get('ses_de24eb4a8ffe44rmtjnCvRHOwg')!).flatMap(activity =>
			'toolName' in activity ? [[activity.toolName, activity.result?.error]] : [],
		);
		expect(tools).toEqual([
			['read', 'File not found: /home/user/ws/failing-tools/missing.txt'],
			['bash', 'exit code 1: cat: missing.txt: No such file or directory'],
		]);
	});

	it('makes a task call’s sub-agent a run of its own session, with its prompt, model and answer', () => {
		const model = fixture('sub-agent.jsonl');
		const child = model.runs.get('ses_de24e3c61ffeaoqa1jWRn6pjn7')!;
		expect(child).toMatchObject({
			expertKey: 'general',
			parentRunId: 'ses_de24e6884ffeuwOcgUObIzFw7Y',
			status: 'completed',
			model: 'claude-sonnet-4-5',
			query: 'Count the lines of each notes file and report.',
		});
		expect(activitiesOfRun(model, child).at(-1)).toMatchObject({type: 'complete', text: 'notes-a.txt has 2 lines, notes-b.txt has 3.'});
		const [delegation] = activitiesOfRun(model, model.runs.get('ses_de24e6884ffeuwOcgUObIzFw7Y')!);
		expect(delegation).toMatchObject({type: 'delegate', message: "I'll ask a sub-agent."});
	});

	it('fails the run on an error, and says a failed prompt’s error once though the CLI prints it twice', () => {
		const model = fixture('api-error.jsonl');
		const run = model.runs.get('ses_de24dfea7ffeX1WptJ63BhNly2')!;
		expect(run.status).toBe('stoppedByError');
		expect(activitiesOfRun(model, run)).toMatchObject([
			{type: 'error', errorName: 'ContextOverflowError', message: 'prompt is too long: 250000 tokens > 200000 maximum'},
		]);
	});

	it('goes on after a step that made calls, and ends the run at any other finish reason', () => {
		const model = stream(start, step('tool-calls'), start, step('unknown'), start, step('length'));
		const run = model.runs.get('ses_1')!;
		expect(run.status).toBe('completed');
		expect(activitiesOfRun(model, run).map(activity => activity.type)).toEqual(['error', 'complete']);
		expect(activitiesOfRun(model, run)[0]).toMatchObject({message: 'the model stopped: length'});
	});

	it('ends a run at `done`, and says which permissions it rejected', () => {
		const model = stream(start, ['text', {part: {type: 'text', text: 'Partly done.'}}], step('tool-calls'), ['done', {reason: 'idle', rejected: ['bash']}]);
		const run = model.runs.get('ses_1')!;
		expect(run.status).toBe('completed');
		expect(activitiesOfRun(model, run)).toMatchObject([
			{type: 'error', message: 'asked for permission "bash", rejected (run without --auto)'},
			{type: 'complete'},
		]);
	});

	it('reports a line of an event type it does not know as unknown, and a malformed one as a diagnostic', () => {
		const model = stream(start, ['compaction', {part: {}}], ['tool_use', {part: {tool: 'read'}}]);
		expect(Object.fromEntries(model.unknownEvents)).toEqual({compaction: 1});
		expect(model.diagnostics).toHaveLength(1);
	});
});

describe('opencode figures', () => {
	it('counts the cache writes as input, the cache reads as cached, and the reasoning inside the output', () => {
		expect(usageOf({total: 130, input: 100, output: 20, reasoning: 5, cache: {read: 4, write: 1}})).toEqual({
			inputTokens: 101,
			outputTokens: 25,
			reasoningTokens: 5,
			totalTokens: 130,
			cachedInputTokens: 4,
		});
	});

	it('takes a sub-agent’s answer out of the task tool’s output', () => {
		expect(taskAnswer('<task id="ses_2" state="completed">\n<task_result>\nDone.\n</task_result>\n</task>')).toBe('Done.');
		expect(taskAnswer('task_id: ses_2\n\n<task_result>\nOld form.\n</task_result>')).toBe('Old form.');
		expect(taskAnswer('no tags')).toBe('no tags');
	});
});
