import type {AgentEvent, EventRef, ToolCall, Usage} from '../../../model/events.js';
import {assertNever} from '../../../model/assert-never.js';
import {agentAnswer, agentRunEnd, type SpawnedAgent} from './sub-agents.js';
import {usageOf} from './usage.js';
import {timestampOf} from '../common.js';
import {jsonObject} from '../json-values.js';
import {lineOnlyEvent, type ParsedOut, type WireRecord} from '../stream-dialect.js';
import {outLineEvents, runEventHead, stepCheckpoint, withHead, withSharedHead, type EventHead} from '../event-head.js';
import {readOrJudge} from '../../normalise.js';
import {rolloutLineTypes, rolloutQuietTypes, rolloutSchemas, undeclaredKind, type RolloutEvent, type RolloutItem, type RolloutLine} from './rollout-schema.js';
import {readRolloutLine} from './rollout-fast-reader.js';

/*
 * A Codex session's rollout (`~/.codex/sessions/…/rollout-*.jsonl`: what the interactive TUI and `codex exec` keep),
 * into the one internal event shape. The session (`session_meta`'s id, the thread) is a job; each turn
 * (`task_started` … `task_complete`) a run of it, `<thread>`, `<thread>#2`, …, its prompt the turn's user message;
 * each model response a step, ended by the `token_count` that reports its usage (`last_token_usage`); a function
 * or custom tool call paired with its output by `call_id`. Every line has its time. Sub-agents' own rollouts are
 * files of their own, not read with it.
 */

type Session = {
	/** The session's thread; a sub-agent's job is its parent session's (`session_id`). */
	threadId: string;
	jobId: string;
	/** A sub-agent's session: its first turn is the run its parent's `spawn_agent` started. */
	isAgent: boolean;
	turns: number;
	turn: Turn | undefined;
	model: string | undefined;
};

type Turn = {
	jobId: string;
	runId: string;
	step: number | undefined;
	/** Whether the current step has ended (its usage reported): the next response starts another. */
	stepEnded: boolean;
	usage: Usage | undefined;
	asked: boolean;
	reasoning: string[];
	messages: string[];
	calls: Map<string, ToolCall>;
};

/** The parts of a user message that are Codex's own context, not what the person typed. */
const contextPart = /^\s*<(environment_context|user_instructions|permissions instructions|skills_instructions|turn_aborted)\b/;

export class RolloutReader {
	/** Whether lines are read by the fast reader (rollout-fast-reader.ts) rather than the schema, the reference (PERSCOPE_FAST=0). */
	readonly #fast: boolean;
	/** Each source's session (thread id) and its turn now. */
	readonly #sessions = new Map<string, Session>();
	/** The sub-agents spawned in this load, by thread id: the run and call that spawned each, and whether it ended. */
	readonly #agents = new Map<string, SpawnedAgent>();
	/** The threads whose own rollout this load reads: a sub-agent's ends its run itself. */
	readonly #read = new Set<string>();
	/** The session whose start was read last: where a source that begins without one goes on (a rollout split in files). */
	#last: Session | undefined;
	/** Sub-agents whose run their parent's rollout ended before their own was read. */
	readonly #endedByParent = new Set<string>();

	constructor(fast = true) {
		this.#fast = fast;
	}

	/** Whether a line is surely a rollout's: a session's start, or an item with its time and payload. */
	static recognises(value: Record<string, unknown>): boolean {
		const type = value['type'];
		const payload = value['payload'];
		return typeof type === 'string' && rolloutLineTypes.has(type) && typeof value['timestamp'] === 'string' && typeof payload === 'object' && payload !== null;
	}

	static isQuiet(value: Record<string, unknown>): boolean {
		const type = value['type'];
		return typeof type === 'string' && rolloutQuietTypes.has(type) && typeof value['timestamp'] === 'string';
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {value, ref} = record;
		const type = typeof value['type'] === 'string' ? value['type'] : '';
		if (RolloutReader.isQuiet(value)) {
			out(this.#lineOnly('marker', type, ref, value));
			return;
		}

		const line = undeclaredKind(value) ?? readOrJudge(this.#fast ? readRolloutLine(value) : undefined, () => rolloutSchemas().line, value, type, ref, out);
		if (line === undefined) return;
		const events = this.#events(line, ref, timestampOf(line.timestamp));
		outLineEvents(events, out);
		if (events.length === 0) out(this.#lineOnly('marker', this.#wireType(line), ref, value));
	}

	#events(line: RolloutLine, ref: EventRef, at: number | undefined): AgentEvent[] {
		switch (line.type) {
			case 'session_meta': {
				const {id, session_id: sessionId, parent_thread_id: parent} = line.payload;
				this.#read.add(id);
				const session = this.#sessions.get(ref.source);
				if (session?.threadId !== id)
					this.#sessions.set(ref.source, {threadId: id, jobId: sessionId ?? id, isAgent: parent !== undefined, turns: 0, turn: undefined, model: undefined});
				this.#last = this.#sessions.get(ref.source);
				return [];
			}

			case 'turn_context': {
				const session = this.#sessionOf(ref.source);
				if (!session || line.payload.model === undefined) return [];
				session.model = line.payload.model;
				const turn = session.turn;
				return turn ? [withHead(this.#head(turn, 'turn_context', ref, at), {kind: 'runtimeInit', model: line.payload.model})] : [];
			}

			case 'response_item':
				return this.#item(line.payload, ref, at);
			case 'event_msg':
				return this.#event(line.payload, ref, at);
			case 'compacted':
				return [];
			default:
				return assertNever(line);
		}
	}

	#event(event: RolloutEvent, ref: EventRef, at: number | undefined): AgentEvent[] {
		const wireType = `event_msg/${event.type}`;
		const session = this.#sessionOf(ref.source);
		if (!session) return [];
		if (isKind(event, 'task_started')) {
			const out: AgentEvent[] = [];
			if (session.turn) this.#endTurn(session.turn, wireType, ref, at, undefined, {name: 'interrupted', message: 'the next turn began'}, out);
			session.turns++;
			const runId = session.turns === 1 ? session.threadId : `${session.threadId}#${session.turns}`;
			const turn: Turn = {
				jobId: session.jobId,
				runId,
				step: undefined,
				stepEnded: true,
				usage: undefined,
				// A sub-agent's prompt is its spawn's message: its run has it as its query.
				asked: session.isAgent && session.turns === 1 && this.#agents.has(runId),
				reasoning: [],
				messages: [],
				calls: new Map(),
			};
			session.turn = turn;
			const head = this.#head(turn, wireType, ref, at);
			// A sub-agent's run was started by its parent's spawn, under it, when this load read that.
			if (!turn.asked) out.push(withHead(head, {kind: 'childRunStart', childRunId: runId, childExpertKey: 'codex', query: undefined, viaToolName: undefined}));
			if (session.model !== undefined) out.push(withSharedHead(head, {kind: 'runtimeInit', model: session.model}));
			return out;
		}

		const turn = session.turn;
		if (!turn) return [];
		if (isKind(event, 'token_count')) {
			const usage = event.info?.last_token_usage;
			if (usage === undefined || turn.step === undefined || turn.stepEnded) return [];
			// The response's usage: its step ends when the next response starts, or the turn does.
			turn.usage = usageOf(usage);
			turn.stepEnded = true;
			return [withHead(this.#head(turn, wireType, ref, at), {kind: 'usage', usage: turn.usage})];
		}

		if (isKind(event, 'task_complete')) {
			const out: AgentEvent[] = [];
			const text = event.last_agent_message ?? (turn.messages.length > 0 ? turn.messages.join('\n\n') : undefined);
			// A sub-agent whose end its parent's rollout, read before this one, reported (with its answer): it ends again,
			// its answer shown once.
			if (this.#endedByParent.has(turn.runId))
				out.push(withHead(this.#head(turn, wireType, ref, at), {kind: 'runEnd', status: 'completed', text: text ?? '', message: undefined, usage: undefined}));
			else this.#endTurn(turn, wireType, ref, at, text ?? '', undefined, out);
			session.turn = undefined;
			return out;
		}

		if (isKind(event, 'turn_aborted')) {
			const out: AgentEvent[] = [];
			this.#endTurn(turn, wireType, ref, at, undefined, {name: 'turn aborted', message: event.reason ?? 'no reason given'}, out);
			session.turn = undefined;
			return out;
		}

		if (isKind(event, 'error')) return [withHead(this.#head(turn, wireType, ref, at), {kind: 'runError', name: 'error', message: event.message})];
		// The rest (the items again as the TUI shows them, settings applied, …) repeat what the response items say.
		return [];
	}

	#item(item: RolloutItem, ref: EventRef, at: number | undefined): AgentEvent[] {
		const wireType = `response_item/${item.type}`;
		const turn = this.#sessionOf(ref.source)?.turn;
		if (!turn) return [];
		const out: AgentEvent[] = [];
		if (isKind(item, 'message')) {
			const text = item.content
				.map(part => part.text ?? '')
				.filter(part => part !== '')
				.join('\n');
			if (item.role === 'user') {
				if (turn.asked || item.content.every(part => contextPart.test(part.text ?? ''))) return out;
				turn.asked = true;
				out.push(
					withHead(this.#head(turn, wireType, ref, at), {
						kind: 'query',
						text: item.content
							.filter(part => !contextPart.test(part.text ?? ''))
							.map(part => part.text ?? '')
							.join('\n'),
					}),
				);
				return out;
			}

			if (item.role !== 'assistant') return out;
			this.#respond(turn, wireType, ref, at, out);
			turn.messages.push(text);
			out.push(
				withHead(this.#head(turn, wireType, ref, at), {
					kind: 'stream',
					channel: 'result',
					phase: 'delta',
					text: turn.messages.length > 1 ? `\n\n${text}` : text,
				}),
			);
			return out;
		}

		if (isKind(item, 'reasoning')) {
			const text = (item.summary ?? []).map(part => part.text ?? '').join('\n');
			if (text === '') return out;
			this.#respond(turn, wireType, ref, at, out);
			turn.reasoning.push(text);
			out.push(withHead(this.#head(turn, wireType, ref, at), {kind: 'stream', channel: 'reasoning', phase: 'delta', text: `${text}\n\n`}));
			return out;
		}

		const call = callOf(item);
		if (call !== undefined) {
			this.#respond(turn, wireType, ref, at, out);
			turn.calls.set(call.id, call);
			out.push(this.#calls(turn, wireType, ref, at, call, call.toolName === 'spawn_agent' ? 'delegate' : 'tool'));
			// A web search has no output item: what it found is not kept.
			if (isKind(item, 'web_search_call'))
				out.push(
					withHead(this.#head(turn, wireType, ref, at), {
						kind: 'toolResults',
						results: [{id: call.id, skillName: '', toolName: call.toolName, text: '', error: undefined}],
					}),
				);
			return out;
		}

		if (isOutput(item)) {
			const call = turn.calls.get(item.call_id);
			const text = typeof item.output === 'string' ? item.output : (item.output.content ?? '');
			if (call?.toolName === 'spawn_agent') {
				// The sub-agent's thread: its run, under the delegation; its answer comes when a wait reports it done.
				const agent = jsonObject(text)?.['agent_id'];
				if (typeof agent !== 'string')
					return [withHead(this.#head(turn, wireType, ref, at), {kind: 'toolResults', results: [{...resultOf(call), text, error: text}]})];
				this.#agents.set(agent, {parentRunId: turn.runId, spawnId: call.id, ended: false});
				const prompt: unknown = typeof call.args === 'object' && call.args !== null ? Reflect.get(call.args, 'prompt') : undefined;
				out.push(
					withHead(this.#head(turn, wireType, ref, at), {
						kind: 'childRunStart',
						childRunId: agent,
						childExpertKey: 'codex',
						query: typeof prompt === 'string' ? prompt : undefined,
						viaToolName: 'spawn_agent',
						viaToolCallId: call.id,
					}),
				);
				return out;
			}

			if (call?.toolName === 'wait_agent') this.#agentsDone(turn, wireType, ref, at, jsonObject(text)?.['status'], out);
			const exit = /(?:^|\n)(?:Process exited with code|Exit code:) (-?\d+)/.exec(text)?.[1];
			const error = exit !== undefined && exit !== '0' ? `exit code ${exit}` : undefined;
			out.push(
				withHead(this.#head(turn, wireType, ref, at), {
					kind: 'toolResults',
					results: [{id: item.call_id, skillName: '', toolName: call?.toolName ?? '', text, error}],
				}),
			);
			return out;
		}

		return out;
	}

	/**
	 * What a `wait_agent` reports of the sub-agents it waited for (`{id: {completed: answer}}`, `{id: {errored: …}}`):
	 * each finished one's delegation has the answer, and its run ends so, unless this load reads the sub-agent's own
	 * rollout, which ends it.
	 */
	#agentsDone(turn: Turn, wireType: string, ref: EventRef, at: number | undefined, status: unknown, out: AgentEvent[]): void {
		if (typeof status !== 'object' || status === null) return;
		for (const [thread, state] of Object.entries(status)) {
			const agent = this.#agents.get(thread);
			if (!agent || agent.ended || typeof state !== 'object' || state === null) continue;
			const completed: unknown = Reflect.get(state, 'completed');
			const errored: unknown = Reflect.get(state, 'errored');
			if (completed === undefined && errored === undefined) continue;
			agent.ended = true;
			const text = typeof completed === 'string' ? completed : typeof errored === 'string' ? errored : '';
			const failure = completed === undefined ? text || 'errored' : undefined;
			const head = this.#head(turn, wireType, ref, at);
			if (!this.#read.has(thread)) {
				this.#endedByParent.add(thread);
				out.push(agentRunEnd(head, thread, text, failure));
			}

			out.push(agentAnswer(head, agent, text, failure));
		}
	}

	/** A model response's first item starts a step, when the one before has ended. */
	#respond(turn: Turn, wireType: string, ref: EventRef, at: number | undefined, out: AgentEvent[]): void {
		if (!turn.stepEnded) return;
		if (turn.step !== undefined) out.push(this.#stepEnd(turn, wireType, ref, at, 'continue', undefined));
		turn.step = (turn.step ?? 0) + 1;
		turn.stepEnded = false;
		turn.usage = undefined;
		// The rollout keeps every item: the step's conversation is read from its lines (parse/dialects/codex/conversation.ts).
		out.push(withHead(this.#head(turn, wireType, ref, at), {kind: 'stepStart', counted: true, messagesInLines: true}));
	}

	#calls(turn: Turn, wireType: string, ref: EventRef, at: number | undefined, call: ToolCall, as: 'tool' | 'delegate'): AgentEvent {
		const text = turn.messages.length > 0 ? turn.messages.join('\n\n') : undefined;
		const thinking = turn.reasoning.length > 0 ? turn.reasoning.join('\n\n') : undefined;
		turn.messages = [];
		turn.reasoning = [];
		return withHead(this.#head(turn, wireType, ref, at), {kind: 'toolCalls', as, calls: [call], text, thinking});
	}

	#stepEnd(turn: Turn, wireType: string, ref: EventRef, at: number | undefined, ending: 'complete' | 'continue', text: string | undefined): AgentEvent {
		const head = this.#head(turn, wireType, ref, at);
		return withHead(head, {
			kind: 'stepEnd',
			ending,
			checkpoint: stepCheckpoint(turn.runId, ending === 'complete' ? 'completed' : 'proceeding', turn.step),
			// The usage was counted as its token_count came.
			stepUsage: undefined,
			startedAt: undefined,
			finishedAt: at,
			text,
			error: undefined,
		});
	}

	/** The turn's end: its last step's, with its answer; or, failed, the reason. */
	#endTurn(
		turn: Turn,
		wireType: string,
		ref: EventRef,
		at: number | undefined,
		text: string | undefined,
		failure: {name: string; message: string} | undefined,
		out: AgentEvent[],
	): void {
		if (failure === undefined) {
			if (turn.step === undefined) {
				turn.step = 1;
				out.push(withHead(this.#head(turn, wireType, ref, at), {kind: 'stepStart', counted: true}));
			}

			out.push(this.#stepEnd(turn, wireType, ref, at, 'complete', text));
			return;
		}

		const head = this.#head(turn, wireType, ref, at);
		out.push(
			withSharedHead(head, {kind: 'runEnd', status: 'stoppedByError', text: undefined, message: failure.message, usage: undefined, errorName: failure.name}),
		);
	}

	/** The session of a source's lines: its own, or the one read last when the source began after its start. */
	#sessionOf(source: string): Session | undefined {
		const own = this.#sessions.get(source);
		if (own || !this.#last) return own;
		this.#sessions.set(source, this.#last);
		return this.#last;
	}

	#head(turn: Turn, wireType: string, ref: EventRef, at: number | undefined): EventHead {
		return runEventHead('codex', turn, wireType, ref, at);
	}

	#wireType(line: RolloutLine): string {
		return line.type === 'response_item' || line.type === 'event_msg' ? `${line.type}/${line.payload.type}` : line.type;
	}

	#lineOnly(kind: 'unknown' | 'marker', wireType: string, ref: EventRef, value: Record<string, unknown>): ReturnType<typeof lineOnlyEvent> {
		const turn = this.#sessionOf(ref.source)?.turn;
		const timestamp = typeof value['timestamp'] === 'string' ? timestampOf(value['timestamp']) : undefined;
		return lineOnlyEvent(kind, 'codex', wireType, ref, turn, timestamp);
	}
}

function isOutput(item: RolloutItem): item is Extract<RolloutItem, {type: 'function_call_output' | 'custom_tool_call_output'}> {
	return item.type === 'function_call_output' || item.type === 'custom_tool_call_output';
}

function isKind<T extends {type: string}, K extends string>(value: T, kind: K): value is Extract<T, {type: K}> {
	return value.type === kind;
}

/** A call of a tool by the model: a function's (its arguments JSON), a custom tool's (its input text), a shell's, a search. */
function callOf(item: RolloutItem): ToolCall | undefined {
	if (isKind(item, 'function_call')) {
		const args = argumentsOf(item.arguments);
		// A sub-agent's spawn: whom it delegates to (Codex) and what it is asked, as `codex exec --json` shows it.
		if (item.name === 'spawn_agent')
			return {id: item.call_id, skillName: 'codex', toolName: 'spawn_agent', args: {prompt: args['message'] ?? args['prompt'] ?? ''}};
		return {id: item.call_id, skillName: '', toolName: item.name, args};
	}
	if (isKind(item, 'custom_tool_call')) return {id: item.call_id, skillName: '', toolName: item.name, args: {input: item.input}};
	if (isKind(item, 'local_shell_call'))
		return {id: item.call_id ?? '', skillName: '', toolName: 'local_shell', args: {command: (item.action?.command ?? []).join(' ')}};
	if (isKind(item, 'web_search_call')) return {id: '', skillName: '', toolName: 'web_search', args: {query: item.action?.query ?? ''}};
	return undefined;
}

function resultOf(call: ToolCall): {id: string; skillName: string; toolName: string} {
	return {id: call.id, skillName: call.skillName, toolName: call.toolName};
}

function argumentsOf(text: string): Record<string, unknown> {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {arguments: value};
	} catch {
		return {arguments: text};
	}
}
