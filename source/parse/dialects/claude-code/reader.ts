import type {AgentEvent, Dialect, EventRef, RunStatus, ToolCall, ToolResult, Usage} from '../../../model/events.js';
import {assertNever} from '../../../model/assert-never.js';
import {addUsage, subtractUsage, zeroUsage} from '../../../model/usage.js';
import {invalid} from '../../normalise.js';
import {withHead, type EventBody, type EventHead} from '../event-head.js';
import {lineOnlyEvent, type ParsedOut, type ReaderOptions, type StreamReader, type WireRecord} from '../stream-dialect.js';
import {
	agentAnswer,
	agentModel,
	agentResultText,
	apiRetryReason,
	contentText,
	errorText,
	inputString,
	isAsyncLaunch,
	runsInBackground,
	streamChannel,
} from './content.js';
import {readClaudeLine} from './fast-reader.js';
import {claudeLineTypes, claudeSchemas, quietSystemSubtypes, type ClaudeBlock, type ClaudeLine, type ClaudeLineOf} from './schema.js';
import {largerUsage, ResponseUsage, usageOf} from './usage.js';
import {reportedCost} from './cost.js';
import type {Call, Child, ClaudeFlavour, RunState, Session, Task} from './state.js';
import {skillOf, toolCall, toolOf} from './tool-names.js';

export type {ClaudeFlavour} from './state.js';

/*
 * One Claude Code stream into the model's events (docs/model-rules.md, "Claude Code"). A session is a job. Each
 * turn of the main loop (a `system/init` starts one; `--resume` and a background task's end start more) is a
 * root run, which the turn's `result` ends: results close turns in the order the turns began, since a process
 * prints the results of its earlier turns late. An Agent (formerly Task) call is a delegation, and the lines
 * whose `parent_tool_use_id` is that call's id are its sub-agent's run (its id is the call's), under the run that
 * made the call, to any depth. A sub-agent in the background ends with its task's `task_notification`; one in
 * the foreground with its call's result. What one line says needs what came before it: which run made a call,
 * which responses' usage was counted, which turn a result ends.
 */

const delegateTools: ReadonlySet<string> = new Set(['Agent', 'Task']);

/** What an event says beyond the fields every event has, which the reader fills in from the line. */
type Payload = EventBody;

export class ClaudeReader implements StreamReader {
	readonly #flavour: ClaudeFlavour;
	readonly #sessions = new Map<string, Session>();
	/** The session of lines that name none: the last one named. */
	#session = '';
	readonly #calls = new Map<string, Call>();
	readonly #children = new Map<string, Child>();
	readonly #tasks = new Map<string, Task>();
	/**
	 * The first task (in `#tasks`' order) of each call, so that finding a call's task is not a walk over every task
	 * of the stream (a stream of many sessions has thousands). Undefined once a task id was given again for another
	 * call: then `#tasks`' order alone says which task is first, and it is walked.
	 */
	#taskByCall: Map<string, Task> | undefined = new Map();
	readonly #runs = new Map<string, RunState>();
	readonly #usage = new ResponseUsage();
	readonly #rootIds = new Set<string>();
	/**
	 * The time of the last line that had one. Lines without (system, result, stream events; 2.0 has none) are
	 * given none: their moment is not known. A result says how long its turn took, which dates the turn's start.
	 */
	#lastTime: number | undefined;
	/** The line being read: where its events go, and how many it made so far. */
	#line: {ref: EventRef; wireType: string; timestamp: number | undefined; out: ParsedOut; made: number} | undefined;

	/** Whether lines are read by the fast reader (fast-reader.ts) rather than the schema, the reference (PERSCOPE_FAST=0). */
	readonly #fast: boolean;

	constructor(flavour: ClaudeFlavour, options: ReaderOptions = {}) {
		this.#flavour = flavour;
		this.#fast = options.fast ?? true;
	}

	read(record: WireRecord, out: ParsedOut): void {
		const {value, ref} = record;
		const type = value['type'];
		if (typeof type !== 'string') {
			out({kind: 'diagnostic', diagnostic: {line: ref.line, source: ref.source, reason: 'not an event: no "type" field'}});
			return;
		}

		if (!claudeLineTypes.has(type)) {
			this.#unknown(ref, type, out);
			return;
		}

		let line = this.#fast ? readClaudeLine(value) : undefined;
		if (line === undefined) {
			const parsed = claudeSchemas().line.safeParse(value);
			if (!parsed.success) {
				out({kind: 'diagnostic', diagnostic: {line: ref.line, source: ref.source, reason: invalid(type, parsed.error)}});
				return;
			}

			line = parsed.data;
		}

		if (line.timestamp !== undefined) this.#lastTime = line.timestamp;
		if (line.session_id !== undefined && line.session_id !== '') this.#session = line.session_id;
		this.#line = {ref, wireType: line.type === 'system' ? `system/${line.subtype}` : line.type, timestamp: line.timestamp, out, made: 0};
		try {
			this.#dispatch(line);
			// A line is an event, whatever it made (a response's line repeating what was counted makes nothing).
			if (this.#line.made === 0) this.#marker();
		} finally {
			this.#line = undefined;
		}
	}

	#dispatch(line: ClaudeLine): void {
		switch (line.type) {
			case 'system':
				this.#system(line);
				return;
			case 'assistant':
				this.#assistant(line);
				return;
			case 'user':
				this.#user(line);
				return;
			case 'result':
				this.#result(line);
				return;
			case 'stream_event':
				this.#streamEvent(line);
				return;
			case 'rate_limit_event': {
				const info = line.rate_limit_info;
				if (info?.status === 'rejected')
					this.#emit(this.#runOf(line), {kind: 'retry', reason: `rate limit reached${info.rateLimitType === undefined ? '' : ` (${info.rateLimitType})`}`});
				else this.#marker();
				return;
			}

			case 'tool_progress':
			case 'tool_use_summary':
			case 'auth_status':
			case 'prompt_suggestion':
			case 'conversation_reset':
			case 'keep_alive':
				this.#marker();
				return;
			default:
				assertNever(line);
		}
	}

	// -----------------------------------------------------------------------------------------------------
	// Events

	/**
	 * An event of the line being read, of run `runId` (none: ''), at step `step`: in the run's job and at the line's
	 * time unless `at` says another.
	 */
	#emit(runId: string, payload: Payload, step?: number, at: {jobId?: string; timestamp?: number} = {}): void {
		const line = this.#line!;
		const jobId = at.jobId ?? this.#jobOfRun(runId);
		const timestamp = at.timestamp ?? line.timestamp;
		const head: EventHead & {continuesLine?: true} = {
			dialect: this.#flavour.dialect,
			wireType: line.wireType,
			id: `${line.ref.source}:${line.ref.line}`,
			jobId,
			runId,
			expertKey: undefined,
			step,
			timestamp,
			agent: undefined,
			ref: line.ref,
		};
		if (line.made > 0) head.continuesLine = true;
		line.made++;
		line.out({kind: 'event', event: withHead(head, payload)});
	}

	/** The model a run's responses come from, for what it cost (in no job: the job's model is its init's). */
	#runModel(runId: string, model: string): void {
		const state = this.#state(runId);
		if (state.modelKnown) return;
		state.modelKnown = true;
		this.#emit(runId, {kind: 'runtimeInit', model}, undefined, {jobId: ''});
	}

	#marker(): void {
		this.#emit('', {kind: 'marker'});
	}

	#unknown(ref: EventRef, wireType: string, out: ParsedOut): void {
		out(lineOnlyEvent('unknown', this.#flavour.dialect, wireType, ref));
	}

	/** The job of a run: its session's (a run's session is the one current when it started). */
	#jobOfRun(runId: string): string {
		return runId === '' ? '' : (this.#jobs.get(runId) ?? this.#session);
	}

	readonly #jobs = new Map<string, string>();

	// -----------------------------------------------------------------------------------------------------
	// Sessions, turns and runs

	#sessionState(id = this.#session): Session {
		let session = this.#sessions.get(id);
		if (!session) {
			session = {turns: [], reportedTotal: 0, uncovered: [], servers: new Map()};
			this.#sessions.set(id, session);
		}

		return session;
	}

	/** A new turn of the current session: a root run. */
	#startTurn(uuid: string | undefined): string {
		const session = this.#sessionState();
		let runId = uuid ?? (this.#session === '' ? this.#flavour.dialect : this.#session);
		if (this.#rootIds.has(runId)) {
			let n = 2;
			while (this.#rootIds.has(`${runId}#${n}`)) n++;
			runId = `${runId}#${n}`;
		}

		this.#rootIds.add(runId);
		session.turns.push({runId, closed: false});
		this.#newRun(runId);
		this.#emit(runId, {kind: 'childRunStart', childRunId: runId, childExpertKey: this.#flavour.rootExpert, query: undefined, viaToolName: undefined});
		return runId;
	}

	#newRun(runId: string): RunState {
		const state: RunState = {
			step: 0,
			messageId: undefined,
			modelKnown: false,
			text: undefined,
			thinking: undefined,
			lastText: undefined,
			usage: zeroUsage,
			query: undefined,
		};
		this.#runs.set(runId, state);
		this.#jobs.set(runId, this.#session);
		this.#sessionState().uncovered.push(runId);
		return state;
	}

	#state(runId: string): RunState {
		return this.#runs.get(runId) ?? this.#newRun(runId);
	}

	/** The main loop's run now: the newest turn, or a new one when it has ended (or none began). */
	#mainRun(): string {
		const turn = this.#sessionState().turns.at(-1);
		return turn && !turn.closed ? turn.runId : this.#startTurn(undefined);
	}

	/** The run a line belongs to: its sub-agent's when it names one, else the main loop's. */
	#runOf(line: {parent_tool_use_id?: string | null | undefined}, subagentType?: string): string {
		const parent = line.parent_tool_use_id;
		return parent === undefined || parent === null || parent === '' ? this.#mainRun() : this.#child(parent, subagentType);
	}

	/**
	 * The run of the sub-agent the call `toolUseId` started, started now if it was not: under the run that made the
	 * call (or its task's parent), else under the main loop.
	 */
	#child(toolUseId: string, subagentType?: string): string {
		if (this.#children.has(toolUseId)) return toolUseId;
		const call = this.#calls.get(toolUseId);
		const task = this.#taskOfCall(toolUseId);
		const parentTask = task?.parentTaskId === undefined ? undefined : this.#tasks.get(task.parentTaskId);
		const parentRunId = call?.runId ?? (parentTask && this.#children.has(parentTask.toolUseId) ? parentTask.toolUseId : this.#mainRun());
		const expert = inputString(call?.input, 'subagent_type') ?? task?.subagentType ?? subagentType ?? 'agent';
		const query = inputString(call?.input, 'prompt') ?? task?.prompt;
		this.#children.set(toolUseId, {parentRunId, ended: false, background: (task?.background ?? false) || runsInBackground(call?.input)});
		const state = this.#newRun(toolUseId);
		state.query = query;
		this.#jobs.set(toolUseId, this.#jobOfRun(parentRunId));
		this.#emit(parentRunId, {
			kind: 'childRunStart',
			childRunId: toolUseId,
			childExpertKey: expert,
			query,
			viaToolName: call?.name ?? 'Agent',
			viaToolCallId: toolUseId,
		});
		return toolUseId;
	}

	#taskOfCall(toolUseId: string): Task | undefined {
		if (this.#taskByCall !== undefined) return this.#taskByCall.get(toolUseId);
		for (const task of this.#tasks.values()) if (task.toolUseId === toolUseId) return task;
		return undefined;
	}

	/** A response of the run: a new step when it is another response than the last. */
	#response(runId: string, messageId: string | undefined, model: string | undefined): number {
		const state = this.#state(runId);
		if (messageId === undefined || messageId !== state.messageId) {
			state.step++;
			state.messageId = messageId;
			state.text = undefined;
			state.thinking = undefined;
			this.#emit(runId, {kind: 'stepStart', counted: true}, state.step);
		}

		if (model !== undefined && model !== '') this.#runModel(runId, model);

		return state.step;
	}

	#countUsage(runId: string, messageId: string | undefined, usage: Usage): void {
		const added = messageId === undefined ? usage : this.#usage.add(messageId, usage);
		if (!added) return;
		const state = this.#state(runId);
		state.usage = addUsage(state.usage, added);
		this.#emit(runId, {kind: 'usage', usage: added}, state.step);
	}

	// -----------------------------------------------------------------------------------------------------
	// Lines

	#system(line: ClaudeLineOf<'system'>): void {
		switch (line.subtype) {
			case 'init': {
				const runId = this.#startTurn(line.uuid);
				const version = line.claude_code_version;
				this.#emit(runId, {
					kind: 'runtimeInit',
					...(line.model === undefined ? {} : {model: line.model}),
					...(version === undefined ? {} : {runtimeVersion: version}),
				});
				if (line.model !== undefined) this.#state(runId).modelKnown = true;
				this.#servers(runId, line.mcp_servers ?? []);
				return;
			}

			case 'task_started':
				this.#taskStarted(line);
				return;
			case 'task_notification':
				this.#taskNotification(line);
				return;
			case 'api_retry':
				this.#emit(this.#runOf(line), {kind: 'retry', reason: apiRetryReason(line)});
				return;

			default:
				if (quietSystemSubtypes.has(line.subtype)) this.#marker();
				else {
					this.#line!.made++;
					this.#unknown(this.#line!.ref, `system/${line.subtype}`, this.#line!.out);
				}
		}
	}

	/** MCP servers as the skills bar shows them: each change of state. */
	#servers(runId: string, servers: ReadonlyArray<{name: string; status?: string | undefined}>): void {
		const known = this.#sessionState().servers;
		for (const server of servers) {
			const status = server.status ?? 'unknown';
			if (known.get(server.name) === status) continue;
			known.set(server.name, status);
			const state = status === 'connected' ? 'connected' : status === 'pending' ? 'starting' : 'disconnected';
			this.#emit(runId, {kind: 'skill', skillName: server.name, state, detail: {}});
		}
	}

	#taskStarted(line: ClaudeLineOf<'system'>): void {
		const {task_id: taskId, tool_use_id: toolUseId} = line;
		if (taskId === undefined || toolUseId === undefined) {
			this.#marker();
			return;
		}

		const call = this.#calls.get(toolUseId);
		const agent = line.task_type === 'local_agent' || line.subagent_type !== undefined || call?.delegate === true;
		const task: Task = {
			toolUseId,
			agent,
			subagentType: line.subagent_type,
			prompt: line.prompt,
			parentTaskId: line.parent_task_id ?? undefined,
			background: line.is_backgrounded === true,
		};
		const before = this.#tasks.get(taskId);
		this.#tasks.set(taskId, task);
		if (before !== undefined && before.toolUseId !== toolUseId) this.#taskByCall = undefined;
		// The same task again, in the place of the one it replaces: the first of its call if that one was.
		else if (before !== undefined && this.#taskByCall?.get(toolUseId) === before) this.#taskByCall.set(toolUseId, task);
		else if (this.#taskByCall?.has(toolUseId) === false) this.#taskByCall.set(toolUseId, task);
		const parentKnown = task.parentTaskId !== undefined && this.#tasks.has(task.parentTaskId);
		// A sub-agent starts once the run that called it is known: its call (seen already, or with its line
		// to come), or its parent task. Until then it waits, so that it does not hang under the wrong run.
		if (agent && !this.#children.has(toolUseId) && (call !== undefined || parentKnown)) this.#child(toolUseId);
		else this.#marker();
		const child = this.#children.get(toolUseId);
		if (child && task.background) child.background = true;
	}

	#taskNotification(line: ClaudeLineOf<'system'>): void {
		const toolUseId = line.tool_use_id ?? (line.task_id === undefined ? undefined : this.#tasks.get(line.task_id)?.toolUseId);
		const call = toolUseId === undefined ? undefined : this.#calls.get(toolUseId);
		const task = line.task_id === undefined ? undefined : this.#tasks.get(line.task_id);
		if (toolUseId === undefined || (!call?.delegate && !task?.agent && !this.#children.has(toolUseId))) {
			// A background command: its call had its result (that it started); a failure is its result now.
			if (toolUseId !== undefined && call && failedTask(line.status)) {
				const text = line.summary ?? line.status ?? '';
				this.#emit(call.runId, {
					kind: 'toolResults',
					results: [{id: toolUseId, skillName: '', toolName: call.name, text, error: `background task ${line.status ?? 'failed'}: ${text}`}],
				});
			} else this.#marker();
			return;
		}

		const runId = this.#child(toolUseId);
		const child = this.#children.get(runId)!;
		// A sub-agent in the foreground ends with its call's result, which says its answer; this says only that.
		if (child.ended || !child.background) {
			this.#marker();
			return;
		}

		const failed = failedTask(line.status);
		const answer = this.#state(runId).lastText ?? line.summary ?? '';
		const error = failed ? `${line.status ?? 'failed'}${line.summary === undefined ? '' : `: ${line.summary}`}` : undefined;
		this.#emit(child.parentRunId, {kind: 'toolResults', results: [{id: toolUseId, skillName: '', toolName: call?.name ?? 'Agent', text: answer, error}]});
		this.#endChild(runId, failed ? 'stoppedByError' : 'completed', answer, error);
	}

	#endChild(runId: string, status: RunStatus, text: string | undefined, message: string | undefined): void {
		const child = this.#children.get(runId);
		if (!child || child.ended) return;
		child.ended = true;
		this.#emit(runId, {kind: 'runEnd', status, text, message, usage: undefined});
	}

	#assistant(line: ClaudeLineOf<'assistant'>): void {
		const runId = this.#runOf(line, line.subagent_type);
		const {message} = line;
		const step = this.#response(runId, message.id, message.model);
		if (message.usage) this.#countUsage(runId, message.id, usageOf(message.usage));
		const state = this.#state(runId);
		const blocks = typeof message.content === 'string' ? [{type: 'text', text: message.content} as ClaudeBlock] : message.content;
		if (line.error !== undefined) {
			// An API error the CLI put in the place of an answer.
			this.#emit(runId, {kind: 'runError', name: line.error, message: contentText(blocks)}, step);
			return;
		}

		const calls: ToolCall[] = [];
		const delegations: ToolCall[] = [];
		const results: ToolResult[] = [];
		for (const block of blocks) {
			switch (block.type) {
				case 'thinking': {
					const thinking = block.thinking ?? '';
					// Newer models send a signature only: nothing to show.
					if (thinking === '') break;
					state.thinking = state.thinking === undefined ? thinking : `${state.thinking}\n\n${thinking}`;
					this.#emit(runId, {kind: 'stream', channel: 'reasoning', phase: 'complete', text: state.thinking}, step);
					break;
				}

				case 'text': {
					const text = block.text ?? '';
					if (text === '') break;
					state.text = state.text === undefined ? text : `${state.text}\n\n${text}`;
					state.lastText = text;
					this.#emit(runId, {kind: 'stream', channel: 'result', phase: 'complete', text: state.text}, step);
					break;
				}

				case 'tool_use':
				case 'server_tool_use': {
					if (block.id === undefined || block.name === undefined) break;
					const delegate = block.type === 'tool_use' && delegateTools.has(block.name);
					this.#calls.set(block.id, {runId, name: block.name, delegate, input: block.input});
					(delegate ? delegations : calls).push(toolCall(block.id, block.name, block.input));
					break;
				}

				default:
					// A server tool's result (web search, code execution) comes in the answer itself.
					if (block.tool_use_id !== undefined) results.push(this.#toolResult(block.tool_use_id, contentText(block.content), block.is_error === true));
			}
		}

		// The response's text so far is what the model said with its calls (`I'll read the file first.`).
		const said = state.text;
		const {thinking} = state;
		if (calls.length > 0 || delegations.length > 0) state.text = undefined;
		if (calls.length > 0) this.#emit(runId, {kind: 'toolCalls', as: 'tool', calls, text: said, thinking}, step);
		if (delegations.length > 0) {
			this.#emit(runId, {kind: 'toolCalls', as: 'delegate', calls: delegations, text: calls.length > 0 ? undefined : said, thinking}, step);
			// A sub-agent whose task was announced before its call was seen starts now, under this run.
			for (const call of delegations) if (this.#taskOfCall(call.id)?.agent === true) this.#child(call.id);
		}

		if (results.length > 0) this.#emit(runId, {kind: 'toolResults', results}, step);
	}

	#toolResult(id: string, text: string, isError: boolean, detail?: unknown): ToolResult {
		const call = this.#calls.get(id);
		const result: ToolResult = {
			id,
			skillName: skillOf(call?.name ?? ''),
			toolName: toolOf(call?.name ?? ''),
			text,
			error: isError ? text || 'error' : undefined,
		};
		// A string is the text again (an error's); an object is what the inspector shows as the tool's own result.
		if (typeof detail === 'object' && detail !== null) result.detail = detail;
		return result;
	}

	#user(line: ClaudeLineOf<'user'>): void {
		const runId = this.#runOf(line, line.subagent_type);
		const {content} = line.message;
		if (typeof content === 'string') {
			this.#query(runId, content);
			return;
		}

		const results: ToolResult[] = [];
		const ends: Array<() => void> = [];
		const texts: string[] = [];
		for (const block of content) {
			if (block.type !== 'tool_result' || block.tool_use_id === undefined) {
				if (block.type === 'text' && block.text !== undefined) texts.push(block.text);
				continue;
			}

			const id = block.tool_use_id;
			const call = this.#calls.get(id);
			const isError = block.is_error === true;
			// Claude Code puts the tool's own result beside the line's only tool result.
			const detail = content.length === 1 ? line.tool_use_result : undefined;
			if (!call?.delegate) {
				results.push(this.#toolResult(id, contentText(block.content), isError, detail));
				continue;
			}

			if (!isError && isAsyncLaunch(detail)) {
				// In the background: its answer comes with its task's end.
				this.#child(id);
				this.#children.get(id)!.background = true;
				continue;
			}

			const text = agentAnswer(detail) ?? agentResultText(block.content);
			results.push(this.#toolResult(id, text, isError, detail));
			if (!isError) this.#child(id);
			const model = agentModel(detail);
			ends.push(() => {
				if (model !== undefined && this.#children.has(id)) this.#runModel(id, model);
				this.#endChild(id, isError ? 'stoppedByError' : 'completed', text, isError ? text || 'error' : undefined);
			});
		}

		if (results.length > 0) this.#emit(runId, {kind: 'toolResults', results});
		for (const end of ends) end();
		if (texts.length > 0) this.#query(runId, texts.join('\n'));
		// Nothing to show (an Agent call's launch in the background): the line still dates its run.
		if (results.length === 0 && ends.length === 0 && texts.length === 0) this.#emit(runId, {kind: 'marker'});
	}

	/** What the run was asked: a sub-agent's prompt (once), the main loop's prompt echoed or a note put to it. */
	#query(runId: string, text: string): void {
		const state = this.#state(runId);
		if (text === '' || text === state.query) {
			this.#marker();
			return;
		}

		state.query ??= text;
		this.#emit(runId, {kind: 'query', text});
	}

	#result(line: ClaudeLineOf<'result'>): void {
		const session = this.#sessionState();
		// The oldest turn still open: a process prints its earlier turns' results late. None open: a turn of its own.
		const runId = session.turns.find(candidate => !candidate.closed)?.runId ?? this.#startTurn(undefined);
		session.turns.find(candidate => candidate.runId === runId)!.closed = true;
		const state = this.#state(runId);
		// The main loop's usage of the turn, with the final output counts its lines lack.
		if (line.usage) {
			const more = subtractUsage(largerUsage(state.usage, usageOf(line.usage)), state.usage);
			if (more.totalTokens > 0) this.#countUsage(runId, undefined, more);
		}

		this.#reportCost(session, runId, line);
		// The turn's first lines may carry no time (2.0, and 2.1's assistant lines): its result says how long it took,
		// counted back from the last time the stream gave.
		const time = this.#lastTime;
		if (line.duration_ms !== undefined && line.duration_ms >= 0 && time !== undefined)
			this.#emit(runId, {kind: 'marker'}, undefined, {timestamp: time - line.duration_ms});
		const isError = line.is_error === true || line.subtype !== 'success';
		if (!isError) {
			this.#emit(runId, {kind: 'runEnd', status: 'completed', text: line.result, message: undefined, usage: undefined});
			return;
		}

		const errors = (line.errors ?? []).map(error => errorText(error)).filter(text => text !== undefined);
		const message = errors.length > 0 ? errors.join('; ') : (errorText(line.error) ?? line.result ?? line.terminal_reason ?? line.subtype);
		const maxTurns = line.subtype === 'error_max_turns';
		this.#emit(runId, {kind: 'runError', name: line.subtype === 'success' ? 'error' : line.subtype, message});
		this.#emit(runId, {kind: 'runEnd', status: maxTurns ? 'stoppedByExceededMaxSteps' : 'stoppedByError', text: undefined, message, usage: undefined});
	}

	#reportCost(session: Session, runId: string, line: ClaudeLineOf<'result'>): void {
		const cost = reportedCost(session, line);
		if (cost) this.#emit(runId, {kind: 'reportedCost', usd: cost.usd, runIds: cost.runIds});
	}

	#streamEvent(line: ClaudeLineOf<'stream_event'>): void {
		const runId = this.#runOf(line);
		const {event} = line;
		const state = this.#state(runId);
		switch (event.type) {
			case 'message_start': {
				const message = event.message;
				this.#response(runId, message?.id, message?.model);
				if (message?.usage) this.#countUsage(runId, message.id, usageOf(message.usage));
				return;
			}

			case 'message_delta':
				if (event.usage) this.#countUsage(runId, state.messageId, usageOf(event.usage));
				else this.#marker();
				return;
			case 'content_block_start':
			case 'content_block_delta': {
				const channel = streamChannel(event.content_block?.type ?? event.delta?.type);
				if (channel === undefined) {
					this.#marker();
					return;
				}

				if (state.step === 0) this.#response(runId, undefined, undefined);
				const text = event.type === 'content_block_start' ? '' : channel === 'reasoning' ? (event.delta?.thinking ?? '') : (event.delta?.text ?? '');
				this.#emit(runId, {kind: 'stream', channel, phase: event.type === 'content_block_start' ? 'start' : 'delta', text}, state.step);
				return;
			}

			default:
				this.#marker();
		}
	}
}

function failedTask(status: string | undefined): boolean {
	return status !== undefined && status !== 'completed';
}
