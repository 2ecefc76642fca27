import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {AgentEvent, ParsedLine} from '../../../model/events.js';
import {activitiesOfRun, fixturePath, modelFromText} from '../../../../test/helpers/load.js';
import {Ingest} from '../../../load/ingest.js';
import {CodexReader} from './normalise.js';

/*
 * Codex streams as a user reads them: runs per thread, tool items paired within their run, a turn's usage out of
 * the thread's running total, retries apart from failures. Most cases are the real recordings and samples in
 * fixtures/codex/ (their whole figures are in fixtures/expected/codex-*.json); the rest are lines of the same shape.
 */

function events(lines: string[], now?: () => number): AgentEvent[] {
	const reader = new CodexReader({clockFor: source => (source === 's' ? now : undefined)});
	const out: ParsedLine[] = [];
	for (const [index, text] of lines.entries())
		reader.read({kind: 'record', value: JSON.parse(text), ref: {source: 's', line: index + 1, offset: 0}}, parsed => out.push(parsed));
	return out.flatMap(parsed => (parsed.kind === 'event' ? [parsed.event] : []));
}

function fixture(name: string) {
	return modelFromText(readFileSync(fixturePath(`codex/${name}`)), {source: name});
}

function toolsOf(model: ReturnType<typeof fixture>, runId: string) {
	const run = model.runs.get(runId)!;
	return activitiesOfRun(model, run).flatMap(activity =>
		'toolName' in activity ? [{tool: activity.toolName, id: activity.toolCallId, result: activity.result?.text, error: activity.result?.error}] : [],
	);
}

describe('a Codex stream', () => {
	it('takes each run’s usage out of the thread’s running total, and resumes the thread as the job’s next run', () => {
		const model = fixture('edit-and-test.jsonl');
		const thread = '01a21ce9-020d-7fe0-b821-ed598ab9d450';
		expect([...model.jobs.keys()]).toEqual([thread]);
		// turn.completed says 4000 then 6000 input tokens: the second turn used 2000.
		expect(model.runs.get(thread)!.usage).toMatchObject({inputTokens: 4000, cachedInputTokens: 1000, outputTokens: 200, reasoningTokens: 80});
		expect(model.runs.get(`${thread}#2`)!.usage).toMatchObject({inputTokens: 2000, cachedInputTokens: 500, outputTokens: 100, reasoningTokens: 40});
	});

	it('pairs items within their run: item ids start again at item_0 in each', () => {
		const model = fixture('edit-and-test.jsonl');
		const thread = '01a21ce9-020d-7fe0-b821-ed598ab9d450';
		expect(toolsOf(model, thread)).toEqual([
			{tool: 'command_execution', id: 'item_1', result: 'Helo, world\n', error: undefined},
			{tool: 'file_change', id: 'item_3', result: 'update /home/user/ws/edit-and-test/greet.txt', error: undefined},
			{tool: 'command_execution', id: 'item_4', result: '1\ncat: CHANGELOG.md: No such file or directory\n', error: 'exit code 1'},
		]);
		expect(toolsOf(model, `${thread}#2`)).toEqual([
			{tool: 'file_change', id: 'item_0', result: 'add /home/user/ws/edit-and-test/farewell.txt', error: undefined},
			// The web search item carries a second `id`, the search's own: the last one read is the pair's.
			{tool: 'web_search', id: 'ws_0019', result: '{"type":"search","query":"goodbye in French"}', error: undefined},
		]);
	});

	it('gives a call the reasoning and the message written before it, and the turn its last message as the answer', () => {
		const model = fixture('edit-and-test.jsonl');
		const [read, patch, check, complete] = activitiesOfRun(model, model.runs.get('01a21ce9-020d-7fe0-b821-ed598ab9d450')!);
		expect(read!.reasoning).toBe('Read the file before changing it.');
		expect(patch!).toMatchObject({message: 'The greeting misses an l; fixing it.', reasoning: undefined});
		expect(check!).toMatchObject({message: undefined, reasoning: undefined});
		expect(complete!).toMatchObject({type: 'complete', text: 'Fixed greet.txt: it now says Hello, world. There is no CHANGELOG.md to note it in.'});
	});

	it('shows an MCP call by its server and tool, its text as the result, and a failed one as an error', () => {
		const model = fixture('mcp-and-retry.jsonl');
		expect(toolsOf(model, '01a21ce9-0eaa-7d12-951f-f408f486bf9d')).toEqual([
			{tool: 'lookup', id: 'item_1', result: 'hello: the greeting the team uses in examples.', error: undefined},
			{tool: 'fail', id: 'item_2', result: 'notes are offline', error: 'notes are offline'},
		]);
		const activities = activitiesOfRun(model, model.runs.get('01a21ce9-0eaa-7d12-951f-f408f486bf9d')!);
		expect(activities.map(activity => activity.type)).toEqual(['generalTool', 'retry', 'generalTool', 'complete']);
		expect(activities[0]).toMatchObject({skillName: 'notes', args: {word: 'hello'}});
	});

	it('shows a sub-agent as a delegation to a run of its own, ended with the answer a wait reports', () => {
		const model = fixture('sub-agent.jsonl');
		const parent = model.runs.get('01a21d37-ec18-7893-8f15-6868facc7bac')!;
		const child = model.runs.get('01a21d37-ed68-7fa1-b1d2-a05383c63d33')!;
		expect(child).toMatchObject({parentRunId: parent.runId, jobId: parent.jobId, status: 'completed', query: 'Count the lines of greet.txt.'});
		const [spawn, wait, close] = activitiesOfRun(model, parent);
		expect(spawn).toMatchObject({type: 'delegate', childRunIds: [child.runId], result: {text: 'greet.txt has 1 line.'}});
		expect(wait).toMatchObject({type: 'generalTool', skillName: 'collab', toolName: 'wait', args: {agents: child.runId}});
		expect(close).toMatchObject({toolName: 'close_agent'});
		expect(activitiesOfRun(model, child).map(activity => activity.type)).toEqual(['query', 'complete']);
	});

	it('counts `Reconnecting… n/5` as retries, and fails the run once with what turn.failed says', () => {
		const model = fixture('retry-exhausted.jsonl');
		const run = model.runs.get('01a21ce9-173e-7bc0-b808-5acbadc4106d')!;
		expect(run.status).toBe('stoppedByError');
		expect(run.error).toEqual({name: 'error', message: 'stream disconnected before completion: stream closed before response.completed'});
		const activities = activitiesOfRun(model, run);
		expect(activities.map(activity => activity.type)).toEqual(['retry', 'retry', 'retry', 'retry', 'retry', 'error']);
		expect(activities[0]).toMatchObject({reason: 'Reconnecting... 1/5 (stream disconnected before completion: stream closed before response.completed)'});
	});

	it('keeps 28 failed runs of the 401 sample apart, one job each, the last cut off while it retries', () => {
		const model = modelFromText(readFileSync(fixturePath('codex/samples/hive-mind-issue-715-exec-json-401-retries.jsonl')));
		const runs = [...model.runs.values()];
		expect(runs).toHaveLength(28);
		expect(runs.filter(run => run.status === 'stoppedByError')).toHaveLength(27);
		expect(runs.at(-1)!.status).toBe('proceeding');
		expect(runs[0]!.error!.message).toMatch(/^exceeded retry limit, last status: 401 Unauthorized/);
	});

	it('shows a warning item as an error activity that does not fail the run, and takes the model it names', () => {
		const model = fixture('killed-mid-command.jsonl');
		const run = model.runs.get('01a21ce9-36d0-7291-a07f-9162beff022b')!;
		expect(run.error).toBeUndefined();
		expect(run.model).toBe('gpt-5');
		expect(activitiesOfRun(model, run)[0]).toMatchObject({
			type: 'error',
			errorName: 'warning',
			message: expect.stringMatching(/^Model metadata for `gpt-5` not found/),
		});
		const rerouted = events([
			'{"type":"thread.started","thread_id":"t"}',
			'{"type":"item.completed","item":{"id":"item_0","type":"error","message":"model rerouted: gpt-5 -> gpt-5-mini (capacity)"}}',
		]);
		expect(rerouted.find(event => event.kind === 'runtimeInit')).toMatchObject({model: 'gpt-5-mini'});
	});

	it('starts a run where a stream begins mid-turn, named after its first line', () => {
		const model = modelFromText(
			[
				'{"type":"item.started","item":{"id":"item_4","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
				'{"type":"item.completed","item":{"id":"item_4","type":"command_execution","command":"ls","aggregated_output":"a\\n","exit_code":0,"status":"completed"}}',
				'{"type":"item.completed","item":{"id":"item_5","type":"agent_message","text":"One file."}}',
				'{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":2}}',
			].join('\n'),
			{source: 'tail.jsonl'},
		);
		const run = model.runs.get('codex:line-1')!;
		expect(run).toMatchObject({status: 'completed', jobId: 'codex:line-1'});
		expect(toolsOf(model, run.runId)).toEqual([{tool: 'command_execution', id: 'item_4', result: 'a\n', error: undefined}]);
		expect(run.usage.inputTokens).toBe(10);
	});

	it('reads a log split over several files as the one stream it is: a run left open goes on in the next file', () => {
		const lines = readFileSync(fixturePath('codex/edit-and-test.jsonl'), 'utf8').trimEnd().split('\n');
		const whole = modelFromText(`${lines.join('\n')}\n`);
		// Cut mid-turn (line 8) and between the runs (line 14), read as three sources into one model.
		const ingest = new Ingest({maxLineBytes: 1 << 20});
		for (const [source, part] of [
			['a.jsonl', lines.slice(0, 7)],
			['b.jsonl', lines.slice(7, 13)],
			['c.jsonl', lines.slice(13)],
		] as const) {
			const splitter = ingest.splitter(source);
			splitter.push(Buffer.from(`${part.join('\n')}\n`));
			splitter.end();
		}

		const split = ingest.model;
		const figures = (model: typeof whole) => [...model.runs.values()].map(run => [run.runId, run.status, run.endedSteps.length, run.usage, run.activityCount]);
		expect(figures(split)).toEqual(figures(whole));
	});

	it('reads the 0.42–0.43 shape: session.created, item_type, assistant_message', () => {
		// The shape of openai/codex PR #4525's sample (0.43) and paperclip PR #1433 (0.42's session.created).
		const model = modelFromText(
			[
				'{"type":"session.created","session_id":"01999ce5-f229-7661-8570-53312bd47ea3"}',
				'{"type":"turn.started"}',
				'{"type":"item.completed","item":{"id":"item_0","item_type":"reasoning","text":"**Planning to list assigned GitHub issues**"}}',
				'{"type":"item.started","item":{"id":"item_1","item_type":"mcp_tool_call","server":"github","tool":"search_issues","status":"in_progress"}}',
				'{"type":"item.completed","item":{"id":"item_1","item_type":"mcp_tool_call","server":"github","tool":"search_issues","status":"completed"}}',
				'{"type":"item.completed","item":{"id":"item_2","item_type":"assistant_message","text":"**Assigned Issues**"}}',
				'{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":20}}',
			].join('\n'),
		);
		expect(model.diagnosticCount).toBe(0);
		expect(model.unknownEvents.size).toBe(0);
		const run = model.runs.get('01999ce5-f229-7661-8570-53312bd47ea3')!;
		expect(activitiesOfRun(model, run).map(activity => activity.type)).toEqual(['generalTool', 'complete']);
		expect(activitiesOfRun(model, run)[1]).toMatchObject({text: '**Assigned Issues**'});
	});

	it('stamps events with their arrival on a live stream, and leaves a file’s without a time', () => {
		const lines = ['{"type":"thread.started","thread_id":"t"}', '{"type":"turn.started"}'];
		expect(events(lines).map(event => event.timestamp)).toEqual([undefined, undefined]);
		let now = 1_795_000_000_000;
		expect(events(lines, () => now++).map(event => event.timestamp)).toEqual([1_795_000_000_000, 1_795_000_000_001]);
	});

	it('counts an item kind it does not know by name, and reports a known one of the wrong shape', () => {
		const model = modelFromText(
			[
				'{"type":"thread.started","thread_id":"t"}',
				'{"type":"item.completed","item":{"id":"item_0","type":"image_view","path":"a.png"}}',
				'{"type":"item.completed","item":{"id":"item_1","type":"command_execution"}}',
			].join('\n'),
		);
		expect(Object.fromEntries(model.unknownEvents)).toEqual({'item.completed/image_view': 1});
		expect(model.diagnostics[0]!.reason).toBe('invalid item.completed event: item.command: Invalid input: expected string, received undefined');
	});

	it('asks the question of request_user_input as an interactive call, and shows a to-do list as it stands', () => {
		const made = events([
			'{"type":"thread.started","thread_id":"t"}',
			'{"type":"request_user_input","id":"turn-1","call_id":"call_7","questions":[{"id":"q","question":"Which file?"}]}',
			'{"type":"item.started","item":{"id":"item_1","type":"todo_list","items":[{"text":"Read","completed":false},{"text":"Fix","completed":false}]}}',
			'{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[{"text":"Read","completed":true},{"text":"Fix","completed":false}]}}',
		]);
		expect(made[1]).toMatchObject({kind: 'toolCalls', as: 'interactive', calls: [{id: 'call_7', toolName: 'request_user_input'}]});
		expect(made[2]).toMatchObject({kind: 'toolCalls', calls: [{toolName: 'todo_list', args: {plan: '2 items'}}]});
		expect(made[3]).toMatchObject({kind: 'toolResults', results: [{text: '[x] Read\n[ ] Fix'}]});
	});

	it('regression: a line whose item is not an object (`"item": 5`) is a bad line, and the lines after it are read (it ended the whole source)', () => {
		const model = modelFromText(
			['{"type":"thread.started","thread_id":"t"}', '{"type":"item.completed","item":5}', '{"type":"turn.started"}', '{"type":"turn.completed"}'].join('\n'),
		);
		expect(model.diagnostics).toEqual([
			{line: 2, source: 'test', reason: 'invalid item.completed event: item: Invalid input: expected object, received number'},
		]);
		expect(model.runs.get('t')).toMatchObject({status: 'completed'});
	});
});

/*
 * A session's rollout (`~/.codex/sessions/…/rollout-*.jsonl`), as the real Codex CLI 0.171.0 wrote it while the
 * recordings above ran (fixtures/codex/rollout-*.jsonl): every figure below is read off the raw lines.
 */
describe('a Codex session’s rollout', () => {
	const thread = '01a228c0-f5cd-7bb2-bd63-cdd91677d85d';

	it('makes the session a job, each turn a run with its prompt, each model response a step with its own usage', () => {
		const model = fixture('rollout-edit-and-test.jsonl');
		expect(model.unknownEvents.size).toBe(0);
		expect([...model.jobs.keys()]).toEqual([thread]);
		const [first, second] = [model.runs.get(thread)!, model.runs.get(`${thread}#2`)!];
		// Four token_count lines in the first turn, 1,000 input (250 cached), 50 output (20 reasoning) each; two in the second.
		expect(first).toMatchObject({status: 'completed', model: 'gpt-5.5'});
		expect(first.usage).toMatchObject({inputTokens: 4000, cachedInputTokens: 1000, outputTokens: 200, reasoningTokens: 80});
		expect(second.usage).toMatchObject({inputTokens: 2000, cachedInputTokens: 500, outputTokens: 100, reasoningTokens: 40});
		expect([first.steps.length, second.steps.length]).toEqual([4, 2]);
		// Each line has its time: the turn starts at its task_started.
		expect(first.startedAt).toBe(Date.parse('2026-11-29T19:21:04.252Z'));
		const queries = model.activities.filter(activity => activity.type === 'query').map(activity => ('text' in activity ? activity.text : ''));
		expect(queries).toEqual(['Fix the greeting in greet.txt and check it.', 'Now add a farewell file.']);
	});

	it('reads the interactive TUI’s rollout as codex exec’s: the same turns, prompts, steps and calls', () => {
		const tui = fixture('rollout-tui.jsonl');
		const exec = fixture('rollout-edit-and-test.jsonl');
		const shape = (model: typeof tui) =>
			[...model.runs.values()].map(run => ({
				status: run.status,
				steps: run.steps.length,
				query: run.query,
				tools: activitiesOfRun(model, run).flatMap(activity => ('toolName' in activity ? [`${activity.toolName} ${activity.result?.error ?? ''}`] : [])),
			}));
		expect(tui.unknownEvents.size).toBe(0);
		expect(shape(tui)).toEqual(shape(exec));
		expect(shape(tui)[0]).toMatchObject({steps: 4, query: 'Fix the greeting in greet.txt and check it.'});
	});

	it('pairs each call with its output by call_id, a command that exits non-zero as a failure', () => {
		const model = fixture('rollout-edit-and-test.jsonl');
		const tools = toolsOf(model, thread);
		expect(tools.map(tool => [tool.tool, tool.id, tool.error])).toEqual([
			['exec_command', 'call_0004', undefined],
			['apply_patch', 'call_0008', undefined],
			['exec_command', 'call_0011', 'exit code 1'],
		]);
		expect(tools[0]!.result).toContain('Helo, world');
		const answer = activitiesOfRun(model, model.runs.get(thread)!).at(-1)!;
		expect(answer).toMatchObject({type: 'complete', text: 'Fixed greet.txt: it now says Hello, world. There is no CHANGELOG.md to note it in.'});
	});

	it('regression: a known item not of its shape (a message whose content is no list) threw out of the reader; it is a bad line, the rest read', () => {
		const lines = readFileSync(fixturePath('codex/rollout-edit-and-test.jsonl'), 'utf8').split('\n').filter(Boolean);
		const at = lines.findIndex(line => line.includes('"role":"user"') && line.includes('Fix the greeting'));
		const broken = JSON.parse(lines[at]!) as {payload: {content: unknown}};
		broken.payload.content = {};
		lines[at] = JSON.stringify(broken);
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
		const splitter = ingest.splitter('rollout.jsonl');
		splitter.push(Buffer.from(`${lines.join('\n')}\n`));
		splitter.end();
		expect(ingest.model.diagnostics.map(diagnostic => diagnostic.line)).toEqual([at + 1]);
		expect(ingest.model.runs.get(thread)).toMatchObject({status: 'completed'});
		expect(ingest.model.runs.get(`${thread}#2`)).toMatchObject({status: 'completed'});
	});

	it('makes a spawn_agent a delegation, its thread a child run with the spawn’s message, answered when a wait reports it done', () => {
		const parent = '01a228c0-fb2e-7dd1-9990-d46a08f84537';
		const helper = '01a228c0-fbec-7f11-ba40-7f4c5d6fef9a';
		const alone = fixture('rollout-sub-agent.jsonl');
		expect(alone.runs.get(helper)).toMatchObject({parentRunId: parent, status: 'completed'});
		const delegation = activitiesOfRun(alone, alone.runs.get(parent)!).find(activity => activity.type === 'delegate')!;
		expect(delegation).toMatchObject({query: 'Count the lines of greet.txt.', result: {text: 'greet.txt has 1 line.'}});

		// With the helper's own rollout after it: the helper's steps are its run's, and it answers once.
		// One load of both files, as `perscope rollout-…-parent.jsonl rollout-…-helper.jsonl` reads them.
		const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
		for (const name of ['rollout-sub-agent.jsonl', 'rollout-sub-agent-helper.jsonl']) {
			const splitter = ingest.splitter(name);
			splitter.push(readFileSync(fixturePath(`codex/${name}`)));
			splitter.end();
		}

		const both = ingest.model;
		const run = both.runs.get(helper)!;
		expect(run).toMatchObject({parentRunId: parent, status: 'completed', jobId: parent});
		expect(run.usage).toMatchObject({inputTokens: 2000, outputTokens: 100});
		const activities = activitiesOfRun(both, run).map(activity => activity.type);
		expect(activities.filter(type => type === 'complete')).toHaveLength(1);
		expect(toolsOf(both, helper).map(tool => tool.tool)).toEqual(['exec_command']);
	});
	it('a turn that never ended is interrupted by the next turn’s start, and an aborted one says why: each named, not as a wire event', () => {
		const lines = readFileSync(fixturePath('codex/rollout-tui.jsonl'), 'utf8').split('\n');
		const complete = lines.findIndex(line => line.includes('"type":"task_complete"'));
		const tui = '01a228c6-a3fe-75e1-8a23-7df94192b3e1';
		// The first turn's task_complete left out: the second task_started comes to a turn still going.
		const interrupted = modelFromText([...lines.slice(0, complete), ...lines.slice(complete + 1)].join('\n'), {source: 'rollout.jsonl'});
		expect(interrupted.runs.get(tui)).toMatchObject({status: 'stoppedByError', error: {name: 'interrupted', message: 'the next turn began'}});
		// A turn the person stopped: turn_aborted, with its reason.
		const aborted = lines.map((line, index) =>
			index === complete ? line.replace(/"payload":\{"type":"task_complete".*\}\}$/, '"payload":{"type":"turn_aborted","reason":"interrupted"}}') : line,
		);
		expect(aborted[complete]).toContain('turn_aborted');
		const model = modelFromText(aborted.join('\n'), {source: 'rollout.jsonl'});
		expect(model.runs.get(tui)).toMatchObject({status: 'stoppedByError', error: {name: 'turn aborted', message: 'interrupted'}});
	});
});
