import type {AgentEvent, EventRef, ParsedLine, ToolCall, ToolResult, Usage} from '../../../model/events.js';
import {assertNever} from '../../../model/assert-never.js';
import {copyHead, outLineEvents, runEventHead, stepCheckpoint, withHead, withSharedHead, type EventHead} from '../event-head.js';
import {lineOnlyEvent, type ParsedOut, type StreamReader, type WireRecord} from '../stream-dialect.js';
import {jsonText, stringField} from '../json-values.js';
import {readOrJudge} from '../../normalise.js';
import {isOpencodeType, readOpencodeEvent} from './fast-reader.js';
import {opencodeSchemas, type OpencodeEvent, type OpencodeTokens} from './schema.js';

/*
 * opencode streams (`opencode run --format json`), line by line, into the one internal event shape. Every line
 * names its session, so one reader reads every opencode stream of a load and keeps, per session:
 *
 * - its run: a session is a job; its first line in the input starts its first run (the session id), and a step
 *   that starts after the run ended (a `--continue` or `--session` run of the same session, in the same input)
 *   its next, `<session>#2`, … The stream does not print the prompt, so a run has no query;
 * - the step: `step_start` starts one (a model response), counted as it starts; `step_finish` gives its tokens
 *   and opencode's own cost of it, and ends the run when its reason is final (anything but `tool-calls` and
 *   `unknown`, on which opencode's loop goes on), the step's text being the run's answer;
 * - the step's text and reasoning, whole parts only: the message and thinking of the step's next tool call;
 * - the sub-agents: a `task` call is printed once it has finished, with the child session it ran
 *   (`metadata.sessionId`); nothing from inside the child is printed, so its run is the call's prompt, model and
 *   answer, delegated by that call.
 *
 * An `error` line fails the session's run (the CLI prints a failed prompt's error twice: the session's and the
 * prompt's; the second says nothing new). `done` (newer versions) ends a run that has not ended yet.
 */

type RunState = {
	jobId: string;
	runId: string;
	step: number | undefined;
	stepStartedAt: number | undefined;
	ended: boolean;
	/** The current step's text and reasoning so far, each part whole. */
	text: string | undefined;
	thinking: string | undefined;
	delegations: number;
	lastError: string | undefined;
};

type Session = {runs: number; run: RunState};

/** Finish reasons on which opencode's loop calls the model again: the run goes on. */
const goingOn: ReadonlySet<string> = new Set(['tool-calls', 'unknown']);

const rootExpert = 'opencode';

export class OpencodeReader implements StreamReader {
	readonly #sessions = new Map<string, Session>();

	/** Whether a line is surely opencode's: a type of its own, named by its camel-case `sessionID`. */
	static recognises(value: Record<string, unknown>): boolean {
		const type = value['type'];
		if (typeof type !== 'string' || !isOpencodeType(type) || typeof value['sessionID'] !== 'string') return false;
		return type === 'error' || type === 'done' || (typeof value['part'] === 'object' && value['part'] !== null);
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {value, ref} = record;
		const type = value['type'];
		if (typeof type !== 'string' || !isOpencodeType(type)) {
			out(lineOnlyEvent('unknown', 'opencode', typeof type === 'string' ? type : '', ref, this.#runOfLine(value)));
			return;
		}

		const event = readOrJudge(readOpencodeEvent(value, type), () => opencodeSchemas().event, value, type, ref, out);
		if (event === undefined) return;

		// The model counts a line as one event: the line's further events say they continue it (stream-dialect.ts).
		const events = this.#events(event, ref);
		outLineEvents(events, out);
		if (events.length === 0) out(this.#marker(event, ref));
	}

	#events(event: OpencodeEvent, ref: EventRef): AgentEvent[] {
		const at = event.timestamp;
		switch (event.type) {
			case 'step_start': {
				const [run, started] = this.#run(event.sessionID, ref, at, true);
				run.step = (run.step ?? 0) + 1;
				run.stepStartedAt = at;
				run.text = undefined;
				run.thinking = undefined;
				return [...started, withHead(this.#head(run, event.type, ref, at), {kind: 'stepStart', counted: true})];
			}

			case 'text':
			case 'reasoning': {
				const [run, started] = this.#run(event.sessionID, ref, at);
				const {text} = event.part;
				if (text === '') return started;
				const channel = event.type === 'text' ? 'result' : 'reasoning';
				const joined = joinParts(channel === 'result' ? run.text : run.thinking, text);
				if (channel === 'result') run.text = joined;
				else run.thinking = joined;
				return [...started, withHead(this.#head(run, event.type, ref, at), {kind: 'stream', channel, phase: 'complete', text: joined})];
			}

			case 'tool_use':
				return this.#toolUse(event, ref);
			case 'step_finish': {
				const [run, started] = this.#run(event.sessionID, ref, at);
				const head = this.#head(run, event.type, ref, at);
				const out: AgentEvent[] = [...started];
				const {tokens, cost, reason} = event.part;
				// The step counted when it started: its usage adds to the run's, and its end records the usage and
				// times of the step itself (its chat span's).
				const stepUsage = tokens ? usageOf(tokens) : undefined;
				if (stepUsage) out.push(withSharedHead(head, {kind: 'usage', usage: stepUsage}));
				const checkpoint = stepCheckpoint(run.runId, 'proceeding', run.step);
				out.push(
					withSharedHead(head, {
						kind: 'stepEnd',
						ending: 'continue',
						checkpoint,
						stepUsage,
						startedAt: run.stepStartedAt,
						finishedAt: at,
						text: undefined,
						error: undefined,
					}),
				);
				// opencode's own estimate of what the step cost (0 for a free model): the stream's figure wins.
				if (cost !== undefined && cost >= 0) out.push(withSharedHead(head, {kind: 'reportedCost', usd: cost, runIds: [run.runId]}));
				if (reason === undefined || goingOn.has(reason) || run.ended) return out;
				if (reason !== 'stop') out.push(withSharedHead(head, {kind: 'runError', name: 'finish', message: `the model stopped: ${reason}`, warning: true}));
				run.ended = true;
				out.push(withSharedHead(head, {kind: 'runEnd', status: 'completed', text: run.text, message: undefined, usage: undefined}));
				return out;
			}

			case 'error': {
				const [run, started] = this.#run(event.sessionID, ref, at);
				const {name, message} = errorOf(event.error);
				const said = `${name}: ${message}`;
				// The prompt's failure after the session's error says the same again.
				if (run.lastError === said) return started;
				run.lastError = said;
				const head = this.#head(run, event.type, ref, at);
				const out: AgentEvent[] = [...started, withSharedHead(head, {kind: 'runError', name, message})];
				if (run.ended) return out;
				run.ended = true;
				out.push(withSharedHead(head, {kind: 'runEnd', status: 'stoppedByError', text: undefined, message, usage: undefined}));
				return out;
			}

			case 'done': {
				const [run, started] = this.#run(event.sessionID, ref, at);
				const head = this.#head(run, event.type, ref, at);
				const out: AgentEvent[] = [...started];
				for (const permission of event.rejected ?? []) {
					out.push(
						withSharedHead(head, {
							kind: 'runError',
							name: 'permission',
							message: `asked for permission "${permission}", rejected (run without --auto)`,
							warning: true,
						}),
					);
				}

				if (run.ended) return out;
				run.ended = true;
				out.push(withSharedHead(head, {kind: 'runEnd', status: 'completed', text: run.text, message: undefined, usage: undefined}));
				return out;
			}

			default:
				return assertNever(event);
		}
	}

	/** A finished tool call: the call and its result at once, and for a `task`, the sub-agent it ran. */
	#toolUse(event: Extract<OpencodeEvent, {type: 'tool_use'}>, ref: EventRef): AgentEvent[] {
		const at = event.timestamp;
		const [run, started] = this.#run(event.sessionID, ref, at);
		const head = this.#head(run, event.type, ref, at);
		const {tool, callID, state} = event.part;
		const agent = tool === 'task' ? (stringField(Object(state.input), 'subagent_type') ?? 'task') : undefined;
		const call: ToolCall = {id: callID, skillName: agent ?? '', toolName: tool, args: state.input};
		// The step's text so far is what the model said with the call.
		const calls = withSharedHead(head, {
			kind: 'toolCalls',
			as: agent === undefined ? 'tool' : 'delegate',
			calls: [call],
			text: run.text,
			thinking: run.thinking,
		});
		run.text = undefined;
		const out: AgentEvent[] = [...started, calls];
		const result = resultOf(state);
		if (result === undefined) return out;
		if (agent === undefined) {
			const toolResult: ToolResult = {id: callID, skillName: '', toolName: tool, text: result.text, error: result.error, detail: state.metadata};
			return [...out, withSharedHead(head, {kind: 'toolResults', results: [toolResult]})];
		}

		// The sub-agent: its own session, of which nothing but this line is printed.
		run.delegations++;
		const metadata: unknown = state.metadata;
		const childId = stringField(Object(metadata), 'sessionId') ?? `${run.runId}/task#${run.delegations}`;
		const childHead = copyHead(head);
		childHead.runId = childId;
		childHead.step = undefined;
		const model = modelOf(metadata);
		const answer = taskAnswer(result.text);
		out.push(
			withSharedHead(head, {
				timestamp: state.time?.start ?? at,
				kind: 'childRunStart',
				childRunId: childId,
				childExpertKey: agent,
				query: promptOf(state.input),
				viaToolName: tool,
				viaToolCallId: callID,
			}),
		);
		// Not the job's model: only the sub-agent's.
		if (model !== undefined) out.push(withSharedHead(childHead, {jobId: '', timestamp: state.time?.start ?? at, kind: 'runtimeInit', model}));
		const status = result.error === undefined ? 'completed' : 'stoppedByError';
		out.push(
			withHead(childHead, {
				timestamp: state.time?.end ?? at,
				kind: 'runEnd',
				status,
				text: result.error === undefined ? answer : undefined,
				message: result.error,
				usage: undefined,
			}),
		);
		// The call's result is the sub-agent's answer.
		const toolResult: ToolResult = {id: callID, skillName: '', toolName: tool, text: answer, error: result.error, detail: state.metadata};
		out.push(withSharedHead(head, {kind: 'toolResults', results: [toolResult]}));
		return out;
	}

	/**
	 * The session's current run, and the events that start it: its first line starts the session's first run, and
	 * a step that starts after the run ended (`startsStep`) the session's next.
	 */
	#run(sessionID: string, ref: EventRef, at: number | undefined, startsStep = false): [RunState, AgentEvent[]] {
		const session = this.#sessions.get(sessionID);
		if (session && !(startsStep && session.run.ended)) return [session.run, []];
		const runs = (session?.runs ?? 0) + 1;
		const run: RunState = {
			jobId: sessionID,
			runId: runs === 1 ? sessionID : `${sessionID}#${runs}`,
			step: undefined,
			stepStartedAt: undefined,
			ended: false,
			text: undefined,
			thinking: undefined,
			delegations: 0,
			lastError: undefined,
		};
		this.#sessions.set(sessionID, {runs, run});
		const start = withHead(this.#head(run, 'session', ref, at), {
			kind: 'childRunStart',
			childRunId: run.runId,
			childExpertKey: rootExpert,
			query: undefined,
			viaToolName: undefined,
		});
		return [run, [start]];
	}

	/** The run of a line of an unknown type, when it names a session that has one. */
	#runOfLine(value: Record<string, unknown>): RunState | undefined {
		const session = value['sessionID'];
		return typeof session === 'string' ? this.#sessions.get(session)?.run : undefined;
	}

	#marker(event: OpencodeEvent, ref: EventRef): ParsedLine {
		return lineOnlyEvent('marker', 'opencode', event.type, ref, this.#sessions.get(event.sessionID)?.run, event.timestamp);
	}

	#head(run: RunState, wireType: string, ref: EventRef, at: number | undefined): EventHead {
		return runEventHead('opencode', run, wireType, ref, at);
	}
}

function joinParts(before: string | undefined, text: string): string {
	return before === undefined ? text : `${before}\n\n${text}`;
}

/**
 * A step's usage. opencode counts the input without the cache's reads and writes, and the output without the
 * reasoning (its `total` is the sum of all five): perscope's input is what was not read from the cache (the
 * writes included), and its output holds the reasoning, as Anthropic's and OpenAI's do.
 */
export function usageOf(tokens: OpencodeTokens): Usage {
	const cachedInputTokens = tokens.cache?.read ?? 0;
	const inputTokens = (tokens.input ?? 0) + (tokens.cache?.write ?? 0);
	const reasoningTokens = tokens.reasoning ?? 0;
	const outputTokens = (tokens.output ?? 0) + reasoningTokens;
	const sum = inputTokens + cachedInputTokens + outputTokens;
	return {inputTokens, outputTokens, reasoningTokens, totalTokens: tokens.total !== undefined && tokens.total > 0 ? tokens.total : sum, cachedInputTokens};
}

type State = Extract<OpencodeEvent, {type: 'tool_use'}>['part']['state'];

/**
 * A finished call's result: its output, or its error. A command that exited non-zero (`metadata.exit`) completed
 * as a call, and failed as a command. A call not finished yet (no such line is printed) has none.
 */
function resultOf(state: State): {text: string; error: string | undefined} | undefined {
	if (state.status === 'error') return {text: state.error ?? '', error: state.error || 'error'};
	if (state.status !== 'completed') return undefined;
	const text = state.output ?? '';
	const exit: unknown = typeof state.metadata === 'object' && state.metadata !== null ? Reflect.get(state.metadata, 'exit') : undefined;
	if (typeof exit === 'number' && exit !== 0) return {text, error: `exit code ${exit}${text.trim() === '' ? '' : `: ${firstLine(text)}`}`};
	return {text, error: undefined};
}

function firstLine(text: string): string {
	return text.trim().split('\n', 1)[0] ?? '';
}

/** A sub-agent's answer: what the `task` tool's output holds in `<task_result>`, else all of it. */
export function taskAnswer(output: string): string {
	const start = output.indexOf('<task_result>');
	const end = output.lastIndexOf('</task_result>');
	if (start < 0 || end < start) return output;
	return output.slice(start + '<task_result>'.length, end).trim();
}

function promptOf(input: unknown): string | undefined {
	const prompt = stringField(Object(input), 'prompt');
	return prompt ?? (input === undefined ? undefined : jsonText(input));
}

function modelOf(metadata: unknown): string | undefined {
	const model: unknown = typeof metadata === 'object' && metadata !== null ? Reflect.get(metadata, 'model') : undefined;
	return typeof model === 'object' && model !== null ? stringField(model, 'modelID') : undefined;
}

/** An error's name and message: the session's `{name, data: {message}}`, or whatever the SDK gave for a failed prompt. */
function errorOf(error: unknown): {name: string; message: string} {
	if (typeof error === 'string') return {name: 'error', message: error};
	if (typeof error !== 'object' || error === null) return {name: 'error', message: 'error'};
	const name = stringField(error, 'name') ?? 'error';
	const data: unknown = Reflect.get(error, 'data');
	const message =
		(typeof data === 'object' && data !== null ? stringField(data, 'message') : undefined) ??
		stringField(error, 'message') ??
		(data === undefined ? name : jsonText(data));
	return {name, message};
}
