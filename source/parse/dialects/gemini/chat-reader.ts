import type {AgentEvent, EventRef, ParsedLine, ToolCall, Usage} from '../../../model/events.js';
import {timestampOf} from '../common.js';
import {outLineEvents, runEventHead, stepCheckpoint, withHead, withSharedHead, type EventHead} from '../event-head.js';
import {jsonText} from '../json-values.js';
import {lineOnlyEvent, type ParsedOut} from '../stream-dialect.js';
import {isRecord} from '../wire-reader.js';
import {agentName, agentTools, promptOf, subagentShown} from './agents.js';
import {isChatDocument, isChatHeader, isToolResponses} from './chat-file.js';

/*
 * A chat Gemini CLI keeps of a session (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`; chat.ts says how
 * it is written) read as the session's events, the same job, runs and steps its `--output-format stream-json` gives:
 *
 * - the session (its header's `sessionId`) is the job; each prompt a person typed (a `user` message of text) starts
 *   a run, `gemini`, named as the stream names a session's runs (the session's id, then `<session>#2`, …), so an
 *   interactive session's prompts are runs one after another as `gemini -p --resume`'s are;
 * - each model response (`type: "gemini"`) is a step: its thoughts, its text, its tool calls with their results (a
 *   call is written into its response once it ran, result and all), its tokens as the step's usage (the stream has
 *   only the run's totals), its model;
 * - `invoke_agent` (before 0.39 a tool named after the agent, which the chat shows as a sub-agent's progress) is a
 *   delegation to a sub-agent run, named as the stream names it, ended with the call's result, failed where the CLI
 *   says the sub-agent ended other than with its task done (`terminateReason` other than `GOAL`);
 *   the sub-agent's own chat (`chats/<session id>/<agent id>.jsonl`, read with the session's, in the order the lines
 *   were written) gives that run its steps: it is named by the call's `agentId`. Its header has no time, so it comes
 *   first: its records wait for the call (read right after the line that names it); the call's result and the
 *   run's end wait for the session's next record, by which the sub-agent's chat was read. With no call naming it,
 *   it is a job of its own;
 * - a response is written first without its calls and again with them once they ran, so whether it was the run's
 *   last (its answer) is known only from what comes next: another response or the calls' results (the run goes on),
 *   the next prompt or run's header (it was the answer), or the end of the file (endOfSource). A file followed as
 *   it grows leaves its last response open until something follows it, or the reading stops;
 * - a chat Gemini CLI kept before 0.40 (`session-<time>-<id>.json`: the header's fields and `messages`, one JSON
 *   document written again whole as the session grew) is read as its header and its messages would be, in order;
 * - an `error` message (what the CLI showed, `[API Error: …]`) is an error of the run; a run whose turn ended with
 *   one and no answer after it failed with it; `warning` is a warning; `info` (`Request cancelled.`) shows nothing
 *   but says how a run the next prompt came to with no answer was left.
 *
 * Every value is checked, as chat.ts checks it: the lines come from a program we do not control. There is no schema
 * and fast reader pair here: both ways of reading (PERSCOPE_FAST=0 too) read a chat with this one reader.
 */

type Value = {[key: string]: unknown};

type ChatRun = {
	jobId: string;
	runId: string;
	step: number | undefined;
	model: string | undefined;
	agents: number;
	/** The error the CLI showed since the run's last response (an API error ends a turn so): how it ends, if nothing follows. */
	error: string | undefined;
	/** Whether its end was read (its answer, or its error). */
	ended: boolean;
	/** The CLI's last notice (`info`) since the run's last response. */
	notice: string | undefined;
};

/** An error or warning the CLI showed that waits for what follows to say whose it is (a slash command's, `Missing tag. …`). */
type Notice = {type: 'error' | 'warning'; message: string; ref: EventRef; at: number | undefined};

/** The response being read: the run's last so far, until what follows says whether it was its answer. */
type Response = {
	id: string;
	text: string;
	/** Its thoughts, shown live as they are read and given to its first call (the answer's come from the step's stream). */
	thoughts: string;
	calls: Set<string>;
	usage: Usage | undefined;
	startedAt: number | undefined;
	finishedAt: number | undefined;
};

type ChatState = {
	session: string | undefined;
	/** A sub-agent's own chat (its header's `kind`): one run, the sub-agent's, whatever it is told. */
	subagent: boolean;
	/** A sub-agent's chat read before the call that started it: its records, read once that call is (or at its end). */
	held: Array<{value: Value; ref: EventRef}> | undefined;
	/** The ends of sub-agents this chat's calls started, given once what follows the calls is read (their chats come between). */
	deferred: Array<{agent: string | undefined; events: AgentEvent[]; failed: boolean}>;
	run: ChatRun | undefined;
	/**
	 * The errors and warnings the CLI showed that no turn is known to have shown yet (a slash command's; the model
	 * never sees them): with no run yet (before any prompt), shown in the run the next prompt begins, before its query;
	 * with a run (after a response that may be its answer), in that run, once what follows says whether its turn went
	 * on (the turn's, as any) or ended (after its answer, as warnings). A run's start takes the first kind, its end the
	 * second, so which kind they are is whether the chat has a run. test/cli/gemini-chats.test.ts has the recorded cases.
	 */
	waiting: Notice[];
	response: Response | undefined;
	/** The ids of the messages seen (a history put in place included): a message written again adds to what it was. */
	seen: Set<string>;
	/** Where the chat's last line was: what the end of the source settles continues it. */
	last: EventRef | undefined;
};

export class ChatReader {
	/** Each chat's state, by source. */
	readonly #chats = new Map<string, ChatState>();
	/** Each sub-agent a call named (`agentId`, its chat's session): its run, and the source of its chat once read. */
	readonly #agents = new Map<string, {jobId: string; runId: string; source: string | undefined}>();
	/** The held sub-agents' chats the line being read names: read once its own events are out. */
	readonly #named: ChatState[] = [];
	/** Runs started per session, over every chat read (the stream's numbering: `<session>#2`, …). */
	readonly #runsOfSession = new Map<string, number>();

	/** Whether the source is a chat (its header was read). */
	has(source: string): boolean {
		return this.#chats.has(source);
	}

	read(value: Value, ref: EventRef, out: ParsedOut): void {
		if (isChatDocument(value)) {
			this.#readDocument(value, ref, out);
			return;
		}

		const chat = this.#chatOf(ref.source);
		chat.last = ref;
		if (chat.held) {
			// A sub-agent's chat, read before the call that started it was (a header has no time to be put in its place by).
			if (!this.#agents.has(chat.session ?? '')) {
				chat.held.push({value, ref});
				out(this.#marker(chat, value, ref));
				return;
			}

			this.#replay(chat, out);
		}

		const events = [...this.#flush(chat), ...this.#events(chat, value, ref)];
		outLineEvents(events, out);
		if (events.length === 0) out(this.#marker(chat, value, ref));
		// The sub-agents whose chats were read before this line named them (all of a chat written before its call, as
		// a followed session's is): read now, after the call that started them.
		for (const held of this.#named.splice(0)) this.#replay(held, out);
	}

	/**
	 * A whole chat in one document (Gemini CLI before 0.40): its header, then each message as last written, read as a
	 * chat's lines give them, all of them the document's one line (the first event counts it, the rest continue it).
	 * The same session's document again (a followed file its writer wrote again: input/follow-rewritten.ts) is the
	 * chat going on: its messages, each read by its id, add what is new.
	 */
	#readDocument(document: Value, ref: EventRef, out: ParsedOut): void {
		let counted = false;
		let marker: ParsedLine | undefined;
		const each: ParsedOut = parsed => {
			if (parsed.kind === 'event' && parsed.event.kind === 'marker') {
				marker ??= parsed;
				return;
			}

			if (parsed.kind === 'event') {
				if (counted) parsed.event.continuesLine = true;
				counted = true;
			}

			out(parsed);
		};
		const {messages, ...header} = document;
		if (this.#chats.get(ref.source)?.session !== header['sessionId']) this.read(header, ref, each);
		if (Array.isArray(messages)) for (const message of messages) if (isRecord(message)) this.read(message, ref, each);
		if (!counted && marker) out(marker);
	}

	/** The chat has ended: its last response was its run's answer. */
	endOfSource(source: string, out: ParsedOut): void {
		const chat = this.#chats.get(source);
		if (!chat?.last) return;
		// A sub-agent's chat whose call was never read: a session of its own.
		if (chat.held) this.#replay(chat, out);
		const events = [...this.#flush(chat), ...this.#close(chat, chat.last, 'end'), ...this.#noticesAlone(chat)];
		for (const event of events) {
			event.continuesLine = true;
			out({kind: 'event', event});
		}
	}

	#chatOf(source: string): ChatState {
		let chat = this.#chats.get(source);
		if (!chat) {
			chat = {
				session: undefined,
				subagent: false,
				held: undefined,
				deferred: [],
				run: undefined,
				waiting: [],
				response: undefined,
				seen: new Set(),
				last: undefined,
			};
			this.#chats.set(source, chat);
		}

		return chat;
	}

	#events(chat: ChatState, value: Value, ref: EventRef): AgentEvent[] {
		if (isChatHeader(value)) {
			// Another process of the session (`--resume`): what the one before wrote last was its answer.
			const out = this.#close(chat, ref, 'header');
			chat.session = value['sessionId'] as string;
			chat.run = undefined;
			chat.subagent = value['kind'] === 'subagent';
			if (!chat.subagent) return out;
			// A sub-agent's: its run is the one the call that started it made, once that call is read.
			const agent = this.#agents.get(chat.session);
			if (!agent) {
				chat.held = [];
				return out;
			}

			agent.source = ref.source;
			chat.run = newRun(agent.jobId, agent.runId);
			return out;
		}

		const set = value['$set'];
		if (isRecord(set)) {
			// The history a resumed session starts from (and the context the CLI gives first): messages of before.
			if (Array.isArray(set['messages']))
				for (const message of set['messages']) if (isRecord(message) && typeof message['id'] === 'string') chat.seen.add(message['id']);
			return [];
		}

		const id = value['id'];
		if (typeof id !== 'string') return [];
		const first = !chat.seen.has(id);
		chat.seen.add(id);
		const at = timestampOf(value['timestamp']);
		switch (value['type']) {
			case 'user': {
				if (!first) return [];
				const content = value['content'];
				// The calls' results, as the CLI gives them back to the model: the response that made the calls is done.
				if (isToolResponses(content)) return [...this.#turnWentOn(chat), ...this.#settle(chat, ref, 'continue')];
				// What the CLI tells a sub-agent after its start (to finish its task) goes on in its one run.
				if (chat.subagent && chat.run) {
					const out = this.#settle(chat, ref, 'continue');
					const prompt = textOf(content);
					if (prompt !== undefined && chat.run.step !== undefined)
						out.push(withHead(this.#head(chat.run, 'chat user', ref, at), {kind: 'query', text: prompt}));
					return out;
				}

				const out = this.#close(chat, ref, 'prompt');
				out.push(...this.#startRun(chat, ref, at, textOf(content)));
				return out;
			}

			case 'gemini':
				return this.#response(chat, value, id, first, ref, at);
			case 'info': {
				// A notice of the CLI's (`Request cancelled.`): shown by nothing, but how a run the next prompt ends was left.
				const text = textOf(value['content']);
				if (first && chat.run && text !== undefined && text !== '') chat.run.notice = text;
				return [];
			}

			case 'error':
			case 'warning': {
				if (!first) return [];
				const message = textOf(value['content']) ?? value['type'];
				const notice: Notice = {type: value['type'], message, ref, at};
				// Before any prompt; or after a response that may be the run's answer, unless it is the API's error
				// (`[API Error: …]`, a request of the turn's that failed): whose it is waits for what follows.
				if (!chat.subagent && (!chat.run || (this.#mayBeAnswered(chat) && !isApiError(message)))) {
					chat.waiting.push(notice);
					return [];
				}

				// The turn's (the API's error after a response that may be the answer): so were those waiting before it.
				const out: AgentEvent[] = this.#turnWentOn(chat);
				const run = this.#current(chat, ref, at, out);
				// A turn that already failed (its error) or was left (the CLI's notice, `Request cancelled.`) keeps its end: a
				// slash command's error after it is a warning of it.
				const late = run.error !== undefined || run.notice !== undefined;
				out.push(this.#noticeOf(run, notice, !late || isApiError(message)));
				return out;
			}

			default:
				return [];
		}
	}

	/** A model response, as first written (a step begins) or written again (its calls, once they ran). */
	#response(chat: ChatState, value: Value, id: string, first: boolean, ref: EventRef, at: number | undefined): AgentEvent[] {
		const out: AgentEvent[] = [];
		if (first) {
			// A response after a response, with no results between (one given up, as a retry leaves it): the first is done.
			out.push(...this.#turnWentOn(chat), ...this.#settle(chat, ref, 'continue'));
			const run = this.#current(chat, ref, at, out);
			run.step = (run.step ?? 0) + 1;
			// The run went on after an error or notice it showed.
			run.error = undefined;
			run.notice = undefined;
			const head = this.#head(run, 'chat gemini', ref, at);
			// The step's conversation is read from this line's place in the chat (input/reread/message-line.ts).
			out.push(withSharedHead(head, {kind: 'stepStart', messagesInLines: true}));
			chat.response = {id, text: '', thoughts: '', calls: new Set(), usage: undefined, startedAt: at, finishedAt: at};
		}

		const response = chat.response;
		const run = chat.run;
		// A message of before written again (a history's), or one of another response than the one being read.
		if (!response || response.id !== id || !run) return out;
		const model = value['model'];
		if (typeof model === 'string' && model !== run.model) {
			run.model = model;
			out.push(withHead(this.#head(run, 'chat gemini', ref, at), {kind: 'runtimeInit', model}));
		}

		if (first) {
			const thoughts = thoughtsOf(value['thoughts']);
			response.thoughts = thoughts;
			if (thoughts !== '') out.push(withHead(this.#head(run, 'chat gemini', ref, at), {kind: 'stream', channel: 'reasoning', phase: 'delta', text: thoughts}));
		}

		// The text as it stands: what it adds to what was read of it.
		const text = textOf(value['content']) ?? '';
		if (text.length > response.text.length && text.startsWith(response.text)) {
			out.push(withHead(this.#head(run, 'chat gemini', ref, at), {kind: 'stream', channel: 'result', phase: 'delta', text: text.slice(response.text.length)}));
			response.text = text;
		}

		response.usage = usageOf(value['tokens']) ?? response.usage;
		const calls = value['toolCalls'];
		const before = response.calls.size;
		if (Array.isArray(calls)) for (const call of calls) if (isRecord(call)) out.push(...this.#call(chat, run, response, call, ref));
		// Written again with calls: its turn went on, and what the CLI showed meanwhile was the turn's (after the calls,
		// as a chat written whole at the end has it).
		if (response.calls.size > before) out.push(...this.#turnWentOn(chat));
		return out;
	}

	/** A tool call of the response, with its result: it is written once it ran. */
	#call(chat: ChatState, run: ChatRun, response: Response, call: Value, ref: EventRef): AgentEvent[] {
		const id = call['id'];
		const name = call['name'];
		if (typeof id !== 'string' || typeof name !== 'string' || response.calls.has(id)) return [];
		// The text before the calls goes with the first of them, as in the stream, and so do the thoughts.
		const text = response.calls.size === 0 && response.text !== '' ? response.text : undefined;
		const thinking = response.calls.size === 0 && response.thoughts !== '' ? response.thoughts.trimEnd() : undefined;
		response.calls.add(id);
		// Asked for when the response was written; written into it, result and all, once it ran.
		const ranAt = timestampOf(call['timestamp']);
		if (ranAt !== undefined) response.finishedAt = ranAt;
		const head = this.#head(run, 'chat tool call', ref, response.startedAt);
		const ended = this.#head(run, 'chat tool call', ref, ranAt ?? response.startedAt);
		const args = call['args'];
		const shown = subagentShown(call['resultDisplay']);
		const agent = agentTools.has(name) ? agentName(name, args) : shown ? shown.name || name : undefined;
		const toolCall: ToolCall = {id, skillName: agent ?? '', toolName: name, args};
		const out: AgentEvent[] = [withSharedHead(head, {kind: 'toolCalls', as: agent === undefined ? 'tool' : 'delegate', calls: [toolCall], text, thinking})];
		const status = call['status'];
		const ran = status === 'success' || status === 'error' || status === 'cancelled';
		const {output, error} = resultOf(call, status);
		const results = ran ? [withHead(ended, {kind: 'toolResults', results: [{id, skillName: '', toolName: '', text: output, error}]})] : [];
		if (agent === undefined) return [...out, ...results];
		run.agents++;
		const child = `${run.runId}/${agent}#${run.agents}`;
		out.push(
			withSharedHead(head, {kind: 'childRunStart', childRunId: child, childExpertKey: agent, query: promptOf(args), viaToolName: name, viaToolCallId: id}),
		);
		// The sub-agent's own chat (read with this one) names it by `agentId`: its run is this one.
		const agentId = typeof call['agentId'] === 'string' ? call['agentId'] : undefined;
		if (agentId !== undefined && !this.#agents.has(agentId)) {
			this.#agents.set(agentId, {jobId: run.jobId, runId: child, source: undefined});
			for (const held of this.#chats.values()) if (held.held && held.session === agentId) this.#named.push(held);
		}

		// The CLI tells how the sub-agent ended (`GOAL`: its task done, else the reason is the error's name); the call
		// succeeds however it ended.
		const reason = shown?.terminateReason !== undefined && shown.terminateReason !== 'GOAL' ? shown.terminateReason : undefined;
		const failed = error ?? (reason === undefined ? undefined : shown?.result || output || reason);
		const end = ran
			? [
					...(error === undefined && reason !== undefined && failed !== undefined
						? [withSharedHead(ended, {runId: child, step: undefined, kind: 'runError', name: reason, message: failed})]
						: []),
					withSharedHead(ended, {
						runId: child,
						step: undefined,
						kind: 'runEnd',
						status: failed === undefined ? 'completed' : 'stoppedByError',
						text: output,
						message: failed,
						usage: undefined,
					}),
				]
			: [];
		// A call is written once it ran, the sub-agent's chat meanwhile: its end waits for what follows the call here.
		chat.deferred.push({agent: agentId, events: [...end, ...results], failed: failed !== undefined});
		return out;
	}

	/**
	 * The response being read is done: the run goes on (`continue`: the step ends), or it was the run's answer
	 * (`final`: the run ends with it; one that made calls, which were never answered, leaves the run as it was).
	 */
	#settle(chat: ChatState, ref: EventRef, how: 'continue' | 'final'): AgentEvent[] {
		const response = chat.response;
		const run = chat.run;
		if (!response || !run) return [];
		chat.response = undefined;
		const answer = how === 'final' && response.calls.size === 0;
		if (answer) run.ended = true;
		const head = this.#head(run, 'chat gemini', ref, response.finishedAt);
		return [
			withHead(head, {
				kind: 'stepEnd',
				ending: answer ? 'complete' : 'continue',
				checkpoint: stepCheckpoint(run.runId, answer ? 'completed' : 'proceeding', run.step),
				stepUsage: response.usage,
				startedAt: response.startedAt,
				finishedAt: response.finishedAt,
				text: answer ? response.text : undefined,
				error: undefined,
			}),
		];
	}

	/**
	 * The ends of the sub-agents this chat's calls started, once something follows the calls: each sub-agent's chat,
	 * read meanwhile, is over first (its last response its answer, but for one the CLI says failed: its step ends,
	 * and the call's result ends the run).
	 */
	#flush(chat: ChatState): AgentEvent[] {
		if (chat.deferred.length === 0) return [];
		const out: AgentEvent[] = [];
		for (const {agent, events, failed} of chat.deferred.splice(0)) {
			const source = agent === undefined ? undefined : this.#agents.get(agent)?.source;
			const own = source === undefined ? undefined : this.#chats.get(source);
			if (own?.last) out.push(...(failed ? this.#settle(own, own.last, 'continue') : this.#close(own, own.last, 'end')));
			if (failed && own?.run) own.run.ended = true;
			out.push(...events);
		}

		return out;
	}

	/** A sub-agent's chat held until the call that started it was read: read now (as a session of its own when none was). */
	#replay(chat: ChatState, out: ParsedOut): void {
		const held = chat.held ?? [];
		chat.held = undefined;
		const agent = this.#agents.get(chat.session ?? '');
		if (agent) {
			agent.source = chat.last?.source;
			chat.run = newRun(agent.jobId, agent.runId);
		}

		// Each held line counted as one event when it was read: what it makes now continues it.
		for (const {value, ref} of held)
			for (const event of this.#events(chat, value, ref)) {
				event.continuesLine = true;
				out({kind: 'event', event});
			}
	}

	/**
	 * What follows the run says it is over (the next `prompt`, the next process's `header`, the `end` of the file): its last response was its answer; with no answer after an error the CLI showed (`[API Error: …]`), it
	 * failed with it. A run the next prompt came to with no answer (a turn cancelled with Esc, its calls cancelled)
	 * was interrupted, as the CLI's notice says (`Request cancelled.`) where it wrote one. At the end of the file, a
	 * run whose last response made calls that were never answered is left as it was: the chat does not say.
	 */
	#close(chat: ChatState, ref: EventRef, by: 'prompt' | 'header' | 'end'): AgentEvent[] {
		const out = this.#settle(chat, ref, 'final');
		const run = chat.run;
		// What the CLI showed after the run's answer: warnings of it, after its end.
		if (run) for (const notice of chat.waiting.splice(0)) out.push(this.#noticeOf(run, notice, false));

		if (!run || run.ended) return out;
		const message = run.error ?? (by === 'end' ? undefined : (run.notice ?? (by === 'prompt' ? 'the next prompt began' : 'the session was started again')));
		if (message === undefined) return out;
		run.ended = true;
		out.push(
			withHead(this.#head(run, 'chat error', ref, undefined), {
				kind: 'runEnd',
				status: 'stoppedByError',
				text: undefined,
				message,
				usage: undefined,
				errorName: 'interrupted',
			}),
		);
		return out;
	}

	/** A prompt: a run of the session begins, the prompt its query. */
	#startRun(chat: ChatState, ref: EventRef, at: number | undefined, prompt: string | undefined): AgentEvent[] {
		const session = chat.session ?? `gemini:chat-line-${ref.line}`;
		const count = (this.#runsOfSession.get(session) ?? 0) + 1;
		this.#runsOfSession.set(session, count);
		const run = newRun(session, count === 1 ? session : `${session}#${count}`);
		chat.run = run;
		const head = this.#head(run, 'chat user', ref, at);
		const out: AgentEvent[] = [
			withSharedHead(head, {kind: 'childRunStart', childRunId: run.runId, childExpertKey: 'gemini', query: undefined, viaToolName: undefined}),
		];
		// What the CLI showed before it, in the order shown: the run's first activities, none of them its error. Each
		// is dated by the prompt, so that the run lasts as long as its turn (the notice's own time is on its line).
		for (const notice of chat.waiting.splice(0)) out.push(this.#noticeOf(run, {...notice, at: at ?? notice.at}, false));
		if (prompt !== undefined) out.push(withSharedHead(head, {kind: 'query', text: prompt}));
		return out;
	}

	/**
	 * Whether the run's open response may be its answer (it said something and called nothing yet): a chat writes a
	 * response first without its calls, so only what follows tells.
	 */
	#mayBeAnswered(chat: ChatState): boolean {
		const response = chat.response;
		return response !== undefined && response.calls.size === 0 && response.text.trim() !== '';
	}

	/** The open response's turn went on: what the CLI showed after it was the turn's, an error its error. */
	#turnWentOn(chat: ChatState): AgentEvent[] {
		const run = chat.run;
		return run ? chat.waiting.splice(0).map(notice => this.#noticeOf(run, notice, true)) : [];
	}

	/** A notice as the run's error (`failing`: what it ends with if nothing follows), else as a warning it goes on after. */
	#noticeOf(run: ChatRun, {type, message, ref, at}: Notice, failing: boolean): AgentEvent {
		const error = failing && type === 'error';
		if (error) run.error = message;
		return withHead(this.#head(run, 'chat error', ref, at), {kind: 'runError', name: type, message, warning: !error});
	}

	/**
	 * At the chat's end, errors and warnings shown before any prompt of its last process, for a prompt that never
	 * came: a run of their own with no query, failed by the last error among them as a turn that ended with one is.
	 */
	#noticesAlone(chat: ChatState): AgentEvent[] {
		if (chat.waiting.length === 0 || chat.run) return [];
		const notices = chat.waiting.splice(0);
		const out: AgentEvent[] = [];
		const run = this.#current(chat, notices[0]!.ref, notices[0]!.at, out);
		for (const notice of notices) out.push(this.#noticeOf(run, notice, true));
		out.push(...this.#close(chat, chat.last ?? notices[0]!.ref, 'end'));
		return out;
	}

	/** The chat's run; a response before any prompt (a chat cut before it) starts one with no query. */
	#current(chat: ChatState, ref: EventRef, at: number | undefined, out: AgentEvent[]): ChatRun {
		if (chat.run) return chat.run;
		out.push(...this.#startRun(chat, ref, at, undefined));
		return chat.run!;
	}

	#head(run: ChatRun, wireType: string, ref: EventRef, at: number | undefined): EventHead {
		return runEventHead('gemini', run, wireType, ref, at);
	}

	/** A record with nothing to show (a header, a `$set`, a message written again): counted as its line's event. */
	#marker(chat: ChatState, value: Value, ref: EventRef): ParsedLine {
		const type = value['type'];
		const wireType = isChatHeader(value) ? 'chat header' : typeof type === 'string' ? `chat ${type}` : 'chat record';
		return lineOnlyEvent('marker', 'gemini', wireType, ref, chat.run);
	}
}

/** Whether an error the CLI showed is the model API's (`[API Error: …]`, how Gemini CLI words a request that failed). */
function isApiError(message: string): boolean {
	return message.startsWith('[API Error');
}

function newRun(jobId: string, runId: string): ChatRun {
	return {jobId, runId, step: undefined, model: undefined, agents: 0, error: undefined, ended: false, notice: undefined};
}

/** The text of a message's content: a string, or its parts' `text` joined. */
function textOf(content: unknown): string | undefined {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return undefined;
	let text: string | undefined;
	for (const part of content) if (isRecord(part) && typeof part['text'] === 'string') text = (text ?? '') + part['text'];
	return text;
}

/** A response's thoughts: each its subject, then what it says. */
function thoughtsOf(thoughts: unknown): string {
	if (!Array.isArray(thoughts)) return '';
	const texts: string[] = [];
	for (const thought of thoughts) {
		if (!isRecord(thought)) continue;
		const subject = typeof thought['subject'] === 'string' ? thought['subject'] : '';
		const description = typeof thought['description'] === 'string' ? thought['description'] : '';
		// As the chat's conversation shows them (chat.ts).
		const text = subject !== '' && description !== '' ? `${subject}: ${description}` : subject || description;
		if (text !== '') texts.push(text);
	}

	return texts.length === 0 ? '' : `${texts.join('\n\n')}\n\n`;
}

/**
 * A call's result: the tool's output (what the CLI showed, `resultDisplay`, when it is text; else what it gave the
 * model), and its error where it failed (the error the model was given, else what was shown, else the status).
 */
function resultOf(call: Value, status: unknown): {output: string; error: string | undefined} {
	const display = call['resultDisplay'];
	let given: string | undefined;
	let error: string | undefined;
	const result = call['result'];
	if (Array.isArray(result))
		for (const part of result) {
			const response = isRecord(part) && isRecord(part['functionResponse']) ? part['functionResponse']['response'] : undefined;
			if (!isRecord(response)) continue;
			const output = response['output'];
			if (output !== undefined) given = typeof output === 'string' ? output : jsonText(output);
			const failure = response['error'];
			if (failure !== undefined) error = typeof failure === 'string' ? failure : jsonText(failure);
		}

	const shown = typeof display === 'string' && display !== '' ? display : undefined;
	const output = shown ?? given ?? error ?? '';
	if (status === 'success') return {output, error: undefined};
	return {output, error: error || shown || (typeof status === 'string' ? status : 'failed')};
}

/**
 * A response's tokens as the step's usage, as Gemini CLI records them from the API's usage: `input` (the prompt, its
 * cached part `cached` in it) and `tool` (the prompt of a tool's use) are the input, `output` the output, `thoughts`
 * the thinking (billed as output); `total` is the four together.
 */
function usageOf(tokens: unknown): Usage | undefined {
	if (!isRecord(tokens)) return undefined;
	const count = (key: string) => {
		const value = tokens[key];
		return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
	};
	const inputTokens = count('input') + count('tool');
	const outputTokens = count('output');
	const reasoningTokens = count('thoughts');
	return {
		inputTokens,
		outputTokens,
		reasoningTokens,
		totalTokens: count('total') || inputTokens + outputTokens + reasoningTokens,
		cachedInputTokens: count('cached'),
	};
}
