import type {AgentEvent, CheckpointInfo, EventRef, ParsedLine, ToolCall, ToolResult, Usage} from '../../../model/events.js';
import {assertNever} from '../../../model/assert-never.js';
import {usageOf} from './usage.js';
import {lineOnlyEvent, type ArrivalClock, type ParsedOut, type ReaderOptions, type StreamReader, type WireRecord} from '../stream-dialect.js';
import {outLineEvents, runEventHead, stepCheckpoint, withHead, withSharedHead, type EventHead} from '../event-head.js';
import {jsonText} from '../json-values.js';
import {readOrJudge} from '../../normalise.js';
import {readCodexEvent} from './fast-reader.js';
import {RolloutReader} from './rollout.js';
import {agentAnswer, agentRunEnd, type SpawnedAgent} from './sub-agents.js';
import {codexEventTypes, codexItemTypes, codexSchemas, itemOfOldShape, type CodexEvent, type CodexItem, type CodexUsage} from './schema.js';

/*
 * Codex streams (`codex exec --json`), line by line, into the one internal event shape. One reader reads every
 * Codex stream of a load. Codex says little on each line, so the reader keeps:
 *
 * - each stream's run: each `thread.started` starts one, in the job of its thread; a thread resumed later
 *   (`codex exec resume`) starts the job's next run, `<thread>#2`, … A stream that starts after its
 *   `thread.started` goes on with the run a stream left open (the next file of a log split over several), or,
 *   when none is, gets a run named after where it starts, `codex:line-<n>` (not after its source: a file and a
 *   pipe of the same bytes give the same runs);
 * - which items are open: item ids restart at `item_0` in every run, so they pair calls with results only within it;
 * - the reasoning and agent messages not yet shown: Codex writes them before the tool call they lead to, so they
 *   become that call's reasoning and message, and what is left when the turn completes is its answer;
 * - each thread's usage so far: `turn.completed` reports the thread's cumulative total, not the turn's, so a turn
 *   uses the difference from the last total of its thread read before (the whole total when none was);
 * - the last unrecoverable top-level `error`: `turn.failed` repeats it, and the failure is shown once.
 *
 * A run is one turn (`codex exec` runs one), so one step. Codex writes no timestamps: each event of a live stream
 * is stamped with the time it arrived (its source's clock), and a file's have none.
 */

type RunState = {
	jobId: string;
	runId: string;
	threadId: string | undefined;
	step: number | undefined;
	/** Items started and not completed, by item id. */
	open: Set<string>;
	/** The sub-agent calls already shown, by item id (a call completes more than once: `wait` reports again). */
	collab: Set<string>;
	reasoning: string[];
	messages: string[];
	lastMessage: string | undefined;
	/** Whether the step's text so far has a message in it. */
	streamed: boolean;
	lastError: string | undefined;
};

/** The states of a sub-agent that has finished (exec_events.rs `CollabAgentStatus`). */
const finishedAgent: ReadonlySet<string> = new Set(['completed', 'errored', 'shutdown', 'not_found', 'interrupted']);

/** What `Reconnecting... 2/5 (…)` is: the stream to the model dropped and Codex tries again. */
const retryMessage = /^Reconnecting\.\.\./;

export class CodexReader implements StreamReader {
	readonly #clockFor: ArrivalClock | undefined;
	readonly #runsOfThread = new Map<string, number>();
	/** Each thread's usage so far, as its last `turn.completed` said. */
	readonly #totals = new Map<string, Usage>();
	/** Each stream's current run, by source. */
	readonly #runs = new Map<string, RunState>();
	/** The sub-agents spawned, by thread id: the run and call that spawned each, and whether its end was reported. */
	readonly #agents = new Map<string, SpawnedAgent>();
	/** The run started last that has not ended: where a stream that begins mid-turn goes on. */
	#open: RunState | undefined;

	/** Whether lines are read by the fast reader (fast-reader.ts) rather than the schema, the reference (PERSCOPE_FAST=0). */
	readonly #fast: boolean;
	readonly #rollout: RolloutReader;

	constructor(options: ReaderOptions = {}) {
		this.#clockFor = options.clockFor;
		this.#fast = options.fast ?? true;
		this.#rollout = new RolloutReader(this.#fast);
	}

	/** Whether a line is surely Codex's: its type is one only Codex writes, or it is a line of a session's rollout. */
	static recognises(value: Record<string, unknown>): boolean {
		const type = value['type'];
		return (typeof type === 'string' && type !== 'error' && codexEventTypes.has(type)) || RolloutReader.recognises(value);
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {value, ref} = record;
		// A session's rollout (what the TUI and `codex exec` keep on disk), read by its own reader.
		if (RolloutReader.recognises(value) || RolloutReader.isQuiet(value)) {
			this.#rollout.read(record, out);
			return;
		}

		const type = value['type'];
		if (typeof type !== 'string' || !codexEventTypes.has(type)) {
			out(this.#unknown(typeof type === 'string' ? type : '', ref));
			return;
		}

		const item: unknown = value['item'];
		if (item !== undefined) {
			// An item that is not an object (`"item": 5`) is the schema's to judge: it must not throw here.
			const shaped = itemOfOldShape(item);
			const itemType: unknown = typeof shaped === 'object' && shaped !== null ? Reflect.get(shaped, 'type') : undefined;
			if (typeof itemType === 'string' && !codexItemTypes.has(itemType)) {
				out(this.#unknown(`${type}/${itemType}`, ref));
				return;
			}
		}

		const event = readOrJudge(this.#fast ? readCodexEvent(value) : undefined, () => codexSchemas().event, value, type, ref, out);
		if (event === undefined) return;

		// The model counts a line as one event: the line's further events say they continue it (stream-dialect.ts).
		const events = this.#events(event, ref);
		outLineEvents(events, out);
		if (events.length === 0) out(this.#unknown(type, ref, 'marker'));
	}

	#events(event: CodexEvent, ref: EventRef): AgentEvent[] {
		switch (event.type) {
			case 'thread.started':
				return this.#startRun(event.thread_id, ref);
			case 'session.created':
				return this.#startRun(event.session_id, ref);
			case 'turn.started': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, out);
				run.step = out.length > 0 ? 1 : (run.step ?? 0) + 1;
				run.lastMessage = undefined;
				run.streamed = false;
				run.lastError = undefined;
				// What the model was given is in the rollout Codex keeps of the thread: the conversation is read from there.
				out.push(withHead(this.#head(run, event.type, ref), {kind: 'stepStart', messagesInLines: true}));
				return out;
			}

			case 'turn.completed': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, out);
				const text = run.messages.length > 0 ? run.messages.join('\n\n') : (run.lastMessage ?? '');
				run.messages = [];
				run.reasoning = [];
				const end = this.#stepEnd(run, event.type, ref, 'complete', 'completed', this.#turnUsage(run, event.usage), text);
				this.#end(run, ref);
				out.push(end);
				return out;
			}

			case 'turn.failed': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, out);
				const message = event.error?.message ?? run.lastError ?? 'turn failed';
				const head = this.#head(run, event.type, ref);
				out.push(this.#stepEnd(run, event.type, ref, 'continue', 'proceeding', undefined, undefined));
				// The top-level error before it said the same: the failure is shown once.
				if (message !== run.lastError) out.push(withSharedHead(head, {kind: 'runError', name: 'turn.failed', message}));
				out.push(withSharedHead(head, {kind: 'runEnd', status: 'stoppedByError', text: undefined, message, usage: undefined}));
				this.#end(run, ref);
				return out;
			}

			case 'error': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, out);
				const head = this.#head(run, event.type, ref);
				if (retryMessage.test(event.message)) {
					out.push(withSharedHead(head, {kind: 'retry', reason: event.message}));
					return out;
				}

				run.lastError = event.message;
				out.push(withSharedHead(head, {kind: 'runError', name: 'error', message: event.message}));
				return out;
			}

			case 'item.started':
			case 'item.updated':
			case 'item.completed':
				return this.#item(event.type, event.item, ref);
			case 'item.plan.delta': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, out);
				out.push(withHead(this.#head(run, event.type, ref), {kind: 'stream', channel: 'result', phase: 'delta', text: event.delta}));
				return out;
			}

			case 'request_user_input': {
				const out: AgentEvent[] = [];
				const run = this.#current(ref, out);
				const call: ToolCall = {id: event.call_id, skillName: '', toolName: 'request_user_input', args: {questions: event.questions}};
				out.push(this.#calls(run, event.type, ref, 'interactive', call));
				return out;
			}

			default:
				return assertNever(event);
		}
	}

	#item(wireType: 'item.started' | 'item.updated' | 'item.completed', item: CodexItem, ref: EventRef): AgentEvent[] {
		const out: AgentEvent[] = [];
		const run = this.#current(ref, out);
		const type = itemWireType(wireType, item.type);
		// The line's one event but in a warning's case (two): most branches make it of this head itself, not a copy.
		const head = this.#head(run, type, ref);
		switch (item.type) {
			case 'agent_message':
			case 'plan': {
				if (wireType !== 'item.completed') {
					out.push(withHead(head, {kind: 'marker'}));
					return out;
				}

				run.messages.push(item.text);
				run.lastMessage = item.text;
				// Shown live as the turn's text so far, each message a paragraph of its own.
				const text = run.streamed ? `\n\n${item.text}` : item.text;
				run.streamed = true;
				out.push(withHead(head, {kind: 'stream', channel: 'result', phase: 'delta', text}));
				return out;
			}

			case 'reasoning':
				if (wireType !== 'item.completed') {
					out.push(withHead(head, {kind: 'marker'}));
					return out;
				}

				run.reasoning.push(item.text);
				out.push(withHead(head, {kind: 'stream', channel: 'reasoning', phase: 'delta', text: `${item.text}\n\n`}));
				return out;
			case 'error': {
				// A warning (a config problem, a deprecation, a model rerouted): shown, and the run goes on. The stream
				// names no model but in two of these: then the run has it, and its cost can be priced.
				const warning: AgentEvent = withSharedHead(head, {kind: 'runError', name: 'warning', message: item.message, warning: true});
				const model = modelNamedBy(item.message);
				if (model !== undefined) out.push(withSharedHead(head, {kind: 'runtimeInit', model}));
				out.push(warning);
				return out;
			}
			case 'collab_tool_call':
				this.#collab(run, wireType, item, ref, out);
				return out;
			case 'command_execution':
			case 'file_change':
			case 'mcp_tool_call':
			case 'web_search':
			case 'todo_list': {
				const call = toolCall(item);
				if (!run.open.has(item.id)) {
					run.open.add(item.id);
					out.push(this.#calls(run, type, ref, 'tool', call));
				}

				// An update of a to-do list is its state so far; of anything else, nothing to show until it ends.
				if (wireType === 'item.started' || (wireType === 'item.updated' && item.type !== 'todo_list'))
					return out.length > 0 ? out : [withHead(head, {kind: 'marker'})];
				if (wireType === 'item.completed') run.open.delete(item.id);
				out.push(withHead(head, {kind: 'toolResults', results: [toolResult(item, call)]}));
				return out;
			}

			default:
				return assertNever(item);
		}
	}

	/**
	 * A sub-agent tool call (`multi_agent_v1`), its events pushed onto `out`. `spawn_agent` is a delegation, and each thread it spawned a child run
	 * (named by its thread id) under it, with the prompt as its query; nothing the sub-agent does is streamed. The
	 * other calls (`wait`, `send_input`, `close_agent`) are tool calls of the run; when one reports a sub-agent
	 * finished (`completed` with its message, or `errored`), its run ends so, and the delegation has its answer.
	 */
	#collab(run: RunState, wireType: 'item.started' | 'item.updated' | 'item.completed', item: CollabItem, ref: EventRef, out: AgentEvent[]): void {
		const head = this.#head(run, itemWireType(wireType, 'collab_tool_call'), ref);
		// What the line made before this call (a run started here) does not count as this call's showing.
		const made = out.length;
		const spawn = item.tool === 'spawn_agent';
		if (!run.open.has(item.id) && !run.collab.has(item.id)) {
			run.open.add(item.id);
			run.collab.add(item.id);
			const call = spawn ? {id: item.id, skillName: 'codex', toolName: 'spawn_agent', args: {prompt: item.prompt ?? ''}} : toolCall(item);
			out.push(this.#calls(run, head.wireType, ref, spawn ? 'delegate' : 'tool', call));
		}

		if (wireType !== 'item.completed') {
			if (out.length === made) out.push(withSharedHead(head, {kind: 'marker'}));
			return;
		}

		run.open.delete(item.id);
		if (spawn) {
			for (const thread of item.receiver_thread_ids ?? []) {
				if (this.#agents.has(thread)) continue;
				this.#agents.set(thread, {parentRunId: run.runId, spawnId: item.id, ended: false});
				out.push(
					withSharedHead(head, {
						kind: 'childRunStart',
						childRunId: thread,
						childExpertKey: 'codex',
						query: item.prompt ?? undefined,
						viaToolName: 'spawn_agent',
						viaToolCallId: item.id,
					}),
				);
			}
		} else {
			out.push(withSharedHead(head, {kind: 'toolResults', results: [toolResult(item, toolCall(item))]}));
		}

		for (const [thread, state] of Object.entries(item.agents_states ?? {})) {
			const agent = this.#agents.get(thread);
			if (!agent || agent.ended || !finishedAgent.has(state.status)) continue;
			agent.ended = true;
			const text = state.message ?? '';
			const failure = state.status === 'completed' ? undefined : text || state.status;
			out.push(agentRunEnd(head, thread, text, failure));
			if (agent.parentRunId === run.runId) out.push(agentAnswer(head, agent, text, failure));
		}

		if (out.length === made) out.push(withSharedHead(head, {kind: 'marker'}));
	}

	#startRun(threadId: string, ref: EventRef): AgentEvent[] {
		const count = (this.#runsOfThread.get(threadId) ?? 0) + 1;
		this.#runsOfThread.set(threadId, count);
		const run = newRun(threadId, count === 1 ? threadId : `${threadId}#${count}`, threadId);
		this.#runs.set(ref.source, run);
		this.#open = run;
		return [this.#childRunStart(run, ref)];
	}

	/** The run's turn ended: nothing more of it is to come. */
	#end(run: RunState, ref: EventRef): void {
		this.#runs.delete(ref.source);
		if (this.#open === run) this.#open = undefined;
	}

	/**
	 * The run of the stream's current thread. A stream that begins after its `thread.started` goes on with the run
	 * the stream before it left open (the next file of a split log), else starts one here, its start pushed onto
	 * `out`: the line's events follow it there. (Pushed rather than spread into a new array: an array spread goes
	 * through the iterator protocol, which was a tenth of the reader's time.)
	 */
	#current(ref: EventRef, out: AgentEvent[]): RunState {
		const current = this.#runs.get(ref.source);
		if (current) return current;
		const open = this.#open;
		if (open) {
			this.#runs.set(ref.source, open);
			return open;
		}

		const name = `codex:line-${ref.line}`;
		const run = newRun(name, name, undefined);
		// Its line is of a turn under way (or one more begins): that turn is its first step.
		run.step = 1;
		this.#runs.set(ref.source, run);
		this.#open = run;
		out.push(this.#childRunStart(run, ref));
		return run;
	}

	#childRunStart(run: RunState, ref: EventRef): AgentEvent {
		return withHead(this.#head(run, 'thread.started', ref), {
			kind: 'childRunStart',
			childRunId: run.runId,
			childExpertKey: 'codex',
			query: undefined,
			viaToolName: undefined,
		});
	}

	#calls(run: RunState, wireType: string, ref: EventRef, as: 'tool' | 'delegate' | 'interactive', call: ToolCall): AgentEvent {
		const text = run.messages.length > 0 ? run.messages.join('\n\n') : undefined;
		const thinking = run.reasoning.length > 0 ? run.reasoning.join('\n\n') : undefined;
		run.messages = [];
		run.reasoning = [];
		return withHead(this.#head(run, wireType, ref), {kind: 'toolCalls', as, calls: [call], text, thinking});
	}

	#stepEnd(
		run: RunState,
		wireType: string,
		ref: EventRef,
		ending: 'complete' | 'continue',
		status: CheckpointInfo['status'],
		usage: Usage | undefined,
		text: string | undefined,
	): AgentEvent {
		const checkpoint = stepCheckpoint(run.runId, status, run.step);
		const head = this.#head(run, wireType, ref);
		return withHead(head, {
			kind: 'stepEnd',
			ending,
			checkpoint,
			stepUsage: usage,
			startedAt: undefined,
			finishedAt: head.timestamp,
			text,
			error: undefined,
		});
	}

	/** The turn's own usage: the thread's total less what the thread had used before, as far as this stream saw. */
	#turnUsage(run: RunState, reported: CodexUsage | undefined): Usage | undefined {
		if (!reported) return undefined;
		const total = usageOf(reported);
		if (run.threadId === undefined) return total;
		const before = this.#totals.get(run.threadId);
		this.#totals.set(run.threadId, total);
		return before ? difference(total, before) : total;
	}

	#head(run: RunState, wireType: string, ref: EventRef): EventHead {
		return runEventHead('codex', run, wireType, ref, this.#clockFor?.(ref.source)?.());
	}

	/** A line of a type this version does not know; or, as a `marker`, a known one that made nothing to show. */
	#unknown(wireType: string, ref: EventRef, kind: 'unknown' | 'marker' = 'unknown'): ParsedLine {
		return lineOnlyEvent(kind, 'codex', wireType, ref, this.#runs.get(ref.source), this.#clockFor?.(ref.source)?.());
	}
}

/** The model a warning names: `model rerouted: a -> b (…)` (b serves the turn), `Model metadata for \`m\` not found`. */
function modelNamedBy(message: string): string | undefined {
	return /^model rerouted: \S+ -> (\S+)/.exec(message)?.[1] ?? /^Model metadata for `([^`]+)` not found/.exec(message)?.[1];
}

/**
 * `item.completed/command_execution` and the like, made once each: the events keep their wire type, and a string
 * built per line would be one more object to each.
 */
const itemWireTypes: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
	['item.started', 'item.updated', 'item.completed'].map(wireType => [
		wireType,
		new Map([...codexItemTypes].map(itemType => [itemType, `${wireType}/${itemType}`])),
	]),
);

function itemWireType(wireType: 'item.started' | 'item.updated' | 'item.completed', itemType: CodexItem['type']): string {
	return itemWireTypes.get(wireType)?.get(itemType) ?? `${wireType}/${itemType}`;
}

function newRun(jobId: string, runId: string, threadId: string | undefined): RunState {
	return {
		jobId,
		runId,
		threadId,
		step: undefined,
		open: new Set(),
		collab: new Set(),
		reasoning: [],
		messages: [],
		lastMessage: undefined,
		streamed: false,
		lastError: undefined,
	};
}

/** `total` less `before`; a total below what came before (another thread that reused the id) counts as it is. */
function difference(total: Usage, before: Usage): Usage {
	const keys = ['inputTokens', 'outputTokens', 'reasoningTokens', 'totalTokens', 'cachedInputTokens'] as const;
	if (keys.some(key => total[key] < before[key])) return total;
	return {
		inputTokens: total.inputTokens - before.inputTokens,
		outputTokens: total.outputTokens - before.outputTokens,
		reasoningTokens: total.reasoningTokens - before.reasoningTokens,
		totalTokens: total.totalTokens - before.totalTokens,
		cachedInputTokens: total.cachedInputTokens - before.cachedInputTokens,
	};
}

type ToolItem = Extract<CodexItem, {type: 'command_execution' | 'file_change' | 'mcp_tool_call' | 'collab_tool_call' | 'web_search' | 'todo_list'}>;
type CollabItem = Extract<CodexItem, {type: 'collab_tool_call'}>;

/** A tool item as the call it is: named by its kind (an MCP tool by its server and name), with what it was given. */
function toolCall(item: ToolItem): ToolCall {
	switch (item.type) {
		case 'command_execution':
			return {id: item.id, skillName: '', toolName: 'command_execution', args: {command: item.command}};
		case 'file_change':
			// The kinds and paths, read at a glance; the diffs, when Codex sends them, are the result.
			return {id: item.id, skillName: '', toolName: 'file_change', args: {changes: item.changes.map(change => `${change.kind} ${change.path}`).join(', ')}};
		case 'mcp_tool_call':
			return {id: item.id, skillName: item.server, toolName: item.tool, args: item.arguments};
		case 'collab_tool_call':
			// The sub-agents it speaks to, by thread id, read at a glance; and what it sends them, when it sends anything.
			return {
				id: item.id,
				skillName: 'collab',
				toolName: item.tool,
				args: item.prompt ? {prompt: item.prompt, agents: (item.receiver_thread_ids ?? []).join(', ')} : {agents: (item.receiver_thread_ids ?? []).join(', ')},
			};
		case 'web_search':
			return {id: item.id, skillName: '', toolName: 'web_search', args: {query: item.query}};
		case 'todo_list':
			// How long the plan is when it starts; where it stands is its result, updated as Codex updates it.
			return {id: item.id, skillName: '', toolName: 'todo_list', args: {plan: `${item.items.length} ${item.items.length === 1 ? 'item' : 'items'}`}};
		default:
			return assertNever(item);
	}
}

function toolResult(item: ToolItem, call: ToolCall): ToolResult {
	const result = (text: string, error: string | undefined): ToolResult => ({id: call.id, skillName: call.skillName, toolName: call.toolName, text, error});
	const status = 'status' in item ? item.status : undefined;
	const failed = status === 'failed' || status === 'declined';
	switch (item.type) {
		case 'command_execution': {
			const text = item.aggregated_output ?? '';
			const exitCode = item.exit_code;
			if (status === 'declined') return result(text, 'declined');
			if (exitCode !== undefined && exitCode !== 0) return result(text, `exit code ${exitCode}`);
			return result(text, failed ? 'failed' : undefined);
		}

		case 'file_change': {
			const text = item.changes.map(change => (change.diff ? `${change.kind} ${change.path}\n${change.diff}` : `${change.kind} ${change.path}`)).join('\n');
			return result(text, failed ? 'patch failed' : undefined);
		}

		case 'mcp_tool_call': {
			const text = mcpText(item);
			if (item.error) return result(text || item.error.message, item.error.message);
			return result(text, failed ? text || 'failed' : undefined);
		}

		case 'collab_tool_call': {
			const states = Object.entries(item.agents_states ?? {}).map(([thread, state]) => `${thread}: ${state.status}${state.message ? ` ${state.message}` : ''}`);
			return result(states.join('\n'), failed ? 'failed' : undefined);
		}

		case 'web_search':
			// Codex streams the search, not what it found.
			return result(item.action === undefined ? '' : jsonText(item.action), undefined);
		case 'todo_list':
			return result(checklist(item.items), undefined);
		default:
			return assertNever(item);
	}
}

function mcpText(item: Extract<CodexItem, {type: 'mcp_tool_call'}>): string {
	const texts: string[] = [];
	for (const block of item.result?.content ?? []) {
		const text: unknown = typeof block === 'object' && block !== null ? Reflect.get(block, 'text') : undefined;
		texts.push(typeof text === 'string' ? text : jsonText(block));
	}

	if (texts.length > 0) return texts.join('\n');
	const structured = item.result?.structured_content;
	return structured === undefined || structured === null ? '' : jsonText(structured);
}

function checklist(items: ReadonlyArray<{text: string; completed: boolean}>): string {
	return items.map(todo => `[${todo.completed ? 'x' : ' '}] ${todo.text}`).join('\n');
}
