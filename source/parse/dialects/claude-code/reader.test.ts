import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {DelegateActivity, Job, Model, ToolActivity} from '../../../model/state.js';
import {endInput, isToolActivity} from '../../../model/state.js';
import {endedWithoutFinalEvent, jobDurationMs, jobTotals, runDurationMs} from '../../../query/tree.js';
import {jobCost} from '../../../query/cost.js';
import {builtinPrices} from '../../../query/prices.js';
import {fixturePath, modelFromFixtures, modelFromText} from '../../../../test/helpers/load.js';
import {Ingest} from '../../../load/ingest.js';
import {looksLikeClaudeLine} from './index.js';

/*
 * Claude Code's stream read as the model: every figure here was worked out from the raw lines of the fixture
 * named (fixtures/claude-code/, README there), not from perscope's output. The run trees and token sums of every
 * fixture are in fixtures/expected/claude-code-*.json; these are the rest: pairing, delegations' answers, cost,
 * failures, live text, and what the inspector is given.
 */

function call(model: Model, id: string): ToolActivity | DelegateActivity {
	const found = model.activities.find(activity => (isToolActivity(activity) || activity.type === 'delegate') && activity.toolCallId === id);
	if (!found || !(isToolActivity(found) || found.type === 'delegate')) throw new Error(`no call ${id}`);
	return found;
}

function jobOf(model: Model, jobId: string): Job {
	const job = model.jobs.get(jobId);
	if (!job) throw new Error(`no job ${jobId}`);
	return job;
}

describe('the real 2.1.284 stream: a background sub-agent and a background command, three turns, no result', () => {
	const model = modelFromFixtures('claude-code/hive-mind-background-cc2.1.284.ndjson');
	const turns = ['ff6a901f-7970-4444-9648-995bad3bf10b', 'e715b889-3d87-471f-a30c-777f77a5cde7', '122bbb15-a7d8-4c0a-b06a-42f478011093'] as const;
	const agentCall = 'toolu_01MzSzA6sBxWXCJcRyz9Urtr';

	it('each system/init (lines 1, 23, 45) begins a turn of the session: a root run, none ended by a result', () => {
		expect(jobOf(model, 'f702c8d1-60d1-401d-ab3f-aec1cea2f00a').runIds).toEqual([turns[0], agentCall, turns[1], turns[2]]);
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		for (const id of turns) {
			const run = model.runs.get(id)!;
			expect(run).toMatchObject({parentRunId: null, expertKey: 'claude', model: 'claude-haiku-4-5-20251001', status: 'proceeding'});
			expect(endedWithoutFinalEvent(model, run)).toBe(true);
		}
	});

	it('regression: turns named after a taken id are numbered on (#2, #3, …) from the last number given, not by trying each again', () => {
		// Every new turn tried #2, #3, … up to its own: a session of thousands of turns by one id took seconds.
		const init = readFileSync(fixturePath('claude-code/hive-mind-background-cc2.1.284.ndjson'), 'utf8').split('\n')[0]!;
		const repeated = modelFromText(`${Array.from({length: 5}, () => init).join('\n')}\n`);
		expect(jobOf(repeated, 'f702c8d1-60d1-401d-ab3f-aec1cea2f00a').runIds).toEqual([
			turns[0],
			`${turns[0]}#2`,
			`${turns[0]}#3`,
			`${turns[0]}#4`,
			`${turns[0]}#5`,
		]);
	});

	it('the Agent call (line 5) is a delegation whose sub-agent is the lines tagged with its id, under the first turn', () => {
		const delegation = call(model, agentCall);
		const child = model.runs.get(agentCall)!;
		expect(delegation).toMatchObject({type: 'delegate', delegateExpertKey: 'general-purpose', childRunIds: [agentCall], runId: turns[0]});
		expect(child).toMatchObject({
			parentRunId: turns[0],
			delegatingActivityId: delegation.id,
			status: 'completed',
			query: 'Run the bash command "sleep 20; echo agent-done" and report its output.',
		});
	});

	it('its run lasts as its task did: from end_time (line 42) less duration_ms (line 43) to end_time, 26.055 s', () => {
		const run = model.runs.get(agentCall)!;
		expect([run.startedAt, run.endedAt]).toEqual([1_790_663_501_106 - 26_055, 1_790_663_501_106]);
		// No earlier than the call that started it (line 5, 06:31:15.037Z).
		expect(run.startedAt).toBeGreaterThanOrEqual(Date.parse('2026-09-29T06:31:15.037Z'));
	});

	it('its launch (line 8) is no answer: the answer is its last text, given when its task_notification (line 43) ends it', () => {
		const answer =
			'Command completed successfully. \n\nOutput: `agent-done`\n\nThe bash command slept for 20 seconds as requested, then printed the output "agent-done".';
		expect(call(model, agentCall).result?.text).toBe(answer);
		expect(model.activities.filter(activity => activity.runId === agentCall).at(-1)).toMatchObject({type: 'complete', text: answer});
	});

	it('pairs each call with its result by id: the sub-agent’s Bash (line 12 ↔ 35), the background Bash (9 ↔ 16)', () => {
		expect(call(model, 'toolu_012CZN2duNQyidfmpgSUk7eE')).toMatchObject({runId: agentCall, toolName: 'Bash', result: {text: 'agent-done', error: undefined}});
		const background = call(model, 'toolu_012AGjTj5DNGF3eSikW1nG93');
		expect(background).toMatchObject({runId: turns[0], toolName: 'Bash'});
		expect(background.result?.text).toMatch(/^Command running in background with ID: bdjuhnw29\./);
		// Its structured result, for the inspector.
		expect(background.result?.detail).toMatchObject({backgroundTaskId: 'bdjuhnw29', stdout: ''});
	});

	it('counts the usage of message msg_…Th7UKn once, though lines 4, 5 and 9 each repeat it', () => {
		// Th7UKn: 10 + 5646 written to the cache, 13689 read, 4 out; guReP9 (lines 17, 18): 8 + 809, 19335, 1.
		expect(model.runs.get(turns[0])!.usage).toEqual({inputTokens: 6473, outputTokens: 5, reasoningTokens: 0, totalTokens: 39502, cachedInputTokens: 33024});
	});

	it('with no result there is no cost from the stream: the table prices Haiku 4.5 ($1 in, $0.10 cached, $5 out)', () => {
		// 20788 in, 126124 cached, 15 out (fixtures/expected/claude-code-hive-mind-background-cc2.1.284.json).
		expect(jobCost(model, jobOf(model, 'f702c8d1-60d1-401d-ab3f-aec1cea2f00a'), builtinPrices)).toBeCloseTo((20788 * 1 + 126124 * 0.1 + 15 * 5) / 1e6, 9);
	});

	it('the synthetic nudge (line 28) is the second turn’s query', () => {
		expect(model.runs.get(turns[1])!.query).toMatch(/^\[Your previous response had no visible output/);
	});
});

describe('the real 2.1.195 probe: one session, resumed in a second process', () => {
	const model = modelFromFixtures('claude-code/probe-resume1-cc2.1.195.ndjson', 'claude-code/probe-resume2-cc2.1.195.ndjson');
	const job = jobOf(model, '81898c55-fde9-4d44-b1f5-fbd77cd4fef6');

	it('is one job of two root runs, each ended by its result with the result’s text', () => {
		expect(job.runIds).toEqual(['265882d9-52aa-4494-b88d-61521bfd86c0', 'ef34f112-522d-4f11-833b-c71f718c65fb']);
		expect(model.activities.map(activity => activity.type === 'complete' && activity.text)).toEqual(['OK', 'umbrella']);
	});

	it('costs what the two processes reported (total_cost_usd 0.0435512 and 0.0068814), hidden Haiku call included', () => {
		expect(job.reportedCost?.usd).toBeCloseTo(0.043_551_2 + 0.006_881_4, 9);
		expect(jobCost(model, job, builtinPrices)).toBeCloseTo(0.050_432_6, 9);
	});

	it('takes the final output count from the result (4 and 5), which the assistant lines (1 and 1) lack', () => {
		expect(job.runIds.map(id => model.runs.get(id)!.usage.outputTokens)).toEqual([4, 5]);
	});
});

describe('recorded with the real CLI (fixtures/claude-code/record.sh)', () => {
	it('nested sub-agents: each Agent call’s sub-agent hangs under the run that made the call', () => {
		const model = modelFromFixtures('claude-code/nested-subagents.ndjson');
		// The depth-2 task_started (line 9) comes before the call that started it (line 10): it waits for it.
		expect(model.runs.get('toolu_mockhiyk900002')).toMatchObject({parentRunId: '107f0382-f425-4602-9564-bb6c7e035c02', expertKey: 'general-purpose'});
		expect(model.runs.get('toolu_mockhiyk900004')).toMatchObject({
			parentRunId: 'toolu_mockhiyk900002',
			status: 'completed',
			query: 'Count the lines of each file in notes/ and list them.',
		});
		// The answer without the CLI's note to the model (agentId …, <usage>…), from line 14.
		expect(call(model, 'toolu_mockhiyk900004').result?.text).toBe('a.txt: 1 line, b.txt: 3 lines.');
		expect(call(model, 'toolu_mockhiyk900002').result?.text).toBe('b.txt is longest: 3 lines (a.txt has 1).');
		// What the model said with its call (line 4), and its thinking (line 3).
		expect(call(model, 'toolu_mockhiyk900002')).toMatchObject({
			message: "I'll ask a sub-agent to survey the notes.",
			reasoning: 'A sub-agent can survey the notes.',
		});
	});

	it('parallel sub-agents: each under its own call, the Explore one on Haiku', () => {
		const model = modelFromFixtures('claude-code/parallel-agents.ndjson');
		expect(call(model, 'toolu_mockqs51ba0002')).toMatchObject({childRunIds: ['toolu_mockqs51ba0002'], result: {text: 'alpha'}});
		expect(call(model, 'toolu_mockqs51ba0003')).toMatchObject({childRunIds: ['toolu_mockqs51ba0003'], result: {text: 'beta'}});
		expect(model.runs.get('toolu_mockqs51ba0003')).toMatchObject({expertKey: 'Explore', model: 'claude-haiku-4-5-20251001'});
		// Its cost: the result's total_cost_usd, not the table's (which has no price for the mock's claude-opus-4-8's cache writes).
		expect(jobCost(model, jobOf(model, '7d049991-9233-4e85-9b04-7dc0c17ba3a3'), builtinPrices)).toBeCloseTo(0.020_24, 9);
	});

	it('failing tools: is_error makes each result an error, with the tool’s text', () => {
		const model = modelFromFixtures('claude-code/failing-tools.ndjson');
		expect(call(model, 'toolu_mockre8em60002').result).toMatchObject({error: 'Exit code 1\ncat: missing.txt: No such file or directory'});
		expect(call(model, 'toolu_mockre8em60004').result?.error).toMatch(/^File does not exist\./);
		expect(call(model, 'toolu_mockre8em60006').result?.error).toMatch(
			/^Claude requested permissions to write to .*missing\.txt, but you haven't granted it yet\.$/,
		);
	});

	it('max turns: the result’s error_max_turns ends the run at its step limit, with the CLI’s reason', () => {
		const model = modelFromFixtures('claude-code/max-turns.ndjson');
		const run = model.runs.get('8d259112-d98c-4b51-94f3-89ce6855fba8')!;
		expect(run).toMatchObject({status: 'stoppedByExceededMaxSteps', error: {name: 'error_max_turns', message: 'Reached maximum number of turns (2)'}});
	});

	it('a background sub-agent: its delegation waits for its task_notification; the late results close the turns in order', () => {
		const model = modelFromFixtures('claude-code/background-agent.ndjson');
		expect(call(model, 'toolu_mockpvtbfp0002').result?.text).toBe('check-done');
		// Both results come at the end (lines 17, 18): the first is the first turn's, the second the second's.
		expect(
			model.activities
				.filter(activity => activity.type === 'complete' && activity.expertKey === 'claude')
				.map(activity => [activity.runId, activity.type === 'complete' && activity.text]),
		).toEqual([
			['44362cea-8a8e-4e40-81a7-28754d7d4fad', 'The helper is running; I will report when it is done.'],
			['04a105cf-333b-41e6-8018-be7119271054', 'The slow check finished: check-done.'],
		]);
		// total_cost_usd counts from the process's start: 0.0138, then 0.023 in all.
		expect(jobOf(model, 'e465deb9-f23d-4155-b5b2-5f9353006587').reportedCost?.usd).toBeCloseTo(0.023, 9);
	});

	it('regression: a sub-agent whose lines carry no time took 0 ms; its task dates it (end_time 1795782133727, line 13; duration_ms 3602, line 14)', () => {
		// 2.1.197 puts no time on assistant lines: the sub-agent's one timed line (11, 12:22:13.663Z) made it start and
		// end there. Its task ended at end_time and ran duration_ms, both by the CLI's clock.
		const run = modelFromFixtures('claude-code/background-agent.ndjson').runs.get('toolu_mockpvtbfp0002')!;
		expect([run.startedAt, run.endedAt]).toEqual([1_795_782_133_727 - 3602, 1_795_782_133_727]);
	});

	it('a sub-agent in the foreground is dated by its task too (nested sub-agents, both levels)', () => {
		const model = modelFromFixtures('claude-code/nested-subagents.ndjson');
		const tasks = readFileSync(fixturePath('claude-code/nested-subagents.ndjson'), 'utf8')
			.split('\n')
			.filter(line => line.includes('"subtype":"task_'))
			.map(line => JSON.parse(line) as {subtype: string; tool_use_id?: string; task_id: string; patch?: {end_time?: number}; usage?: {duration_ms?: number}});
		const dated = [...model.runs.values()].filter(run => run.parentRunId !== null);
		expect(dated.length).toBe(2);
		for (const run of dated) {
			const taskId = tasks.find(task => task.subtype === 'task_notification' && task.tool_use_id === run.runId)!.task_id;
			const endTime = tasks.find(task => task.subtype === 'task_updated' && task.task_id === taskId)!.patch!.end_time!;
			const duration = tasks.find(task => task.subtype === 'task_notification' && task.task_id === taskId)!.usage!.duration_ms!;
			expect(run.startedAt).toBe(endTime - duration);
		}
	});

	it('partial messages: the deltas are the run’s live text until the whole answer replaces them', () => {
		const lines = readFileSync(fixturePath('claude-code/partial-messages.ndjson'), 'utf8').split('\n');
		// Up to line 40: the answer's first five deltas of eight characters (lines 36-40), its assistant line (46) not yet come.
		const live = modelFromText(lines.slice(0, 40).join('\n') + '\n');
		const root = live.runs.get('73de1e49-8e0c-4e56-a7bf-361fcf91d706')!;
		expect(root.streams.get(3)?.result.text).toBe('greet.txt says "Helo world": a greeting ');
		// And the thinking deltas of the first response (lines 6-7) were its live reasoning.
		const start = modelFromText(lines.slice(0, 7).join('\n') + '\n');
		expect(start.runs.get('73de1e49-8e0c-4e56-a7bf-361fcf91d706')!.streams.get(1)?.reasoning.text).toBe(
			'The file is short; read it, then a helper can check the spelling.',
		);
		// message_delta's final output count (20 a response, lines 14, 25, 48): 60 for the three.
		const whole = modelFromFixtures('claude-code/partial-messages.ndjson');
		expect(whole.runs.get('73de1e49-8e0c-4e56-a7bf-361fcf91d706')!.usage.outputTokens).toBe(60);
	});
});

/** A model of one Claude Code session's lines, each given without its `session_id`. */
function sessionModel(session: string, lines: Array<Record<string, unknown>>): Model {
	return modelFromText(lines.map(value => `${JSON.stringify({session_id: session, ...value})}\n`).join(''));
}

describe('regression: a stream whose lines carry no time showed – for how long its turns took, though its results say', () => {
	it('the real 2.0.28 stream: no line has a time; its one turn took 1,889 ms by its result (line 3, duration_ms)', () => {
		const model = modelFromFixtures('claude-code/agentcmd-simple-cc2.0.28.ndjson');
		const job = jobOf(model, '13a34b05-d65d-4e6e-bb70-00ef7be077a8');
		const run = model.runs.get(job.runIds[0]!)!;
		expect([run.startedAt, run.endedAt, run.lastEventAt]).toEqual([undefined, undefined, undefined]);
		expect(runDurationMs(run)).toBe(1889);
		expect(jobDurationMs(jobTotals(model, job))).toBe(1889);
	});

	it('Amp (its stream has no time either): the failed session of 28 turns took 389,584 ms by its error result', () => {
		const model = modelFromFixtures('amp/error-result-413.FROM-TEST.ndjson');
		const job = jobOf(model, 'T-019bce63-7de3-73a4-93a7-c1b84e61411e');
		expect(runDurationMs(model.runs.get(job.runIds[0]!)!)).toBe(389_584);
		expect(jobDurationMs(jobTotals(model, job))).toBe(389_584);
	});

	it('a job of two turns, each with its result: the job took what they took together', () => {
		const session = 'dd0e2a40-0000-4000-8000-000000000001';
		const model = sessionModel(session, [
			{type: 'system', subtype: 'init', model: 'claude-sonnet-4-5-20250929'},
			{type: 'assistant', message: {id: 'msg_1', model: 'claude-sonnet-4-5-20250929', content: [{type: 'text', text: 'one'}]}},
			{type: 'result', subtype: 'success', is_error: false, duration_ms: 1200, result: 'one'},
			{type: 'system', subtype: 'init', model: 'claude-sonnet-4-5-20250929'},
			{type: 'assistant', message: {id: 'msg_2', model: 'claude-sonnet-4-5-20250929', content: [{type: 'text', text: 'two'}]}},
			{type: 'result', subtype: 'error_max_turns', is_error: true, duration_ms: 800},
		]);
		const job = jobOf(model, session);
		expect(job.runIds.map(id => runDurationMs(model.runs.get(id)!))).toEqual([1200, 800]);
		expect(jobDurationMs(jobTotals(model, job))).toBe(2000);
	});

	it('regression: a turn with one timed line showed 0ms (background-agent.ndjson’s second); its result says 73 ms', () => {
		const model = modelFromFixtures('claude-code/background-agent.ndjson');
		const [, second] = jobOf(model, 'e465deb9-f23d-4155-b5b2-5f9353006587')
			.runIds.map(id => model.runs.get(id)!)
			.filter(run => run.parentRunId === null);
		// Its lines give it one time (its start and its last event alike); its result (duration_ms 73) gives none.
		expect(second!.startedAt).toBe(second!.lastEventAt);
		expect(runDurationMs(second!)).toBe(73);
	});

	it('regression: a session transcript’s sub-agent, its own lines in another file, showed 0ms: it took 201 ms by its call’s result (totalDurationMs)', () => {
		const model = modelFromFixtures('claude-code/session-transcript-cc2.1.197.ndjson');
		const agent = model.runs.get('toolu_mockkqxs130002')!;
		// Its one timed line is its call's result (line 7): its start and end alike.
		expect(agent.startedAt).toBe(agent.endedAt);
		expect(agent.reportedDurationMs).toBe(201);
		expect(runDurationMs(agent)).toBe(201);
	});

	it('the real 2.0.28 stream with a sub-agent: 2.0 gives a sub-agent no time at all (no time on its lines, no tool_use_result), so none is shown', () => {
		const model = modelFromFixtures('claude-code/nested-subagents-cc2.0.28.ndjson');
		const agent = model.runs.get('toolu_mockzmqayj0002')!;
		expect([agent.startedAt, agent.endedAt, agent.reportedDurationMs]).toEqual([undefined, undefined, undefined]);
		expect(runDurationMs(agent)).toBeUndefined();
		// The turn took 339 ms by its result; a 2.0 sub-agent has no Task tool of its own (line 7's error).
		expect(runDurationMs(model.runs.get('fa717c09-dae9-4f2b-bc38-23a55d495649')!)).toBe(339);
		expect(call(model, 'toolu_mockzmqayj0010')).toMatchObject({
			type: 'delegate',
			result: {error: '<tool_use_error>Error: No such tool available: Task</tool_use_error>'},
		});
	});

	it('a turn whose times span longer than its result says keeps its times', () => {
		const session = 'dd0e2a40-0000-4000-8000-000000000002';
		const model = sessionModel(session, [
			{type: 'system', subtype: 'init', model: 'claude-sonnet-4-5-20250929'},
			{
				type: 'assistant',
				timestamp: '2026-08-23T10:50:00.000Z',
				message: {id: 'msg_1', content: [{type: 'tool_use', id: 'toolu_1', name: 'Read', input: {}}]},
			},
			{
				type: 'user',
				timestamp: '2026-08-23T10:50:05.000Z',
				message: {role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_1', content: 'x'}]},
			},
			{type: 'result', subtype: 'success', is_error: false, duration_ms: 2000, result: 'x'},
		]);
		const job = jobOf(model, session);
		const run = model.runs.get(job.runIds[0]!)!;
		expect(run.reportedDurationMs).toBe(2000);
		expect(runDurationMs(run)).toBe(5000);
		expect(jobDurationMs(jobTotals(model, job))).toBe(5000);
	});
});

describe('a compaction (`-p /compact --resume`, recorded with 2.1.197: compact-cc2.1.197.ndjson and its transcript)', () => {
	const session = 'd4e84c8e-fbb6-4cc4-87a9-5ad6f2255375';

	it('regression: the `system/status` line that ends a compaction (`"status": null`, line 7) was a bad line', () => {
		const model = modelFromFixtures('claude-code/compact-cc2.1.197.ndjson');
		expect(model.diagnosticCount).toBe(0);
		expect(model.unknownEvents.size).toBe(0);
	});

	it('regression: the stream’s `/compact` turn answered “(empty answer)”: what the command printed (line 11, `<local-command-stdout>`) is its answer, no question', () => {
		const model = modelFromFixtures('claude-code/compact-cc2.1.197.ndjson');
		const turn = model.runs.get('21425287-a7b6-42bc-ba2e-c788fab813e4')!;
		expect(turn.status).toBe('completed');
		const activities = model.activities.filter(activity => activity.runId === turn.runId);
		// The summary the model is given from then on (line 10, `isSynthetic`) is put to it; the output is not.
		expect(activities.map(activity => [activity.type, 'text' in activity ? activity.text.slice(0, 40) : ''])).toEqual([
			['query', 'This session is being continued from a p'],
			['complete', 'Compacted'],
		]);
	});

	it('regression: the transcript’s `/compact` turn ended without a final event, and its job failed: the command is its prompt, its output its answer', () => {
		const model = modelFromFixtures('claude-code/session-transcript-compact-cc2.1.197.ndjson');
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const job = jobOf(model, session);
		expect(jobTotals(model, job).status).toBe('completed');
		expect(jobTotals(model, job).failure).toBeUndefined();
		const turn = model.runs.get(`${session}#2`)!;
		expect(endedWithoutFinalEvent(model, turn)).toBe(false);
		const activities = model.activities.filter(activity => activity.runId === turn.runId);
		// Line 14 (the summary), line 15 (the CLI's caveat for the model: nothing), line 16 (the command), line 17 (its output).
		expect(activities.map(activity => [activity.type, 'text' in activity ? activity.text.slice(0, 40) : ''])).toEqual([
			['query', 'This session is being continued from a p'],
			['query', '/compact'],
			['complete', 'Compacted'],
		]);
	});
});

describe('a compaction’s transcript varied as real transcripts have it (the second review)', () => {
	const session = 'd4e84c8e-fbb6-4cc4-87a9-5ad6f2255375';
	const recorded = readFileSync(fixturePath('claude-code/session-transcript-compact-cc2.1.197.ndjson'), 'utf8')
		.split('\n')
		.filter(line => line !== '');
	const [command, output] = [recorded[15]!, recorded[16]!];
	const shown = (model: Model, runId: string) =>
		model.activities.filter(activity => activity.runId === runId).map(activity => `${activity.type} ${'text' in activity ? activity.text : ''}`.trimEnd());

	it('review: a command typed into a turn left open (2.1.3x writes no stop reason) answered that turn with its output: the command is a turn of its own', () => {
		// The first turn's answer without its end (as 2.1.3x writes every response), then /compact.
		const open = recorded[7]!.replace('"stop_reason":"end_turn"', '"stop_reason":null');
		const model = modelFromText([...recorded.slice(0, 7), open, command, output].join('\n'));
		expect(shown(model, session)).toEqual(['query Read greet.txt and tell me what it says.', 'generalTool', expect.stringMatching(/^complete <summary>/)]);
		expect(shown(model, `${session}#2`)).toEqual(['query /compact', 'complete Compacted']);
		expect(model.runs.get(session)!.status).toBe('completed');
	});

	it('regression (a real 2.1.39 transcript, session-transcript-cc2.1.39.ndjson): its two prompts were one run left going, and its job failed: two turns, each completed', () => {
		const model = modelFromFixtures('claude-code/session-transcript-cc2.1.39.ndjson');
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const job = jobOf(model, '9cba0919-6322-4202-94ca-3c33e278174d');
		expect(job.runIds.map(id => model.runs.get(id)!.status)).toEqual(['completed', 'completed']);
		expect(jobTotals(model, job).status).toBe('completed');
		// The first turn ends with its last line (line 5, its answer), not at the next prompt (line 7).
		expect(model.runs.get(job.runIds[0]!)!.endedAt).toBe(
			Date.parse(JSON.parse(readFileSync(fixturePath('claude-code/session-transcript-cc2.1.39.ndjson'), 'utf8').split('\n')[4]!).timestamp),
		);
	});

	describe('the third review, on 2.1.39’s recorded lines', () => {
		const real = readFileSync(fixturePath('claude-code/session-transcript-cc2.1.39.ndjson'), 'utf8')
			.split('\n')
			.filter(line => line !== '');
		const id = '9cba0919-6322-4202-94ca-3c33e278174d';
		const statuses = (model: Model) => jobOf(model, id).runIds.map(runId => model.runs.get(runId)!.status);
		/** A main-loop `system` line of the session, as a transcript writes one. */
		const systemLine = (subtype: string, timestamp: string, fields: Record<string, unknown>) =>
			JSON.stringify({parentUuid: null, isSidechain: false, type: 'system', subtype, ...fields, timestamp, uuid: `u-${subtype}`, sessionId: id});

		it('review: a prompt with an image pasted beside its text joined the turn before', () => {
			const withImage = real[6]!.replace(
				'"content":"Read greet.txt again."',
				'"content":[{"type":"text","text":"Read greet.txt again."},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]',
			);
			expect(withImage).toContain('"type":"image"');
			const model = modelFromText([...real.slice(0, 6), withImage, real[7]].join('\n'));
			expect(statuses(model)).toEqual(['completed', 'completed']);
		});

		it('review: a turn ended at the time of any line after it (a slash command’s note 15 minutes later), not at its own last line', () => {
			const later = systemLine('local_command', '2026-11-30T08:00:00.000Z', {content: '<command-name>/usage</command-name>', level: 'info'});
			const model = modelFromText([...real.slice(0, 5), later, ...real.slice(5)].join('\n'));
			const first = model.runs.get(id)!;
			expect(first.endedAt).toBe(Date.parse((JSON.parse(real[4]!) as {timestamp: string}).timestamp));
		});

		it('review: sessions piped one after the other left every session’s last turn but the last going', () => {
			const other = real.map(line => line.replaceAll(id, '9cba0919-0000-4000-8000-000000000002'));
			const model = modelFromText([...real, ...other].join('\n'));
			endInput(model, {exitCode: undefined, lastStderr: undefined});
			expect(statuses(model)).toEqual(['completed', 'completed']);
		});

		it('review: a turn the CLI said was over (system/turn_duration) after a call’s result was left going', () => {
			const over = systemLine('turn_duration', '2026-11-30T07:20:00.000Z', {durationMs: 200});
			const model = modelFromText([...real.slice(0, 4), over].join('\n'));
			expect(statuses(model)).toEqual(['completed']);
		});

		it('review: a file cut after a blank text block (the response’s calls still to come) was answered “(empty answer)”', () => {
			const blank = real[4]!.replace('"text":"It says: Helo, world (with a typo)."', '"text":"\\n\\n"');
			const model = modelFromText([...real.slice(0, 4), blank].join('\n'));
			expect(statuses(model)).toEqual(['proceeding']);
		});
	});

	it('2.1.3x: a turn no line says ended ends at the person’s next prompt (answered) or at `[Request interrupted by user]` (interrupted), and the last at the file’s end when it ended on an answer', () => {
		const open = recorded[7]!.replace('"stop_reason":"end_turn"', '"stop_reason":null');
		const interrupt = recorded[2]!.replace(
			'"content":"Read greet.txt and tell me what it says."',
			'"content":[{"type":"text","text":"[Request interrupted by user]"}]',
		);
		const again = recorded[2]!.replace('Read greet.txt and tell me what it says.', 'Read it again.');
		const lines = [...recorded.slice(0, 7), open, again, ...recorded.slice(5, 7), interrupt, again, open];
		const model = modelFromText(lines.join('\n'));
		expect([1, 2, 3].map(n => model.runs.get(n === 1 ? session : `${session}#${n}`)).map(run => [run?.status, run?.error?.name])).toEqual([
			['completed', undefined],
			['stoppedByError', 'interrupted'],
			['completed', undefined],
		]);
		// The interruption is no prompt of a turn of its own.
		expect(model.activities.filter(activity => activity.type === 'query').map(activity => ('text' in activity ? activity.text : ''))).toEqual([
			'Read greet.txt and tell me what it says.',
			'Read it again.',
			'Read it again.',
		]);
		// A turn that ended on a call (the session stopped there) is left going.
		const cut = modelFromText([...recorded.slice(0, 7)].join('\n'));
		expect(model.runs.get(session)!.endedAt).toBeDefined();
		expect(cut.runs.get(session)!.status).toBe('proceeding');
	});

	it('review: a prompt the CLI marks isMeta (a scheduled wake-up’s) was left out: only the caveat before a command’s output is', () => {
		const wakeUp = recorded[2]!
			.replace('"content":"Read greet.txt and tell me what it says."', '"content":"Continue the plan."')
			.replace('"type":"user"', '"isMeta":true,"type":"user"');
		expect(wakeUp).toContain('"isMeta":true');
		const model = modelFromText([wakeUp, ...recorded.slice(3, 8)].join('\n'));
		expect(shown(model, session)[0]).toBe('query Continue the plan.');
	});

	it('review: a command that failed (`<local-command-stderr>` alone) showed its tags and failed the job; styling is left out of what a command printed', () => {
		const failed = output.replace(
			'<local-command-stdout>Compacted </local-command-stdout>',
			'<local-command-stderr>Error: \\u001b[31mnothing to compact\\u001b[39m</local-command-stderr>',
		);
		const model = modelFromText([...recorded.slice(0, 8), command, failed].join('\n'));
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect(shown(model, `${session}#2`)).toEqual(['query /compact', 'complete stderr: Error: nothing to compact']);
		expect(jobTotals(model, jobOf(model, session)).status).toBe('completed');
	});

	it('review: a prompt that only mentions the tags was read as the command', () => {
		const prompt = recorded[2]!.replace(
			'"content":"Read greet.txt and tell me what it says."',
			'"content":"Why do I see <command-name>/compact</command-name> in my transcript?"',
		);
		const model = modelFromText([prompt, ...recorded.slice(3, 8)].join('\n'));
		expect(shown(model, session)[0]).toBe('query Why do I see <command-name>/compact</command-name> in my transcript?');
	});
});

describe('other real samples', () => {
	it('system/api_retry is a retry, with the status, error and attempt (2.1.237, trimmed)', () => {
		const model = modelFromFixtures('claude-code/nanoPy-read-probe-cc2.1.237.TRIMMED.ndjson');
		expect(model.activities[0]).toMatchObject({type: 'retry', reason: 'API error 401 authentication_failed, attempt 1 of 10, retrying in 524 ms'});
	});

	it('a tool result’s own structured result is kept for the inspector (the frame catalog’s Read, line 4)', () => {
		const model = modelFromFixtures('claude-code/frame-catalog-opus5.VERBATIM-LINES.ndjson');
		const read = call(model, 'toolu_014gZzVmz9aD3PJw93yUXYWy');
		expect(read.result).toMatchObject({text: '1\tSMOKE-TOOL-OK\n2\t', detail: {type: 'text', file: {content: 'SMOKE-TOOL-OK\n', numLines: 2}}});
	});

	it('Amp: its init names no model and its result no cost: usage from its assistant line, its prompt echoed as the query', () => {
		const model = modelFromFixtures('amp/happy-path-0.0.1775837683.ndjson');
		const run = model.runs.get('T-019e47a8-5090-7538-9035-f2fde26859b7')!;
		expect(run).toMatchObject({
			dialect: 'amp',
			expertKey: 'amp',
			query: 'What is 2+2? Answer in one number only.',
			usage: {inputTokens: 10, cachedInputTokens: 14009, outputTokens: 13},
		});
		expect(jobOf(model, 'T-019e47a8-5090-7538-9035-f2fde26859b7').reportedCost).toBeUndefined();
	});
});

describe('telling a Claude Code line', () => {
	it('by its type and what only its stream’s lines have, not by a type alone', () => {
		expect(looksLikeClaudeLine({type: 'system', subtype: 'init', session_id: 's'})).toBe(true);
		expect(looksLikeClaudeLine({type: 'stream_event', event: {type: 'message_stop'}})).toBe(true);
		expect(looksLikeClaudeLine({type: 'assistant', message: {content: []}})).toBe(true);
		// Gemini CLI's result, Codex's and Perstack's events are not.
		expect(looksLikeClaudeLine({type: 'result', timestamp: '2026-01-01T00:00:00Z', status: 'success', stats: {}})).toBe(false);
		expect(looksLikeClaudeLine({type: 'thread.started', thread_id: 't'})).toBe(false);
		expect(looksLikeClaudeLine({type: 'init', session_id: 's', model: 'gemini-2.5-pro'})).toBe(false);
	});

	it('a stream cut into two files reads as it does whole', () => {
		const text = readFileSync(fixturePath('claude-code/hive-mind-background-cc2.1.284.ndjson'), 'utf8');
		const lines = text.split('\n');
		const whole = modelFromText(text);
		// Two files of one load, as `perscope part-1 part-2` reads them.
		const ingest = new Ingest({maxLineBytes: 1 << 20});
		for (const [source, part] of [
			['a', lines.slice(0, 30).join('\n') + '\n'],
			['b', lines.slice(30).join('\n')],
		] as const) {
			const splitter = ingest.splitter(source);
			splitter.push(Buffer.from(part));
			splitter.end();
		}

		const both = ingest.model;
		const figures = (model: Model) => [...model.runs.values()].map(run => [run.runId, run.parentRunId, run.status, run.usage, run.endedSteps]);
		expect(figures(both)).toEqual(figures(whole));
	});
});

// A session transcript: the files Claude Code 2.1.197 itself kept of recorded sessions (~/.claude/projects), read
// as the stream they stand for. Before, one was read without a session (job `claude-code`), its transcript-only lines
// unknown, and its turn failed (a transcript has no results); its sub-agents' files went under the main loop.
describe('a session transcript', () => {
	const transcript = 'claude-code/session-transcript-cc2.1.197.ndjson';
	const subagents = ['agent-a8d324eb581d3a1e0', 'agent-a9fb83d788ae2790b'].map(name => `claude-code/session-transcript-cc2.1.197/subagents/${name}.ndjson`);
	const session = '0ccdcfe9-b26c-42b6-bd34-9894be0511a7';
	/** The files read one after the other by one reader, as the CLI reads the files it is given. */
	const readTogether = (names: readonly string[], fast = true) => {
		const ingest = new Ingest({maxLineBytes: 1 << 24, fast});
		for (const name of names) {
			const splitter = ingest.splitter(name);
			splitter.push(readFileSync(fixturePath(name)));
			splitter.end();
		}

		return ingest.model;
	};
	const byExpert = (model: Model) =>
		[...model.runs.values()].map(run => [run.expertKey, run.parentRunId === null ? 'root' : model.runs.get(run.parentRunId)!.expertKey, run.status]);

	it('is a job named by its session, its turn ended by the response with its answer, its sub-agent answered', () => {
		const model = modelFromFixtures(transcript);
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect([...model.jobs.keys()]).toEqual([session]);
		expect(model.diagnostics).toEqual([]);
		expect(model.unknownEvents.size).toBe(0);
		expect(byExpert(model)).toEqual([
			['claude', 'root', 'completed'],
			['general-purpose', 'claude', 'completed'],
		]);
		const texts = model.activities.map(activity => `${activity.type} ${'text' in activity ? activity.text : ''}`.trim());
		expect(texts).toEqual([
			'query Which notes file is longest? Use a sub-agent.',
			'delegate',
			'query Survey the notes folder and say which file is longest.',
			'complete b.txt is longest: 3 lines (a.txt has 1).',
			'complete The longest notes file is b.txt (3 lines).',
		]);
		// Its two responses (msg_…131 over three lines, msg_…139), 800 input (200 of them read from the cache) and 20
		// output tokens each, counted once each.
		const totals = jobTotals(model, jobOf(model, session));
		expect([totals.usage.inputTokens, totals.usage.cachedInputTokens, totals.usage.outputTokens, totals.steps]).toEqual([1600, 400, 40, 2]);
	});

	it('places its sub-agents’ own files under their calls, to any depth, given after the session’s', () => {
		const model = readTogether([transcript, ...subagents]);
		expect(model.diagnostics).toEqual([]);
		expect(byExpert(model)).toEqual([
			['claude', 'root', 'completed'],
			['general-purpose', 'claude', 'completed'],
			['general-purpose', 'general-purpose', 'completed'],
		]);
		const [, first, second] = [...model.runs.values()];
		// Each sub-agent's run is its Agent call's (its meta.json names the call: toolUseId).
		expect([first!.runId, second!.runId]).toEqual(['toolu_mockkqxs130002', 'toolu_mockkqxs130004']);
		expect([first!.usage.inputTokens, first!.usage.outputTokens, second!.usage.inputTokens, second!.usage.outputTokens]).toEqual([1600, 40, 1600, 40]);
		const bash = model.activities.find(activity => 'toolName' in activity && activity.toolName === 'Bash');
		expect(bash?.runId).toBe('toolu_mockkqxs130004');
	});

	it('puts a sub-agent’s file read alone under the main loop, a sub-agent of its own', () => {
		const model = modelFromFixtures(subagents[1]!);
		// Its lines end on its answer: it is over (no call's result ends it here, as none ends an auto-compaction's).
		expect(byExpert(model)).toEqual([
			['claude', 'root', 'proceeding'],
			['agent', 'claude', 'completed'],
		]);
		expect([...model.runs.keys()][1]).toBe('agent-a9fb83d788ae2790b');
	});

	it('ends a turn with its answer, not with the thinking before it (each block is a line with the same stop reason)', () => {
		const model = modelFromFixtures('claude-code/session-transcript-thinking-cc2.1.197.ndjson');
		expect(byExpert(model)).toEqual([['claude', 'root', 'completed']]);
		const complete = model.activities.filter(activity => activity.type === 'complete');
		expect(complete.map(activity => (activity.type === 'complete' ? activity.text : ''))).toEqual(['It says Helo world, with a typo.']);
		expect(complete[0]!.reasoning).toBe('It has a typo.');
	});

	it('makes a turn of each prompt of a resumed session, as the two processes’ streams do', () => {
		const model = modelFromFixtures('claude-code/session-transcript-resumed-cc2.1.197.ndjson');
		expect(model.unknownEvents.size).toBe(0);
		expect(byExpert(model)).toEqual([
			['claude', 'root', 'completed'],
			['claude', 'root', 'completed'],
		]);
		expect(model.activities.filter(activity => activity.type === 'query').map(activity => (activity.type === 'query' ? activity.text : ''))).toEqual([
			'What does greet.txt say?',
			'Fix it?',
		]);
		// The streams of the same two runs (recorded beside it, not kept): 2 + 1 steps, 2,400 input and 60 output tokens.
		const totals = jobTotals(model, jobOf(model, 'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209'));
		expect([totals.stepsRun, totals.usage.inputTokens, totals.usage.outputTokens]).toEqual([3, 2400, 60]);
	});

	it('is read the same by the schema (PERSCOPE_FAST=0)', () => {
		for (const names of [[transcript, ...subagents], ['claude-code/session-transcript-resumed-cc2.1.197.ndjson']]) {
			const read = (fast: boolean) => readTogether(names, fast);
			expect(byExpert(read(false))).toEqual(byExpert(read(true)));
			expect(read(false).activities.map(activity => activity.id)).toEqual(read(true).activities.map(activity => activity.id));
		}
	});
});
