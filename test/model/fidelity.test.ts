import {describe, expect, it} from 'vitest';
import {readFileSync} from 'node:fs';
import {spawnSync} from 'node:child_process';
import {interactiveStop} from '../../source/query/resume-command.js';
import {endedWhileWaiting} from '../../source/query/tree.js';
import type {Summary} from '../../source/output/summary.js';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {endInput, type ToolActivity} from '../../source/model/state.js';
import {activitiesOfRun, fixturePath, modelFromFixtures, modelFromText, perstackLine, runByExpert} from '../helpers/load.js';

/*
 * Where perscope disagreed with the real Perstack runtime (#21). Each case is named after what was wrong.
 */

describe('reasoning is the reasoning of the generation it was produced in (#21.1)', () => {
	const model = modelFromFixtures('real/tools.ndjson');
	const activities = activitiesOfRun(model, runByExpert(model, 'tools-expert'));
	const finalCall = activities.filter(activity => activity.type === 'attemptCompletion').at(-1)!;
	const complete = activities.find(activity => activity.type === 'complete')!;

	it('reasoning streamed after the accepted attemptCompletion belongs to complete only', () => {
		expect(complete.reasoning).toMatch(/^All the work is done; I should summarise/);
		// That call's message had no thinking part: the model gave no reasoning for it.
		expect(finalCall.reasoning).toBeUndefined();
	});

	it('a tool call keeps the thinking of its own message, even when the stream of it comes after the call', () => {
		const exec = activities.find(activity => activity.type === 'exec')!;
		expect(exec.reasoning).toMatch(/^The missing file errored as expected/);
	});

	it('a step whose message had no thinking part shows no reasoning', () => {
		const step5 = activities.filter(activity => activity.step === 5);
		expect(step5.map(activity => activity.type)).toEqual(['appendTextFile', 'todo']);
		expect(step5.every(activity => activity.reasoning === undefined)).toBe(true);
	});
});

describe("a delegate is named by its skill, the expert's whole key (#21.5)", () => {
	it("a scoped, versioned expert keeps its scope and version, not only the tool name's last path segment", () => {
		// The runtime names the delegate tool after the last path segment of the key and the skill after the key.
		const log = readFileSync(fixturePath('real/delegate.ndjson'), 'utf8').replaceAll(
			'"skillName":"child-expert","toolName":"child-expert"',
			'"skillName":"@acme/child-expert@1.2.0","toolName":"child-expert"',
		);
		const model = modelFromText(log);
		const delegate = model.activities.find(activity => activity.type === 'delegate');
		expect(delegate?.type === 'delegate' && delegate.delegateExpertKey).toBe('@acme/child-expert@1.2.0');
	});
});

describe('plain-text tool errors are flagged (#21.6)', () => {
	const resultOf = (text: string): ToolActivity => {
		const call = {id: 'tc-1', skillName: 'github', toolName: 'createIssue', args: {}};
		const model = modelFromText(
			[
				perstackLine('startRun', {initialCheckpoint: {id: 'cp-0', status: 'init', stepNumber: 1}, inputMessages: []}),
				perstackLine('callTools', {newMessage: {id: 'm', type: 'expertMessage', contents: []}, toolCalls: [call], usage: {}}),
				perstackLine('resolveToolResults', {
					toolResults: [{id: 'tc-1', skillName: 'github', toolName: 'createIssue', result: [{type: 'textPart', id: 'p', text}]}],
				}),
			].join('\n'),
		);
		return model.activities.find((activity): activity is ToolActivity => activity.type === 'generalTool')!;
	};

	it('a call that threw ("Error calling tool X: …") is an error', () => {
		expect(resultOf('Error calling tool createIssue: MCP error -32000: Connection closed').result?.error).toBe(
			'Error calling tool createIssue: MCP error -32000: Connection closed',
		);
	});

	it('a server\'s "Error: …" answer is an error', () => {
		expect(resultOf('Error: File not found').result?.error).toBe('Error: File not found');
	});

	it('text that merely mentions an error is not', () => {
		expect(resultOf('Successfully processed without error').result?.error).toBeUndefined();
		expect(resultOf('0 errors found. Error: none').result?.error).toBeUndefined();
	});
});

describe('an event seen twice counts once (#21.7)', () => {
	it('a log concatenated with itself has one complete activity, and each repeat is a diagnostic', () => {
		const log = readFileSync(fixturePath('real/simple.ndjson'), 'utf8');
		const once = modelFromText(log);
		const twice = modelFromText(log + log);
		expect(twice.activities.map(activity => activity.type)).toEqual(once.activities.map(activity => activity.type));
		expect(twice.activities.filter(activity => activity.type === 'complete')).toHaveLength(1);
		expect(twice.diagnostics.every(diagnostic => diagnostic.reason.startsWith('duplicate event: '))).toBe(true);
		expect(twice.diagnosticCount).toBeGreaterThan(0);
	});
});

describe('a step that calls an MCP tool, a delegate and an interactive tool at once (#21.2, #21.3)', () => {
	const model = modelFromFixtures('mixed-step.ndjson');
	const activities = model.activities;

	it('the MCP tool gets its result from partialToolResults, instead of waiting for it forever', () => {
		const list = activities.find(activity => activity.type === 'listDirectory');
		expect(list?.type === 'listDirectory' && list.result?.text).toContain('README.txt');
	});

	it('delegationComplete lists the delegation only, not the MCP tool', () => {
		const complete = activities.find(activity => activity.type === 'delegationComplete');
		expect(complete?.type === 'delegationComplete' && complete.results.map(result => result.expertKey)).toEqual(['helper-expert']);
	});

	it('the resumed run that re-asks the question shows it as waiting for an answer', () => {
		const resumed = model.runs.get('run0mixed0000000000000002')!;
		const stop = interactiveStop(model, resumed);
		expect(stop?.toolName).toBe('askUser');
		expect(stop?.args).toEqual({question: 'Should the summary go into NOTES.md?'});
		// The step called listDirectory first: a plain answer would go to it, so the answer names the question (#31 §2).
		expect(stop?.command).toBe(
			`perstack run mixed-expert '{"toolCallId":"toolu_mix_ask_00003","toolName":"askUser","skillName":"user-input","text":"<answer>"}' --continue-job mixjob0000000000000000001 -i`,
		);
	});
});

describe('one job in three files: a run, a --continue-job follow-up and a --resume-from branch (#21.10, #21.13)', () => {
	const files = ['branches/1-run.ndjson', 'branches/2-continue-job.ndjson', 'branches/3-resume-from.ndjson'];
	const together = modelFromFixtures(...files);

	it('tool call ids repeated across the runs give as many activities together as one by one', () => {
		const oneByOne = files.map(file => modelFromFixtures(file).activities.length).reduce((sum, count) => sum + count, 0);
		expect(together.activities).toHaveLength(oneByOne);
		expect(new Set(together.activities.map(activity => activity.id)).size).toBe(together.activities.length);
	});

	it('each call keeps its own result, paired within its own run', () => {
		const execs = together.activities.filter((activity): activity is ToolActivity => activity.type === 'exec');
		expect(execs.map(activity => [activity.runId, activity.toolCallId, activity.result?.text])).toEqual([
			['run0first0000000000000001', 'toolu_01AbCdEf0002', '{"output":"2 notes.md"}'],
			['run0second000000000000001', 'toolu_01AbCdEf0002', '{"output":"4 notes.md"}'],
			['run0branch000000000000001', 'toolu_01AbCdEf0002', '{"output":"4 notes.md"}'],
		]);
	});

	it('the branch says where it started: the first run, its checkpoint, its step', () => {
		expect(together.runs.get('run0branch000000000000001')?.resumedFrom).toEqual({
			runId: 'run0first0000000000000001',
			checkpointId: 'cp-run0fi-2',
			stepNumber: 2,
		});
	});

	it('the follow-up is a new run after the completed one, not a resume of it', () => {
		const followUp = together.runs.get('run0second000000000000001')!;
		expect(followUp.resumesRunId).toBeNull();
		expect(followUp.paneId).toBe(followUp.runId);
		expect(followUp.resumedFrom).toEqual({runId: 'run0first0000000000000001', checkpointId: 'cp-run0fi-4', stepNumber: 4});
	});
});

describe('a job that dies while its coordinator waits (#21.11)', () => {
	const coordinatorOf = (summary: Summary) => summary.jobs[0]!.runs.find(run => run.expertKey === 'release-coordinator')!;

	it('is not called ended while the input may still bring the coordinator back', () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		const coordinator = runByExpert(model, 'release-coordinator');
		expect(endedWhileWaiting(model, coordinator)).toBeUndefined();
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect(endedWhileWaiting(model, coordinator)).toEqual({
			failedRunId: runByExpert(model, 'changelog-writer').runId,
			reason: 'changelog-writer failed: AI_APICallError: Overloaded',
		});
	});

	it('a coordinator that resumed did not end waiting', () => {
		const model = modelFromFixtures('parallel-delegate.ndjson');
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		expect([...model.runs.values()].map(run => endedWhileWaiting(model, run)).filter(Boolean)).toEqual([]);
	});

	it("--summary --json and --print say why, with the command's exit code and last stderr line", () => {
		const script =
			'cat fixtures/delegate-failure.ndjson; echo "    at runDelegation (runtime.js:1:1)" >&2; echo "Delegation error: delegation result message is incorrect" >&2; exit 1';
		const summary = spawnSync(process.execPath, [cliPath, '--summary', '--json', '--', 'sh', '-c', script], {cwd: repoRoot, encoding: 'utf8'});
		expect(summary.status).toBe(1);
		expect(coordinatorOf(JSON.parse(summary.stdout)).endedWhileWaiting).toEqual({
			failedRunId: expect.any(String),
			reason: 'changelog-writer failed: AI_APICallError: Overloaded; the command exited 1: Delegation error: delegation result message is incorrect',
		});
		const print = spawnSync(process.execPath, [cliPath, '--print', 'fixtures/delegate-failure.ndjson'], {cwd: repoRoot, encoding: 'utf8'});
		expect(print.stdout.trimEnd().split('\n').slice(-2)).toEqual([
			'[release-coordinator] ✗ the job ended while this run waited for its delegates: changelog-writer failed: AI_APICallError: Overloaded',
			'── job sm8w3d6nos5nv2eqmkf28xm4 ✗ failed: ended while waiting for delegates: changelog-writer failed: AI_APICallError: Overloaded · 4 steps · 7 steps run · 10243 in / 190 out tokens · $0.03 · 1.7s',
		]);
	});
});
