import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {AgentEvent, ParsedLine} from '../../../model/events.js';
import {activitiesOfRun, fixturePath, modelFromText} from '../../../../test/helpers/load.js';
import {Ingest} from '../../../load/ingest.js';
import {isToolActivity, type Model} from '../../../model/state.js';
import {GeminiReader} from './normalise.js';

/*
 * Gemini CLI streams as a user reads them: a run per `init`, the model's generations as steps, the answer as it
 * streams, calls paired with results by tool id, a sub-agent as a run of its own with what the stream tells of it,
 * usage from `result.stats`. The whole figures of each recording and sample are in fixtures/expected/gemini-*.json.
 */

function events(lines: string[]): AgentEvent[] {
	const reader = new GeminiReader();
	const out: ParsedLine[] = [];
	for (const [index, text] of lines.entries())
		reader.read({kind: 'record', value: JSON.parse(text), ref: {source: 's', line: index + 1, offset: 0}}, parsed => out.push(parsed));
	return out.flatMap(parsed => (parsed.kind === 'event' ? [parsed.event] : []));
}

function fixture(name: string) {
	return modelFromText(readFileSync(fixturePath(`gemini/${name}`)), {source: name});
}

const session = '8cb87219-64e1-468d-8f76-0dd1f7ccb9e7';

describe('a Gemini CLI stream', () => {
	it('makes each init a run of its session’s job, with the prompt as its query and one step per generation', () => {
		const model = fixture('fix-and-delegate.jsonl');
		expect([...model.jobs.keys()]).toEqual([session]);
		const first = model.runs.get(session)!;
		const second = model.runs.get(`${session}#2`)!;
		expect(first).toMatchObject({
			model: 'gemini-2.5-pro',
			status: 'completed',
			query: 'Fix the greeting in greet.txt, then have a helper check the workspace.',
		});
		// Text + two reads, the edit, the shell command, the sub-agent, the answer.
		expect(first.endedSteps).toHaveLength(5);
		expect(second).toMatchObject({query: 'Now add a farewell file.'});
		expect(second.endedSteps).toHaveLength(2);
	});

	it('pairs results with calls by tool id, a failed one with its error message', () => {
		const model = fixture('fix-and-delegate.jsonl');
		const tools = activitiesOfRun(model, model.runs.get(session)!).flatMap(activity =>
			'toolName' in activity ? [[activity.toolName, activity.result?.text, activity.result?.error]] : [],
		);
		expect(tools).toEqual([
			['read_file', '', undefined],
			['read_file', 'File not found.', 'File not found: /home/user/ws/fix-and-delegate/notes.txt'],
			['replace', '', undefined],
			// Gemini CLI reports the command's failure in its text only: the call succeeded.
			['run_shell_command', '1\ncat: CHANGELOG.md: No such file or directory', undefined],
		]);
	});

	it('gives the text before a call to the call, and the last generation’s text to the answer', () => {
		const model = fixture('fix-and-delegate.jsonl');
		const activities = activitiesOfRun(model, model.runs.get(session)!);
		expect(activities[1]).toMatchObject({type: 'generalTool', message: "I'll read greet.txt first."});
		expect(activities.at(-1)).toMatchObject({
			type: 'complete',
			text: 'Fixed greet.txt: it now says Hello, world. The helper found the greeting only in greet.txt; there is no CHANGELOG.md.',
		});
	});

	it('streams the answer’s chunks as they come', () => {
		const made = events([
			'{"type":"init","timestamp":"2025-10-29T10:36:07.534Z","session_id":"s1","model":"gemini-2.5-pro"}',
			'{"type":"message","timestamp":"2025-10-29T10:36:09.772Z","role":"assistant","content":"Hel","delta":true}',
			'{"type":"message","timestamp":"2025-10-29T10:36:09.800Z","role":"assistant","content":"lo!","delta":true}',
		]);
		expect(
			made.filter(event => event.kind === 'stream').map(event => (event.kind === 'stream' ? [event.channel, event.phase, event.text, event.timestamp] : [])),
		).toEqual([
			['result', 'delta', 'Hel', Date.parse('2025-10-29T10:36:09.772Z')],
			['result', 'delta', 'lo!', Date.parse('2025-10-29T10:36:09.800Z')],
		]);
	});

	it('shows a sub-agent as a delegation to a run of its own: its prompt, and its end as the call’s result', () => {
		const model = fixture('fix-and-delegate.jsonl');
		const child = model.runs.get(`${session}/generalist#1`)!;
		expect(child).toMatchObject({
			expertKey: 'generalist',
			parentRunId: session,
			status: 'completed',
			query: 'List the files in the workspace and say which ones hold a greeting.',
		});
		const delegation = activitiesOfRun(model, model.runs.get(session)!).find(activity => activity.type === 'delegate');
		expect(delegation).toMatchObject({delegateExpertKey: 'generalist', childRunIds: [child.runId]});
	});

	it('counts usage from result.stats: cache reads inside the input, thinking as what the total holds beyond input and output', () => {
		const model = fixture('fix-and-delegate.jsonl');
		// 9 replies of the stand-in: 900 in (300 cached), 40 out, 10 thinking; the sub-agent's are counted in its parent's totals.
		expect(model.runs.get(session)!.usage).toEqual({inputTokens: 8100, cachedInputTokens: 2700, outputTokens: 360, reasoningTokens: 90, totalTokens: 8550});
		expect(model.runs.get(`${session}/generalist#1`)!.usage.totalTokens).toBe(0);
	});

	it('takes the model that did the work from stats.models when init says auto, and gives the router its own run', () => {
		const model = fixture('auto-routed.jsonl');
		const run = model.runs.get('60d4d486-d6de-41fc-8634-038c7cc25928')!;
		expect(run).toMatchObject({model: 'gemini-3.8-flash', usage: {inputTokens: 900, outputTokens: 40}});
		expect(model.runs.get(`${run.runId}/gemini-3.5-flash-lite`)).toMatchObject({model: 'gemini-3.5-flash-lite', usage: {inputTokens: 100, outputTokens: 10}});
		expect(model.jobs.get(run.jobId)!.model).toBe('gemini-3.8-flash');
	});

	it('regression: the router’s run took 0 ms; the stream does not say when it ran, so it has no time (line 4 only counts its tokens)', () => {
		const model = fixture('auto-routed.jsonl');
		const router = model.runs.get('60d4d486-d6de-41fc-8634-038c7cc25928/gemini-3.5-flash-lite')!;
		expect([router.startedAt, router.endedAt, router.lastEventAt]).toEqual([undefined, undefined, undefined]);
		// The session's own run keeps its times: init (12:11:46.877Z) to result (12:11:47.090Z).
		const run = model.runs.get('60d4d486-d6de-41fc-8634-038c7cc25928')!;
		expect([run.startedAt, run.lastEventAt]).toEqual([Date.parse('2026-11-27T12:11:46.877Z'), Date.parse('2026-11-27T12:11:47.090Z')]);
	});

	it('fails the run with the result’s error type and message', () => {
		const model = fixture('max-turns.jsonl');
		const run = model.runs.get('4967bd2c-09c3-4d75-87e4-fd06685461a6')!;
		expect(run.status).toBe('stoppedByError');
		expect(run.error).toEqual({
			name: 'FatalTurnLimitedError',
			message: 'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.',
		});
		expect(run.usage.inputTokens).toBe(900);
	});

	it('shows a warning as an error activity of a run that goes on', () => {
		const model = modelFromText(
			[
				'{"type":"init","timestamp":"2026-01-01T00:00:00.000Z","session_id":"s2","model":"gemini-2.5-flash"}',
				'{"type":"error","timestamp":"2026-01-01T00:00:01.000Z","severity":"warning","message":"Loop detected, stopping execution"}',
				'{"type":"result","timestamp":"2026-01-01T00:00:02.000Z","status":"success","stats":{"total_tokens":10,"input_tokens":8,"output_tokens":2,"duration_ms":5,"tool_calls":0}}',
			].join('\n'),
		);
		const run = model.runs.get('s2')!;
		expect(run).toMatchObject({status: 'completed', error: undefined});
		expect(activitiesOfRun(model, run).map(activity => activity.type)).toEqual(['error', 'complete']);
	});

	it('reads the event after text glued in front of it, and reports the text', () => {
		const model = modelFromText(readFileSync(fixturePath('gemini/samples/paperclip-3504-init-line-with-mcp-prefix.QUOTED-IN-ISSUE.jsonl')));
		expect(model.runs.get('abc')).toMatchObject({expertKey: 'gemini', model: 'gemini-2.5-pro'});
		expect(model.diagnostics).toEqual([
			{line: 1, source: 'test', reason: 'text before the event on this line was left out: "MCP issues detected. Run /mcp list for status."'},
		]);
	});

	it('starts a run where the stream begins after its init', () => {
		const model = fixture('../gemini/samples/amux-fixture-2026-08-09.FROM-TEST.jsonl');
		const [run, router] = model.runs.values();
		expect(run).toMatchObject({runId: 'gemini:line-1', status: 'completed', model: 'gemini-3.5-flash'});
		// stats.models: the router model's share is a run of its own, priced at its own rate.
		expect(run!.usage).toMatchObject({inputTokens: 21952, cachedInputTokens: 8115, outputTokens: 46, totalTokens: 22566});
		expect(router).toMatchObject({
			runId: 'gemini:line-1/gemini-3.1-flash-lite',
			parentRunId: 'gemini:line-1',
			model: 'gemini-3.1-flash-lite',
			status: 'completed',
		});
		expect(router!.usage).toMatchObject({inputTokens: 963, outputTokens: 28, totalTokens: 1066});
	});
});

describe('a chat Gemini CLI keeps, given as an input', () => {
	const chats = 'gemini/stream-with-chats/tmp/tmp-7jg85xlsvx/chats';
	const chat = `${chats}/session-2026-11-29T21-44-87be16a9.ndjson`;
	const subAgentChat = `${chats}/87be16a9-348b-4b32-baa8-f067a778c15d/948b3e83-81e3-4be8-b7be-1b9c4e11135e.ndjson`;
	const chatSession = '87be16a9-348b-4b32-baa8-f067a778c15d';
	/** What a user sees of each activity of a run: its type, tool and input, its error. */
	const shown = (model: Model, runId: string) =>
		activitiesOfRun(model, model.runs.get(runId)!).map(activity =>
			isToolActivity(activity)
				? `${activity.type} ${activity.toolName} ${JSON.stringify(activity.args)}${activity.result?.error === undefined ? '' : ` ✗ ${activity.result.error}`}`
				: activity.type,
		);

	it('regression: read as 18 bad lines and unknown types (main, user, gemini): the session, its runs, steps and calls, as its stream shows them', () => {
		const model = modelFromText(readFileSync(fixturePath(chat)), {source: 'chat'});
		const stream = modelFromText(readFileSync(fixturePath('gemini/stream-with-chats.jsonl')), {source: 'stream'});
		expect(model.diagnostics).toEqual([]);
		expect(model.unknownEvents.size).toBe(0);
		// Every line of the file is one event.
		expect(model.events).toBe(39);
		expect([...model.jobs.keys()]).toEqual([chatSession]);
		for (const runId of [chatSession, `${chatSession}#2`, `${chatSession}/generalist#1`]) {
			if (!runId.endsWith('#1')) expect(shown(model, runId), runId).toEqual(shown(stream, runId));
			expect(model.runs.get(runId), runId).toMatchObject({
				query: stream.runs.get(runId)!.query,
				expertKey: stream.runs.get(runId)!.expertKey,
				parentRunId: stream.runs.get(runId)!.parentRunId,
			});
		}

		expect(model.runs.get(chatSession)!.status).toBe('completed');
		expect(model.runs.get(`${chatSession}#2`)!.status).toBe('completed');
		// The sub-agent never called `complete_task` as it had to: the stream says only that the call succeeded, the chat
		// how the CLI ended the sub-agent (its call's `resultDisplay.terminateReason`).
		expect(stream.runs.get(`${chatSession}/generalist#1`)!.status).toBe('completed');
		expect(model.runs.get(`${chatSession}/generalist#1`)).toMatchObject({
			status: 'stoppedByError',
			error: {name: 'ERROR_NO_COMPLETE_TASK_CALL', message: "Agent stopped calling tools but did not call 'complete_task'."},
		});
		expect(shown(model, `${chatSession}/generalist#1`)).toEqual(['query', 'error']);

		// One step a model response (lines 5, 10, 15, 20, 25; 33, 38), each with its own tokens (the stream has the run's totals only).
		expect(model.runs.get(chatSession)!.endedSteps).toEqual([1, 2, 3, 4, 5]);
		expect(model.runs.get(`${chatSession}#2`)!.endedSteps).toEqual([1, 2]);
		expect(model.runs.get(chatSession)!.usage).toEqual({inputTokens: 4500, outputTokens: 200, reasoningTokens: 50, totalTokens: 4750, cachedInputTokens: 1500});
		expect(model.runs.get(chatSession)!.model).toBe('gemini-2.5-pro');
		// The answers, and the text before the first calls with them.
		const answers = model.activities.filter(activity => activity.type === 'complete').map(activity => activity.text);
		expect(answers).toEqual([
			'Fixed greet.txt: it now says Hello, world. The helper found the greeting only in greet.txt; there is no CHANGELOG.md.',
			'Added farewell.txt.',
		]);
		expect(activitiesOfRun(model, model.runs.get(chatSession)!).find(activity => isToolActivity(activity))).toMatchObject({
			message: "I'll read greet.txt first.",
		});
		// The response's thought, as its reasoning.
		expect(activitiesOfRun(model, model.runs.get(chatSession)!).find(activity => isToolActivity(activity))?.reasoning).toBe(
			'Reading first: Read greet.txt, and the notes file beside it.',
		);
	});

	it('ends the last run with its answer at the end of the file, however the bytes were cut; a file still growing leaves it open', () => {
		const bytes = readFileSync(fixturePath(chat));
		for (const chunkSize of [1, 7, 100, 4096]) {
			const model = modelFromText(bytes, {source: 'chat', chunkSize});
			expect(model.runs.get(`${chatSession}#2`)?.status, String(chunkSize)).toBe('completed');
		}

		// Followed, the file has not ended: its last response may yet be written again with calls.
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
		const splitter = ingest.splitter('chat');
		splitter.push(bytes);
		expect(ingest.model.runs.get(`${chatSession}#2`)?.status).toBe('proceeding');
		splitter.end();
		expect(ingest.model.runs.get(`${chatSession}#2`)?.status).toBe('completed');
	});

	it('reads a sub-agent’s chat given alone as a session of its own: one run, what the CLI told it to finish with in it', () => {
		const model = modelFromText(readFileSync(fixturePath(subAgentChat)), {source: 'sub-agent chat'});
		const agent = '948b3e83-81e3-4be8-b7be-1b9c4e11135e';
		expect(model.diagnostics).toEqual([]);
		expect([...model.runs.keys()]).toEqual([agent]);
		expect(model.runs.get(agent)).toMatchObject({query: 'List the files in the workspace and say which ones hold a greeting.', status: 'completed'});
		expect(shown(model, agent)).toEqual([
			'query',
			'generalTool list_directory {"dir_path":"."}',
			'generalTool complete_task {"result":"Only greet.txt holds a greeting."} ✗ params/result must be object',
			'query',
			'complete',
		]);
		expect(model.runs.get(agent)!.endedSteps).toHaveLength(4);
	});

	it('reads an interactive session’s chat (one process, two prompts) as two runs, with the figures the CLI itself gave at /quit', () => {
		const session = '420074c7-0964-409e-9bdf-00ea0e982b2a';
		const model = modelFromText(readFileSync(fixturePath('gemini/interactive-chat/chats/session-2026-11-30T01-37-420074c7.ndjson')), {source: 'chat'});
		expect(model.diagnostics).toEqual([]);
		expect(model.runs.get(session)).toMatchObject({query: 'Fix the greeting in greet.txt, then have a helper check the workspace.', status: 'completed'});
		expect(model.runs.get(`${session}#2`)).toMatchObject({query: 'Now add a farewell file.', status: 'completed'});
		expect(model.runs.get(session)!.endedSteps).toHaveLength(5);
		expect(model.runs.get(`${session}#2`)!.endedSteps).toHaveLength(2);
		// `/quit` printed: main 7 requests, 6,300 input tokens, 2,100 cache reads, 280 output; the sub-agent 4, 3,600, 160.
		const main = [model.runs.get(session)!, model.runs.get(`${session}#2`)!].reduce(
			(sum, run) => ({input: sum.input + run.usage.inputTokens, cached: sum.cached + run.usage.cachedInputTokens, output: sum.output + run.usage.outputTokens}),
			{input: 0, cached: 0, output: 0},
		);
		expect(main).toEqual({input: 6300, cached: 2100, output: 280});
		const subAgent = modelFromText(readFileSync(fixturePath(`gemini/interactive-chat/chats/${session}/44089d6d-a69d-4626-aed7-e972a4e07c4d.ndjson`)), {
			source: 'sub-agent chat',
		});
		const runs = [...subAgent.runs.values()];
		expect(runs.reduce((sum, run) => sum + run.endedSteps.length, 0)).toBe(4);
		expect(runs.reduce((sum, run) => sum + run.usage.inputTokens, 0)).toBe(3600);
		expect(runs.reduce((sum, run) => sum + run.usage.outputTokens, 0)).toBe(160);
	});

	it('fails a run whose turn ended with the error the CLI showed, and goes on with the next prompt', () => {
		const session = '4213b797-2098-42df-a517-2042653afbff';
		const model = modelFromText(readFileSync(fixturePath('gemini/interactive-error/chats/session-2026-11-30T01-42-4213b797.ndjson')), {source: 'chat'});
		const error = '[API Error: {"error":{"code":400,"message":"scripted failure 400","status":"UNAVAILABLE"}}]';
		expect(model.runs.get(session)).toMatchObject({status: 'stoppedByError', error: {message: error}});
		expect(model.runs.get(`${session}#2`)).toMatchObject({status: 'completed', query: 'Now add a farewell file.'});
		// `/quit` printed 1,800 input tokens and 80 output: the failed request had none.
		expect(model.runs.get(`${session}#2`)!.usage).toMatchObject({inputTokens: 1800, outputTokens: 80, cachedInputTokens: 600});
	});

	it('a chat’s $set in a stream that is no chat is the bad line it was', () => {
		const lines = readFileSync(fixturePath('gemini/auto-routed.jsonl'), 'utf8').trimEnd().split('\n');
		const model = modelFromText([lines[0], '{"$set":{"lastUpdated":"2026-11-29T21:44:33.765Z"}}', ...lines.slice(1)].join('\n'), {source: 'stream'});
		expect(model.diagnostics).toEqual([{source: 'stream', line: 2, reason: 'not an event: no "type" or "kind" field'}]);
		expect([...model.runs.values()].some(run => run.status === 'completed')).toBe(true);
	});
});

describe('a chat Gemini CLI kept as one JSON document (before 0.40), given as an input', () => {
	// Recorded with 0.36.0: an interactive session of two prompts, the first delegating to the generalist sub-agent.
	const bytes = readFileSync(fixturePath('gemini/chat-document/chats/session-2026-11-30T03-22-5cb65d08.json'));
	const session = '5cb65d08-9708-44fa-a074-b37d5efce019';
	/** Each run as a user sees it: status, steps, usage, and its activities' types, tools and texts. */
	const seen = (model: Model) =>
		[...model.runs.values()].map(run => ({
			runId: run.runId,
			parentRunId: run.parentRunId,
			status: run.status,
			steps: run.endedSteps,
			usage: run.usage,
			query: run.query,
			activities: activitiesOfRun(model, run).map(activity =>
				isToolActivity(activity)
					? `${activity.type} ${activity.toolName} ${activity.result?.error ?? ''}`
					: `${activity.type} ${'text' in activity ? activity.text : ''}`,
			),
		}));

	it('regression: one event and nothing in it: read as its header and its messages would be as a chat’s lines, however the bytes are cut', () => {
		const model = modelFromText(bytes, {source: 'chat.json'});
		expect(model.diagnostics).toEqual([]);
		expect(model.unknownEvents.size).toBe(0);
		expect(model.events).toBe(1);
		const document = JSON.parse(bytes.toString('utf8')) as {messages: unknown[]};
		const {messages, ...header} = document;
		const lines = [header, ...messages].map(record => JSON.stringify(record)).join('\n');
		expect(seen(model)).toEqual(seen(modelFromText(lines, {source: 'chat.json'})));
		for (const chunkSize of [1, 7, 100, 4096]) expect(seen(modelFromText(bytes, {source: 'chat.json', chunkSize})), String(chunkSize)).toEqual(seen(model));
		// The reference way of reading (PERSCOPE_FAST=0): the same.
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024, fast: false});
		const splitter = ingest.splitter('chat.json');
		splitter.push(bytes);
		splitter.end();
		expect(seen(ingest.model)).toEqual(seen(model));
	});

	it('each prompt a run, each response a step with its own tokens; the generalist tool a sub-agent, asked its request', () => {
		const model = modelFromText(bytes, {source: 'chat.json'});
		expect([...model.jobs.keys()]).toEqual([session]);
		expect(model.runs.get(session)).toMatchObject({status: 'completed', endedSteps: [1, 2, 3, 4, 5], model: 'gemini-2.5-pro'});
		// Each response: 900 input (300 cached), 40 output, 10 of thinking.
		expect(model.runs.get(session)!.usage).toEqual({inputTokens: 4500, outputTokens: 200, reasoningTokens: 50, totalTokens: 4750, cachedInputTokens: 1500});
		expect(model.runs.get(`${session}#2`)).toMatchObject({status: 'completed', endedSteps: [1, 2], query: 'Now add a farewell file.'});
		expect(model.runs.get(`${session}/generalist#1`)).toMatchObject({
			status: 'completed',
			parentRunId: session,
			expertKey: 'generalist',
			query: 'List the files in the workspace and say which ones hold a greeting.',
		});
		// Its answer is what the call gave the model: the CLI's report, the sub-agent's result in it.
		expect(activitiesOfRun(model, model.runs.get(`${session}/generalist#1`)!).at(-1)).toMatchObject({
			type: 'complete',
			text: expect.stringContaining('Termination Reason: GOAL'),
		});
	});

	it('a sub-agent the CLI says ended without its task done (its terminateReason) failed, with that reason as the error', () => {
		const document = JSON.parse(bytes.toString('utf8')) as {messages: Array<{toolCalls?: Array<{name: string; resultDisplay: Record<string, unknown>}>}>};
		const call = document.messages.flatMap(message => message.toolCalls ?? []).find(candidate => candidate.name === 'generalist')!;
		call.resultDisplay['terminateReason'] = 'MAX_TURNS';
		call.resultDisplay['result'] = 'Agent reached max turns limit.';
		const model = modelFromText(JSON.stringify(document, null, 2), {source: 'chat.json'});
		expect(model.runs.get(`${session}/generalist#1`)).toMatchObject({
			status: 'stoppedByError',
			error: {name: 'MAX_TURNS', message: 'Agent reached max turns limit.'},
		});
		// The session goes on: the call itself succeeded.
		expect(model.runs.get(session)!.status).toBe('completed');
	});
	it('review: a warning shown before a response was written again with its calls is the turn’s, read whole or followed version by version', () => {
		const document = JSON.parse(bytes.toString('utf8')) as {messages: Array<Record<string, unknown>>};
		const at = (seconds: number) => `2026-11-30T03:23:${String(seconds).padStart(2, '0')}.000Z`;
		const prompt = {id: 'u1', timestamp: at(1), type: 'user', content: [{text: 'one'}]};
		const said = {id: 'g1', timestamp: at(2), type: 'gemini', content: 'Let me look.', tokens: {input: 10, output: 2}};
		const called = {...said, toolCalls: [{id: 'c1', name: 'list_directory', args: {dir_path: '.'}, status: 'success', timestamp: at(3)}]};
		const warning = {id: 'w1', timestamp: at(2), type: 'warning', content: 'Slow response.'};
		const answer = {id: 'g2', timestamp: at(4), type: 'gemini', content: 'Done.', tokens: {input: 10, output: 2}};
		const version = (messages: object[]) => JSON.stringify({...document, messages: [...document.messages, ...messages]}, null, 2);
		const whole = modelFromText(version([prompt, called, warning, answer]), {source: 'chat.json'});
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
		const splitter = ingest.splitter('chat.json');
		for (const messages of [
			[prompt, said],
			[prompt, said, warning],
			[prompt, called, warning, answer],
		])
			splitter.push(Buffer.from(`${version(messages).replaceAll('\n', ' ')}\n`));
		splitter.end();
		expect(seen(ingest.model)).toEqual(seen(whole));
		const run = whole.runs.get(`${session}#3`)!;
		expect(activitiesOfRun(whole, run).map(activity => activity.type)).toEqual(['query', 'generalTool', 'error', 'complete']);
		expect(run.status).toBe('completed');
	});

	it('a turn the next prompt came to with no answer was interrupted, with the CLI’s notice where it wrote one; read again whole, the same', () => {
		const document = JSON.parse(bytes.toString('utf8')) as {messages: Array<Record<string, unknown>>};
		const at = (seconds: number) => `2026-11-30T03:23:${String(seconds).padStart(2, '0')}.000Z`;
		const prompt = (id: string, text: string, seconds: number) => ({id, timestamp: at(seconds), type: 'user', content: [{text}]});
		const answer = (id: string, text: string, seconds: number) => ({id, timestamp: at(seconds), type: 'gemini', content: text, tokens: {input: 10, output: 2}});
		const cancelled = {
			id: 'g3',
			timestamp: at(5),
			type: 'gemini',
			content: '',
			toolCalls: [{id: 'c3', name: 'run_shell_command', args: {command: 'sleep 60'}, status: 'cancelled', timestamp: at(6)}],
		};
		const more = [
			prompt('u1', 'one', 1),
			answer('g1', 'One.', 2),
			prompt('u2', 'two', 3),
			{id: 'e2', timestamp: at(3), type: 'error', content: '[API Error: quota]'},
			{id: 'i2', timestamp: at(3), type: 'info', content: 'This request failed.'},
			prompt('u3', 'three', 4),
			cancelled,
			{id: 'i3', timestamp: at(7), type: 'info', content: 'Request cancelled.'},
			prompt('u4', 'four', 8),
			prompt('u5', 'five', 9),
			answer('g5', 'Five.', 10),
		];
		const version = (messages: number) => JSON.stringify({...document, messages: [...document.messages, ...more.slice(0, messages)]}, null, 2);
		const runOf = (model: Model, n: number) => model.runs.get(`${session}#${n}`);
		const whole = modelFromText(version(more.length), {source: 'chat.json'});
		expect(runOf(whole, 4)).toMatchObject({status: 'stoppedByError', error: {name: 'error', message: '[API Error: quota]'}});
		expect(runOf(whole, 5)).toMatchObject({status: 'stoppedByError', error: {name: 'interrupted', message: 'Request cancelled.'}});
		expect(runOf(whole, 6)).toMatchObject({status: 'stoppedByError', error: {name: 'interrupted', message: 'the next prompt began'}});
		expect(runOf(whole, 7)).toMatchObject({status: 'completed'});
		// Followed, each version written again whole: an old notice read again says nothing of the run now going.
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
		const splitter = ingest.splitter('chat.json');
		for (const messages of [7, 8, 9, 10, 11]) splitter.push(Buffer.from(`${version(messages).replaceAll('\n', ' ')}\n`));
		splitter.end();
		expect(seen(ingest.model)).toEqual(seen(whole));
	});
});
