import type {Usage} from '../source/model/events.js';
import {addUsage} from '../source/model/usage.js';
import type {Rng} from './rng.js';

/*
 * One realistic Perstack job as event lines, for the log generator (generate-log.ts): its content (words,
 * files, commands, queries) and the event builders, following the wire format of the real runtime
 * (fixtures/real/).
 */

/** What a job is made of, from the generator's options. */
export type JobOptions = {
	steps: number;
	children: number;
	deltas: number;
	messageBytes: number;
	/**
	 * Whether checkpoints and `startGeneration` carry the run's whole message history, as the runtime's do. Without
	 * them a job's bytes grow with its steps, not with their square: the soak bench streams millions of events.
	 */
	histories: boolean;
};

const WORDS = (
	'the a to of and in that is for it on with as this be by are from at or an not can but which we if will file test ' +
	'function value module error result config build cache request response handler server client parser token user ' +
	'data index source update check read write return type string number array object import export async await ' +
	'promise call path line change fix issue step plan expect should would could because when then also only each ' +
	'first next last before after while during between without inside outside retry timeout limit option default ' +
	'schema field record event stream buffer chunk offset length count total usage report summary detail review'
).split(' ');

const FILES = [
	'src/index.ts',
	'src/server.ts',
	'src/cache.ts',
	'src/parser.ts',
	'src/config.ts',
	'src/upload.ts',
	'src/auth/session.ts',
	'src/db/migrate.ts',
	'src/utils/format.ts',
	'test/cache.test.ts',
	'test/parser.test.ts',
	'README.md',
	'package.json',
	'docs/api.md',
	'CHANGELOG.md',
	'tsconfig.json',
];
const DIRS = ['.', 'src', 'src/auth', 'src/db', 'src/utils', 'test', 'docs'];
const COMMANDS: ReadonlyArray<[string, string[]]> = [
	['npx', ['vitest', 'run']],
	['npm', ['run', 'build']],
	['git', ['log', '--oneline', '-20']],
	['git', ['diff', '--stat']],
	['grep', ['-rn', 'TODO', 'src']],
	['wc', ['-l', 'src/index.ts']],
	['npx', ['tsc', '--noEmit']],
];
const QUERIES = [
	'Find out why the nightly build fails and fix it.',
	'Add a retry option to the HTTP client and document it.',
	'Review the caching layer for memory leaks.',
	'Upgrade the parser to the new schema and keep the tests green.',
	'Summarise the changes since the last release for the changelog.',
	'Investigate the slow /search endpoint and propose a fix.',
];
export const CHILD_EXPERTS = ['researcher', 'test-runner', 'code-reader', 'doc-writer', 'reviewer', 'planner', 'profiler', 'migrator'];

const SYSTEM_PROMPT =
	'You are Perstack, an AI expert that tackles tasks requested by users by utilizing all available tools.\n\n' +
	'(The following information describes your nature and role as an AI, the mechanisms of the AI system, and other meta-cognitive aspects.)\n\n' +
	"IMPORTANT:\nBased on the user's initial message, you must determine what needs to be done.\n" +
	'You must iterate through hypothesis and verification to fulfill the task.\n' +
	'YOU MUST CONTINUE TO CALL TOOLS UNTIL THE TASK IS COMPLETE.\n' +
	'If you do not call tools, the task will be considered complete, and the agent loop will end.\n\n' +
	'(... agent loop rules shortened by the generator ...)\n\n' +
	'Environment information:\n- Current working directory is /home/user/ws/generated\n\n---\n' +
	'(The following describes the objective, steps, rules, etc. regarding your expert task.)\n\n';

const q = JSON.stringify;

function usage(input = 0, output = 0, reasoning = 0, cached = 0): Usage {
	return {inputTokens: input, outputTokens: output, reasoningTokens: reasoning, totalTokens: input + output, cachedInputTokens: cached};
}

function usageJson(u: Usage): string {
	return `{"inputTokens":${u.inputTokens},"outputTokens":${u.outputTokens},"reasoningTokens":${u.reasoningTokens},"totalTokens":${u.totalTokens},"cachedInputTokens":${u.cachedInputTokens}}`;
}

type ToolCall = {id: string; skillName: string; toolName: string; argsJson: string; json: string};
type ToolResult = {id: string; skillName: string; toolName: string; text: string; json: string};

type Step = {
	startedAt: number;
	inputMessages: string;
	newMessages: string[];
	usage: Usage;
	toolCalls?: string;
	toolResults?: string;
	pending?: string;
};

class Run {
	readonly runId: string;
	readonly expertJson: string;
	/** Comma-joined serialized messages: serialized once, reused by every event that carries the history. */
	history = '';
	historyBytes = 0;
	cum: Usage = usage();
	stepNumber = 1;
	checkpointId = '';
	checkpointRunId: string;
	delegateTo = '';
	step: Step | undefined;
	pendingInput = '';

	constructor(
		rng: Rng,
		readonly expertKey: string,
		readonly delegatedBy = '',
	) {
		this.runId = rng.id();
		this.checkpointRunId = this.runId;
		this.expertJson = `{"key":${q(expertKey)},"name":${q(expertKey)},"version":"1.0.0"}`;
	}

	append(message: string): void {
		this.history = this.history === '' ? message : `${this.history},${message}`;
		this.historyBytes += message.length + 1;
	}
}

type ChildOutcome = {run: Run; text: string; call: ToolCall};

// ---------------------------------------------------------------------------------------------------------------
// Event builders

export class JobWriter {
	readonly jobId: string;
	readonly experts: string;
	now: number;

	constructor(
		private readonly rng: Rng,
		private readonly opts: JobOptions,
		start: number,
		readonly childKeys: string[],
	) {
		this.jobId = rng.id();
		this.now = start;
		this.experts = q(['coordinator', ...childKeys]);
	}

	tick(lo: number, hi: number): number {
		this.now += this.rng.int(lo, hi);
		return this.now;
	}

	// --- content -------------------------------------------------------------------------------------------------
	text(bytes: number): string {
		const rng = this.rng;
		let s = rng.pick(['Looking at', 'The', 'Next,', 'So far', 'It seems', 'I will', 'Checking']);
		while (s.length < bytes) s += ` ${rng.pick(WORDS)}`;
		return `${s}.`;
	}

	toolResultText(call: ToolCall, bytes: number): string {
		const rng = this.rng;
		if (rng.chance(0.04)) return q({error: 'Error', message: `File ${rng.pick(FILES)} does not exist.`});
		switch (call.toolName) {
			case 'readTextFile':
				return q({path: JSON.parse(call.argsJson).path, content: this.text(bytes), from: 0, to: 1 + Math.floor(bytes / 60)});
			case 'listDirectory':
				return q({
					path: `/home/user/ws/generated/${JSON.parse(call.argsJson).path}`,
					items: FILES.slice(0, rng.int(2, 6)).map(path => ({
						name: path.split('/').pop(),
						path,
						type: 'file',
						size: rng.int(80, 90_000),
						modified: '2026-11-20T12:00:00.000Z',
					})),
				});
			case 'exec':
				return q({output: this.text(bytes)});
			case 'todo':
				return q({
					todos: [
						{id: 0, title: 'Reproduce', completed: true},
						{id: 1, title: 'Fix', completed: false},
						{id: 2, title: 'Verify', completed: false},
					],
				});
			case 'getFileInfo':
				return q({path: JSON.parse(call.argsJson).path, exists: true, size: rng.int(80, 90_000), isDirectory: false, isFile: true, permissions: 'rw-r--r--'});
			default:
				return q({path: `/home/user/ws/generated/${String(JSON.parse(call.argsJson).path ?? 'out.txt')}`, text: this.text(Math.min(bytes, 200))});
		}
	}

	toolCall(skillName: string, toolName: string, args: unknown): ToolCall {
		const id = this.rng.toolUseId();
		const argsJson = q(args);
		return {id, skillName, toolName, argsJson, json: `{"id":"${id}","skillName":${q(skillName)},"toolName":${q(toolName)},"args":${argsJson}}`};
	}

	randomToolCall(): ToolCall {
		const rng = this.rng;
		switch (rng.int(0, 6)) {
			case 0:
				return this.toolCall('@perstack/base', 'listDirectory', {path: rng.pick(DIRS)});
			case 1:
			case 2: {
				const [command, args] = rng.pick(COMMANDS);
				return this.toolCall('@perstack/base', 'exec', {command, args, env: {}, cwd: '.', stdout: true, stderr: true});
			}
			case 3:
				return this.toolCall('@perstack/base', rng.chance(0.5) ? 'todo' : 'getFileInfo', rng.chance(0.5) ? {completedTodos: [0]} : {path: rng.pick(FILES)});
			case 4:
				return this.toolCall('@perstack/base', 'editTextFile', {path: rng.pick(FILES), oldText: 'retry: 0', newText: 'retry: 3'});
			default:
				return this.toolCall('@perstack/base', 'readTextFile', {path: rng.pick(FILES)});
		}
	}

	result(call: ToolCall, text: string, skillName = call.skillName): ToolResult {
		const id = this.rng.id();
		return {
			id: call.id,
			skillName,
			toolName: call.toolName,
			text,
			json: `{"id":"${call.id}","skillName":${q(skillName)},"toolName":${q(call.toolName)},"result":[{"type":"textPart","text":${q(text)},"id":"${id}"}]}`,
		};
	}

	instruction(task: string): string {
		return `{"type":"instructionMessage","contents":[{"id":"${this.rng.id()}","type":"textPart","text":${q(SYSTEM_PROMPT + task)}}],"id":"${this.rng.id()}","cache":true}`;
	}

	userMessage(text: string): string {
		return `{"type":"userMessage","contents":[{"type":"textPart","text":${q(text)},"id":"${this.rng.id()}"}],"id":"${this.rng.id()}"}`;
	}

	expertMessage(calls: ToolCall[], thinking: string | undefined, text: string | undefined): string {
		const parts: string[] = [];
		if (thinking !== undefined) parts.push(`{"type":"thinkingPart","thinking":${q(thinking)},"signature":"${this.rng.signature()}","id":"${this.rng.id()}"}`);
		if (text !== undefined) parts.push(`{"type":"textPart","text":${q(text)},"id":"${this.rng.id()}"}`);
		for (const call of calls)
			parts.push(`{"type":"toolCallPart","toolCallId":"${call.id}","toolName":${q(call.toolName)},"args":${call.argsJson},"id":"${this.rng.id()}"}`);
		return `{"type":"expertMessage","contents":[${parts.join(',')}],"id":"${this.rng.id()}"}`;
	}

	toolMessage(results: ToolResult[]): string {
		const parts = results.map(
			r =>
				`{"type":"toolResultPart","toolCallId":"${r.id}","toolName":${q(r.toolName)},"contents":[{"type":"textPart","text":${q(r.text)},"id":"${this.rng.id()}"}],"id":"${this.rng.id()}"}`,
		);
		return `{"type":"toolMessage","contents":[${parts.join(',')}],"id":"${this.rng.id()}"}`;
	}

	// --- event envelopes -------------------------------------------------------------------------------------------
	runEvent(run: Run, type: string, body: string): string {
		return `{"type":"${type}","id":"${this.rng.id()}","expertKey":${q(run.expertKey)},"timestamp":${this.now},"jobId":"${this.jobId}","runId":"${run.runId}","stepNumber":${run.stepNumber}${body}}`;
	}

	runtimeEvent(run: Run, type: string, body: string): string {
		return `{"type":"${type}","id":"${this.rng.id()}","timestamp":${this.now},"jobId":"${this.jobId}","runId":"${run.runId}"${body}}`;
	}

	checkpoint(run: Run, status: string, id = run.checkpointId, stepNumber = run.stepNumber, extra = ''): string {
		const delegatedBy = run.delegatedBy === '' ? '' : `,"delegatedBy":${run.delegatedBy}`;
		const delegateTo = run.delegateTo === '' ? '' : `,"delegateTo":${run.delegateTo}`;
		const windowUsage = Math.round((run.cum.totalTokens / 200_000) * 1e6) / 1e6;
		return (
			`{"id":"${id}","jobId":"${this.jobId}","runId":"${run.checkpointRunId}","expert":${run.expertJson},"stepNumber":${stepNumber},"status":"${status}",` +
			`"messages":[${this.history(run)}]${delegatedBy},"usage":${usageJson(run.cum)},"contextWindow":200000,"contextWindowUsage":${windowUsage}${extra},"retryCount":0${delegateTo}}`
		);
	}

	/** The messages a checkpoint or a generation carries: the run's history, or none (`histories` off). */
	history(run: Run): string {
		return this.opts.histories ? run.history : '';
	}

	stepJson(run: Run): string {
		const step = run.step;
		if (!step) throw new Error('no step in progress');
		let s = `{"stepNumber":${run.stepNumber},"inputMessages":[${step.inputMessages}],"newMessages":[${step.newMessages.join(',')}],"usage":${usageJson(step.usage)},"startedAt":${step.startedAt}`;
		if (step.toolCalls !== undefined) s += `,"toolCalls":[${step.toolCalls}]`;
		if (step.toolResults !== undefined) s += `,"toolResults":[${step.toolResults}]`;
		if (step.pending !== undefined) s += `,"partialToolResults":[],"pendingToolCalls":[${step.pending}]`;
		return `${s},"finishedAt":${this.now - this.rng.int(1, 4)}}`;
	}

	usageFor(run: Run, output: number, reasoning = 0): Usage {
		const input = 900 + Math.floor(run.historyBytes / 4);
		const cached = run.stepNumber > 1 ? Math.min(input, 1536) : 0;
		return usage(input, output + reasoning, reasoning, cached);
	}

	addUsage(run: Run, u: Usage): void {
		run.cum = addUsage(run.cum, u);
		if (run.step) run.step.usage = addUsage(run.step.usage, u);
	}

	// --- runtime events ---------------------------------------------------------------------------------------------
	*initializeRuntime(run: Run, input: {query?: string; interactiveToolCall?: string}): Generator<string> {
		this.tick(2, 12);
		const tail = input.query !== undefined ? `,"query":${q(input.query)}` : `,"interactiveToolCall":${input.interactiveToolCall ?? '{}'}`;
		yield this.runtimeEvent(
			run,
			'initializeRuntime',
			`,"runtimeVersion":"0.0.76","runtime":"local","expertName":${q(run.expertKey)},"experts":${this.experts},"model":"claude-sonnet-4-5","maxSteps":1000,"maxRetries":5,"timeout":300000${tail}`,
		);
		const handshake = this.rng.int(2, 24);
		const discovery = this.rng.int(2, 13);
		const total = handshake + discovery + this.rng.int(5, 20);
		this.tick(8, total + 8);
		yield this.runtimeEvent(
			run,
			'skillConnected',
			`,"skillName":"@perstack/base","serverInfo":{"name":"@perstack/base","version":"0.0.40"},"spawnDurationMs":0,"handshakeDurationMs":${handshake},"toolDiscoveryDurationMs":${discovery},"connectDurationMs":${handshake},"totalDurationMs":${total}`,
		);
	}

	*skillDisconnected(run: Run): Generator<string> {
		this.tick(2, 6);
		yield this.runtimeEvent(run, 'skillDisconnected', ',"skillName":"@perstack/base"');
	}

	// --- run lifecycle ----------------------------------------------------------------------------------------------
	*startRun(run: Run, inputMessages: string[], status: string, stepNumber: number, initial: Usage, extra = ''): Generator<string> {
		run.stepNumber = stepNumber;
		run.checkpointId = this.rng.id();
		run.cum = initial;
		this.tick(2, 20);
		const cp = this.checkpoint(run, status, run.checkpointId, stepNumber, extra);
		yield this.runEvent(run, 'startRun', `,"initialCheckpoint":${cp},"inputMessages":[${inputMessages.join(',')}]`);
		for (const message of inputMessages) run.append(message);
		run.pendingInput = inputMessages.join(',');
	}

	*startGeneration(run: Run): Generator<string> {
		this.tick(2, 20);
		run.step = {startedAt: this.now - this.rng.int(0, 2), inputMessages: run.pendingInput, newMessages: [], usage: usage()};
		run.pendingInput = '';
		yield this.runEvent(run, 'startGeneration', `,"messages":[${this.history(run)}]`);
	}

	/** startStreaming… / stream… deltas / completeStreaming…, with the real runtime's ordering quirks now and then. */
	*stream(run: Run, kind: 'Reasoning' | 'RunResult', text: string): Generator<string> {
		const n = this.opts.deltas;
		if (n === 0) return;
		const rng = this.rng;
		const words = text.split(' ');
		const deltas: string[] = [];
		for (let k = 0; k < n; k++) {
			const start = Math.floor((k * words.length) / n);
			const end = Math.floor(((k + 1) * words.length) / n);
			const chunk = words.slice(start, end).join(' ');
			deltas.push(start > 0 && chunk !== '' ? ` ${chunk}` : chunk);
		}
		this.tick(20, 120);
		const early = rng.chance(0.1);
		let first = 0;
		if (early) {
			// a delta before its start event (same millisecond), as in the real logs
			yield this.runEvent(run, `stream${kind}`, `,"delta":${q(deltas[0] ?? '')}`);
			first = 1;
		}
		yield this.runEvent(run, `startStreaming${kind}`, '');
		for (let i = first; i < deltas.length; i++) {
			this.tick(5, 9);
			yield this.runEvent(run, `stream${kind}`, `,"delta":${q(deltas[i] ?? '')}`);
		}
		this.tick(3, 9);
		yield this.runEvent(run, `completeStreaming${kind}`, `,"text":${q(text)}`);
	}

	*callTools(run: Run, calls: ToolCall[], u: Usage, thinking?: string, text?: string, also?: 'callDelegate'): Generator<string> {
		const message = this.expertMessage(calls, thinking, text);
		const callsJson = calls.map(c => c.json).join(',');
		this.tick(20, 240);
		const body = `,"newMessage":${message},"toolCalls":[${callsJson}],"usage":${usageJson(u)}`;
		yield this.runEvent(run, 'callTools', body);
		if (also) {
			this.tick(5, 15);
			yield this.runEvent(run, also, body);
		}
		run.append(message);
		if (run.step) {
			run.step.newMessages.push(message);
			run.step.toolCalls = callsJson;
		}
		this.addUsage(run, u);
	}

	*finish(run: Run, results: ToolResult[], type: 'finishToolCall' | 'finishAllToolCalls'): Generator<string> {
		const message = this.toolMessage(results);
		this.tick(2, 8);
		yield this.runEvent(run, type, `,"newMessages":[${message}]`);
		run.append(message);
		run.step?.newMessages.push(message);
	}

	*continueToNextStep(run: Run): Generator<string> {
		this.tick(2, 8);
		const next = this.rng.id();
		const body = `,"checkpoint":${this.checkpoint(run, 'proceeding')},"step":${this.stepJson(run)},"nextCheckpoint":${this.checkpoint(run, 'proceeding', next, run.stepNumber + 1)}`;
		yield this.runEvent(run, 'continueToNextStep', body);
		run.checkpointId = next;
		run.stepNumber++;
		run.step = undefined;
	}

	/** One ordinary step: generation, reasoning, one or two tool calls, their results, next step. */
	*toolStep(run: Run): Generator<string> {
		const rng = this.rng;
		yield* this.startGeneration(run);
		const reasoning = this.text(Math.max(40, Math.floor(this.opts.messageBytes / 4)));
		yield* this.stream(run, 'Reasoning', reasoning);
		const calls = rng.chance(0.2) ? [this.randomToolCall(), this.randomToolCall()] : [this.randomToolCall()];
		const text = rng.chance(0.3) ? this.text(Math.min(120, this.opts.messageBytes)) : undefined;
		yield* this.callTools(run, calls, this.usageFor(run, rng.int(15, 160), rng.int(10, 60)), reasoning, text);
		const results = calls.map(call => this.result(call, this.toolResultText(call, this.opts.messageBytes)));
		this.tick(5, 400);
		const resultsJson = results.map(r => r.json).join(',');
		yield this.runEvent(run, 'resolveToolResults', `,"toolResults":[${resultsJson}]`);
		if (run.step) run.step.toolResults = resultsJson;
		yield* this.finish(run, results, 'finishToolCall');
		yield* this.continueToNextStep(run);
	}

	/** The last step: attemptCompletion, the streamed result, completeRun. Returns the result text. */
	*completionStep(run: Run, done: (text: string) => void): Generator<string> {
		const rng = this.rng;
		yield* this.startGeneration(run);
		const call = this.toolCall('@perstack/base', 'attemptCompletion', {});
		yield* this.callTools(run, [call], this.usageFor(run, 5));
		const result = this.result(call, '{}');
		this.tick(5, 14);
		yield this.runEvent(run, 'attemptCompletion', `,"toolResult":${result.json}`);
		if (run.step) run.step.toolResults = result.json;
		const toolMessage = this.toolMessage([result]);
		run.append(toolMessage);
		run.step?.newMessages.push(toolMessage);
		const reasoning = this.text(Math.max(40, Math.floor(this.opts.messageBytes / 5)));
		yield* this.stream(run, 'Reasoning', reasoning);
		const text = this.text(this.opts.messageBytes);
		yield* this.stream(run, 'RunResult', text);
		const final = `{"type":"expertMessage","contents":[{"type":"thinkingPart","thinking":${q(reasoning)},"signature":"${rng.signature()}","id":"${rng.id()}"},{"type":"textPart","text":${q(text)},"id":"${rng.id()}"}],"id":"${rng.id()}"}`;
		run.append(final);
		run.step?.newMessages.push(final);
		const u = this.usageFor(run, rng.int(40, 300), rng.int(10, 80));
		this.addUsage(run, u);
		this.tick(6, 14);
		yield this.runEvent(
			run,
			'completeRun',
			`,"checkpoint":${this.checkpoint(run, 'completed')},"step":${this.stepJson(run)},"text":${q(text)},"usage":${usageJson(u)}`,
		);
		run.step = undefined;
		done(text);
	}

	// --- whole runs -------------------------------------------------------------------------------------------------
	*child(parent: Run, call: ToolCall, startStep: number, initial: Usage, steps: number, outcome: ChildOutcome[]): Generator<string> {
		const delegatedBy = `{"expert":${parent.expertJson},"toolCallId":"${call.id}","toolName":${q(call.toolName)},"checkpointId":"${parent.checkpointId}","runId":"${parent.runId}"}`;
		const run = new Run(this.rng, call.toolName, delegatedBy);
		const query = String(JSON.parse(call.argsJson).query);
		yield* this.initializeRuntime(run, {query});
		yield* this.startRun(run, [this.instruction(`Act as ${run.expertKey}.`), this.userMessage(query)], 'init', startStep, initial);
		for (let i = 1; i < steps; i++) yield* this.toolStep(run);
		let text = '';
		yield* this.completionStep(run, t => {
			text = t;
		});
		yield* this.skillDisconnected(run);
		outcome.push({run, text, call});
	}

	*job(): Generator<string> {
		const {opts, rng} = this;
		const delegating = opts.children > 0;
		const total = delegating ? Math.max(3, opts.steps) : opts.steps;
		const query = rng.pick(QUERIES);
		const coordinator = new Run(rng, 'coordinator');
		yield* this.initializeRuntime(coordinator, {query});
		yield* this.startRun(
			coordinator,
			[this.instruction('Coordinate the work; delegate independent parts in parallel.'), this.userMessage(query)],
			'init',
			1,
			usage(),
		);
		if (!delegating) {
			for (let i = 1; i < total; i++) yield* this.toolStep(coordinator);
			yield* this.completionStep(coordinator, () => {});
			yield* this.skillDisconnected(coordinator);
			return;
		}
		// steps 1 .. d-1 are tool steps, step d delegates; the resumed run has the remaining steps
		const d = Math.max(1, Math.floor(total / 2));
		for (let i = 1; i < d; i++) yield* this.toolStep(coordinator);
		yield* this.startGeneration(coordinator);
		const calls = this.childKeys.map(key => this.toolCall(key, key, {query: `${rng.pick(QUERIES)} Focus on ${rng.pick(FILES)}.`}));
		yield* this.callTools(
			coordinator,
			calls,
			this.usageFor(coordinator, rng.int(40, 120)),
			undefined,
			'I will split this between experts working in parallel.',
			'callDelegate',
		);
		coordinator.delegateTo = `[${calls.map(c => `{"expert":{"key":${q(c.toolName)},"name":${q(c.toolName)},"version":"1.0.0"},"toolCallId":"${c.id}","toolName":${q(c.toolName)},"query":${q(String(JSON.parse(c.argsJson).query))}}`).join(',')}]`;
		if (coordinator.step) coordinator.step.pending = calls.map(c => c.json).join(',');
		this.tick(5, 12);
		yield this.runEvent(
			coordinator,
			'stopRunByDelegate',
			`,"checkpoint":${this.checkpoint(coordinator, 'stoppedByDelegate', coordinator.checkpointId, coordinator.stepNumber, ',"partialToolResults":[]')},"step":${this.stepJson(coordinator)}`,
		);
		yield* this.skillDisconnected(coordinator);

		// children run in parallel: their events interleave
		const single = calls.length === 1;
		const childSteps = Math.max(2, Math.round(total / 3));
		const outcomes: ChildOutcome[] = [];
		const children = calls.map(call => this.child(coordinator, call, coordinator.stepNumber + 1, single ? coordinator.cum : usage(), childSteps, outcomes));
		while (children.length > 0) {
			const index = rng.int(0, children.length - 1);
			const next = children[index]?.next();
			if (!next || next.done) children.splice(index, 1);
			else yield next.value;
		}

		// the coordinator resumes as a new run
		const byCall = new Map(outcomes.map(o => [o.call.id, o]));
		const ordered = calls.map(c => byCall.get(c.id)).filter((o): o is ChildOutcome => o !== undefined);
		const results = ordered.map(o => this.result(o.call, o.text, `delegate/${o.call.toolName}`));
		const resumed = new Run(rng, 'coordinator');
		resumed.history = coordinator.history;
		resumed.historyBytes = coordinator.historyBytes;
		resumed.delegateTo = coordinator.delegateTo;
		const first = results[0];
		yield* this.initializeRuntime(resumed, {
			interactiveToolCall: first
				? `{"toolCallId":"${first.id}","toolName":${q(first.toolName)},"skillName":${q(first.skillName)},"text":${q(first.text)}}`
				: '{}',
		});
		const lastChildStep = ordered.reduce((highest, o) => Math.max(highest, o.run.stepNumber), -Infinity);
		const initial = single && ordered[0] ? ordered[0].run.cum : ordered.reduce((acc, o) => addUsage(acc, o.run.cum), coordinator.cum);
		const resultsJson = results.map(r => r.json).join(',');
		yield* this.startRun(resumed, [], 'stoppedByDelegate', lastChildStep + 1, initial, `,"partialToolResults":[${resultsJson}]`);
		resumed.step = {startedAt: this.now - rng.int(0, 3), inputMessages: '', newMessages: [], usage: usage(), toolResults: resultsJson};
		yield* this.finish(resumed, results, 'finishAllToolCalls');
		yield* this.continueToNextStep(resumed);
		for (let i = d + 2; i < total; i++) yield* this.toolStep(resumed);
		yield* this.completionStep(resumed, () => {});
		yield* this.skillDisconnected(resumed);
	}
}
