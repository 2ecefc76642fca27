/*
 * Logs of hostile shapes (issue #22): the tree a real fleet or a malformed log can make, with as little else
 * as possible, so that tests and the bench load them in seconds. Each run is a `startRun` whose query names
 * the run, and whose `initialCheckpoint.delegatedBy` names its parent:
 *
 * - `chain`: run i is delegated by run i-1, N deep.
 * - `ring`: N runs (at least 2) each delegated by the next, the last by the first: a delegation cycle.
 * - `wide`: one coordinator that delegates to N-1 children.
 * - `tree`: a coordinator, then runs that each pick a random earlier run as their parent (seeded).
 * - `tools`: one run that makes N `exec` calls, one a step, each with its result (see `toolLines`): `runs`
 *   counts the calls there, not runs.
 *
 * Every run but the ring's completes, so a finished child collapses in the viewer as a real one does. Steps end
 * as the runtime ends them (../shared/perstack-logs, fixtures/real/): a checkpoint event whose `step.usage` is
 * the step's tokens and whose `checkpoint.usage` the run's so far, so the viewer and the summaries count steps
 * and tokens of these logs as of a real one. The message histories a real checkpoint carries are left out:
 * they would make a shape's log grow with the square of its length, and nothing here is about them.
 */

export const shapes = ['chain', 'ring', 'wide', 'tree', 'tools'] as const;
export type Shape = (typeof shapes)[number];

export function isShape(value: string): value is Shape {
	return (shapes as readonly string[]).includes(value);
}

export type ShapeOptions = {shape: Shape; runs: number; seed: number};

/** The parent of run `index` (0-based), or undefined for a root. */
function parentOf(shape: Shape, index: number, runs: number, random: () => number): number | undefined {
	switch (shape) {
		case 'chain': {
			return index === 0 ? undefined : index - 1;
		}

		case 'ring': {
			return (index + 1) % runs;
		}

		case 'wide': {
			return index === 0 ? undefined : 0;
		}

		case 'tree': {
			return index === 0 ? undefined : Math.floor(random() * index);
		}

		case 'tools': {
			return undefined;
		}

		default: {
			return assertNever(shape);
		}
	}
}

function assertNever(value: never): never {
	throw new Error(`unknown shape ${String(value)}`);
}

export function runIdOf(index: number): string {
	return `run-${index}`;
}

export function expertOf(index: number): string {
	return `expert-${index}`;
}

/** The log's lines, one run at a time, so that a million runs need no more memory than one. */
export function* shapeLines({shape, runs, seed}: ShapeOptions): Generator<string> {
	const random = seededRandom(seed);
	if (shape === 'tools') {
		yield* toolLines(runs, random);
		return;
	}

	const count = shape === 'ring' ? Math.max(2, runs) : Math.max(1, runs);
	const jobId = `job-${shape}`;
	let sequence = 0;
	const time = () => 1_795_400_000_000 + sequence * 10;
	for (let index = 0; index < count; index++) {
		const runId = runIdOf(index);
		const expertKey = expertOf(index);
		const parent = parentOf(shape, index, count, random);
		const delegatedBy = parent === undefined ? undefined : {runId: runIdOf(parent), expert: {key: expertOf(parent)}, toolCallId: `call-${index}`};
		sequence++;
		yield JSON.stringify({
			type: 'startRun',
			id: `e-${sequence}`,
			timestamp: time(),
			jobId,
			runId,
			expertKey,
			stepNumber: 1,
			initialCheckpoint: {id: `cp-${index}`, runId, status: 'init', stepNumber: 1, expert: {key: expertKey}, ...(delegatedBy ? {delegatedBy} : {})},
			inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: `query of ${runId}`}]}],
		});
		if (shape === 'ring') continue;
		sequence++;
		// One step that answers at once, as the runtime's `completeRun` of a run that calls no tool
		// (perstack-logs/simple-text.ndjson): its step's usage, the run's (the same), the last generation's.
		const used = stepUsage(index);
		yield JSON.stringify({
			type: 'completeRun',
			id: `e-${sequence}`,
			timestamp: time(),
			jobId,
			runId,
			expertKey,
			stepNumber: 1,
			checkpoint: {id: `cp-${index}-done`, runId, status: 'completed', stepNumber: 1, expert: {key: expertKey}, usage: used},
			step: {stepNumber: 1, usage: used},
			text: `done ${runId}`,
			usage: used,
		});
	}
}

type Usage = {inputTokens: number; outputTokens: number; reasoningTokens: number; totalTokens: number; cachedInputTokens: number};

function usage(inputTokens: number, outputTokens: number): Usage {
	return {inputTokens, outputTokens, reasoningTokens: 0, totalTokens: inputTokens + outputTokens, cachedInputTokens: 0};
}

/** A step's tokens: a prompt of ~900 tokens that grows a little with the step, and a short answer. */
function stepUsage(index: number): Usage {
	return usage(900 + (index % 1000), 40);
}

function sum(a: Usage, b: Usage): Usage {
	return usage(a.inputTokens + b.inputTokens, a.outputTokens + b.outputTokens);
}

function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		// mulberry32, as generate-log.ts: seeded and repeatable.
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const commands: ReadonlyArray<readonly [string, readonly string[]]> = [
	['npm', ['test', '--', '--run']],
	['git', ['status', '--short']],
	['ls', ['-la', 'src']],
	['grep', ['-rn', 'TODO', 'src']],
	['cat', ['package.json']],
	['node', ['scripts/build.mjs']],
];

const words = ['ok', 'passed', 'src/index.ts', 'warning:', 'done', 'modified', 'test', 'build', 'line', '42', 'error', 'file'];

/** An `exec` result's output: a few lines of words, 60 to 460 bytes, as a short command prints. */
function output(random: () => number): string {
	const bytes = 60 + Math.floor(random() * 400);
	let text = '';
	while (text.length < bytes) text += (random() < 0.12 ? '\n' : text === '' ? '' : ' ') + words[Math.floor(random() * words.length)]!;
	return text;
}

/**
 * `tools`: one run of `calls` steps, each an `exec` call and its result, then a step that completes; every step as
 * the runtime writes one (perstack-logs/tools.ndjson): `startGeneration`, `callTools`, `resolveToolResults`,
 * `finishToolCall`, `continueToNextStep` (the step's checkpoint); the last `startGeneration`, `callTools` of
 * `attemptCompletion`, `attemptCompletion`, `completeRun`.
 */
function* toolLines(calls: number, random: () => number): Generator<string> {
	const jobId = 'job-tools';
	const runId = runIdOf(0);
	const expertKey = expertOf(0);
	const expert = {key: expertKey};
	let sequence = 0;
	const event = (type: string, stepNumber: number, body: Record<string, unknown>): string => {
		sequence++;
		return JSON.stringify({type, id: `e-${sequence}`, timestamp: 1_795_400_000_000 + sequence * 10, jobId, runId, expertKey, stepNumber, ...body});
	};

	yield event('startRun', 1, {
		initialCheckpoint: {id: 'cp-0', runId, status: 'init', stepNumber: 1, expert},
		inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: `query of ${runId}`}]}],
	});
	const count = Math.max(1, calls);
	let total = usage(0, 0);
	for (let index = 0; index < count; index++) {
		const step = index + 1;
		const id = `call-${index}`;
		const [command, args] = commands[Math.floor(random() * commands.length)]!;
		const toolCall = {id, skillName: '@perstack/base', toolName: 'exec', args: {command, args, env: {}, cwd: '.', stdout: true, stderr: true}};
		const used = stepUsage(index);
		total = sum(total, used);
		yield event('startGeneration', step, {});
		yield event('callTools', step, {
			newMessage: {type: 'expertMessage', contents: [{type: 'toolCallPart', toolCallId: id, toolName: 'exec', args: toolCall.args}]},
			toolCalls: [toolCall],
			usage: used,
		});
		const exitCode = random() < 0.05 ? 1 : 0;
		yield event('resolveToolResults', step, {
			toolResults: [
				{
					id,
					skillName: '@perstack/base',
					toolName: 'exec',
					result: [{type: 'textPart', text: JSON.stringify({output: output(random), exitCode}), id: `part-${index}`}],
				},
			],
		});
		yield event('finishToolCall', step, {});
		yield event('continueToNextStep', step, {
			checkpoint: {id: `cp-0-${step}`, runId, status: 'proceeding', stepNumber: step, expert, usage: total},
			step: {stepNumber: step, usage: used},
		});
	}

	const last = count + 1;
	const id = `call-${count}`;
	const used = stepUsage(count);
	total = sum(total, used);
	const text = `done ${runId}`;
	yield event('startGeneration', last, {});
	yield event('callTools', last, {
		newMessage: {type: 'expertMessage', contents: [{type: 'toolCallPart', toolCallId: id, toolName: 'attemptCompletion', args: {}}]},
		toolCalls: [{id, skillName: '@perstack/base', toolName: 'attemptCompletion', args: {}}],
		usage: used,
	});
	yield event('attemptCompletion', last, {
		toolResult: {id, skillName: '@perstack/base', toolName: 'attemptCompletion', result: [{type: 'textPart', text: '{}'}]},
	});
	yield event('completeRun', last, {
		checkpoint: {id: 'cp-0-done', runId, status: 'completed', stepNumber: last, expert, usage: total},
		step: {stepNumber: last, usage: used},
		text,
		usage: used,
	});
}
