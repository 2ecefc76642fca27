import {basename, dirname, join} from 'node:path';
import type {ConversationStep} from '../../model/conversation.js';
import type {MessageLine} from '../../model/message-lines.js';
import {assertNever} from '../../model/assert-never.js';
import {stepNumberOf} from '../../parse/dialects/common.js';
import {conversationPlace, responseOffset, transcriptConversation} from '../../parse/dialects/claude-code/conversation.js';
import {subagentsFolderOf} from '../../parse/dialects/claude-code/session-files.js';
import {lastResponseOfTurn, rolloutConversation} from '../../parse/dialects/codex/conversation.js';
import {chatConversation, chatConversationAt} from '../../parse/dialects/gemini/chat.js';
import {isChatMessage} from '../../parse/dialects/gemini/chat-file.js';
import {jsonObject} from '../../parse/dialects/json-values.js';
import {rolloutFilesUnder, rolloutThread} from '../codex-sessions.js';
import {subagentsOf} from '../claude-sessions.js';
import {fileHead} from '../file-head.js';
import {geminiChatSession} from '../gemini-chats.js';
import {isFile, namesIn, readRegularFileSync} from '../regular-file.js';
import type {RawEvents} from './raw-events.js';

/*
 * The raw line that holds a step's messages, read again from where the model says it is (model/message-lines.ts):
 * a plain file at its byte offset, a stream's line from the bounded buffer of recent lines, or, in a job
 * directory, the step's own event file. Undefined when it is no longer there (a stream's line that the
 * buffer has let go, a file changed since).
 */

/** Event files of a step that hold its messages, the step's end first (a job directory names them `event-<time>-<step>-<type>.json`). */
const messageTypes = [
	'continueToNextStep',
	'completeRun',
	'stopRunByError',
	'stopRunByDelegate',
	'stopRunByInteractiveTool',
	'stopRunByExceededMaxSteps',
	'startGeneration',
];

/** A transcript read whole for a step's conversation up to this size: beyond it, the step's messages are not shown. */
const maxTranscriptBytes = 512 * 1024 * 1024;

/** Where an agent CLI's step is read from, found with no more than its line read: what readRequested reads. */
export type ConversationRequest =
	/** A Claude Code transcript, a Codex rollout or a Gemini CLI chat, read up to and around the step's line at `offset`. */
	| {kind: 'transcript' | 'rollout' | 'chat'; path: string; offset: number}
	/** A `claude -p` stream's step: the response `messageId` of session `sessionId`, in the transcript under `projects`. */
	| {kind: 'stream'; projects: string | undefined; sessionId: string; messageId: string}
	/** A `codex exec --json` turn (its run id): from the rollout of its thread under `sessions`. */
	| {kind: 'exec'; runId: string; sessions: string | undefined}
	/** A Gemini CLI stream's step (its run id and step): from the chat Gemini CLI keeps of the session under `folder`. */
	| {kind: 'gemini'; runId: string; step: number; at: string | undefined; folder: string | undefined}
	/** A step of a chat kept as one document (Gemini CLI before 0.40), read as the input: by its run and step. */
	| {kind: 'chat document'; path: string; runId: string; step: number};

type Places = {claudeProjects?: string | undefined; codexSessions?: string | undefined; geminiFolder?: string | undefined};

/**
 * A step's conversation as its runtime keeps it: Perstack's line that holds it (drawn by text/conversation.ts), or
 * the step read from an agent CLI's own record of the session: a Claude Code transcript (the one its line is of, or,
 * for a stream's, the one Claude Code keeps under `claudeProjects`), a Codex rollout (likewise, under
 * `codexSessions` for an exec stream's). Undefined when its line is no longer there.
 */
export function readConversation(raw: RawEvents, where: MessageLine, places: Places = {}): string | ConversationStep | undefined {
	const found = conversationRequest(raw, where, places);
	return found.kind === 'read' ? found.conversation : readRequested(found.request);
}

/**
 * What readConversation does with the step's line alone: the conversation when that is all it takes (Perstack's line;
 * a line no longer there), else where to read it from. A transcript can be a hundred megabytes: the viewer reads
 * it with readRequested off its thread (conversation-reads.ts).
 */
export function conversationRequest(
	raw: RawEvents,
	where: MessageLine,
	places: Places = {},
): {kind: 'read'; conversation: string | ConversationStep | undefined} | {kind: 'request'; request: ConversationRequest} {
	const read = (conversation: string | ConversationStep | undefined) => ({kind: 'read', conversation}) as const;
	const request = (to: ConversationRequest) => ({kind: 'request', request: to}) as const;
	if (where.dialect === 'codex') {
		const line = raw.read({source: where.source, line: where.line, offset: where.offset});
		if (line === undefined) return read(undefined);
		// A `codex exec --json` turn: from the rollout Codex keeps of its thread.
		if (line.includes('"turn.started"')) return request({kind: 'exec', runId: where.runId, sessions: places.codexSessions});
		// A session's rollout: its items around the step's first.
		const path = raw.fileOf(where.source);
		return path === undefined ? read(undefined) : request({kind: 'rollout', path, offset: where.offset});
	}

	// A Gemini CLI stream carries no messages: the chat of its session does.
	if (where.dialect === 'gemini') {
		// The step's time tells which of the chat's runs it is of (a stream may hold only some of them).
		const line = raw.read({source: where.source, line: where.line, offset: where.offset});
		// A chat read as the input: the step's line is its response's first record, in that very file.
		if (line !== undefined && isChatResponseLine(line)) {
			const path = raw.fileOf(where.source);
			return path === undefined ? read(undefined) : request({kind: 'chat', path, offset: where.offset});
		}

		// A chat kept as one document, read as the input: the step's line is the document (or, read again from the
		// file at its offset, the document's first line, a `{` alone); a line no longer kept, the file's head says.
		const path = raw.documentOf(where.source) ?? raw.fileOf(where.source);
		const document = line === undefined ? path !== undefined && fileHead(path).chat : /^\uFEFF?\s*\{\s*(?:$|"sessionId")/.test(line);
		if (document) return path === undefined ? read(undefined) : request({kind: 'chat document', path, runId: where.runId, step: where.step});

		return request({kind: 'gemini', runId: where.runId, step: where.step, at: line === undefined ? undefined : timestampIn(line), folder: places.geminiFolder});
	}

	if (where.dialect !== 'claude-code') return read(readMessageLine(raw, where));
	const line = raw.read({source: where.source, line: where.line, offset: where.offset});
	const place = line === undefined ? undefined : conversationPlace(line);
	if (place === undefined) return read(undefined);
	if (place.kind === 'transcript') {
		const path = raw.fileOf(where.source);
		return path === undefined ? read(undefined) : request({kind: 'transcript', path, offset: where.offset});
	}

	return request({kind: 'stream', projects: places.claudeProjects, sessionId: place.sessionId, messageId: place.messageId});
}

/** Reads a step's conversation where conversationRequest found it is (undefined when that file cannot be read). */
export function readRequested(request: ConversationRequest): ConversationStep | undefined {
	switch (request.kind) {
		case 'transcript':
		case 'rollout':
		case 'chat': {
			const bytes = readTranscript(request.path);
			if (bytes === undefined) return undefined;
			if (request.kind === 'chat') return chatConversationAt(bytes, request.offset);
			return request.kind === 'transcript' ? transcriptConversation(bytes, request.offset) : rolloutConversation(bytes, request.offset);
		}

		case 'stream':
			return streamConversation(request);
		case 'exec':
			return execConversation(request.runId, request.sessions);
		case 'gemini':
			return geminiConversation(request);
		case 'chat document': {
			const bytes = readTranscript(request.path);
			const run = runNumberOf(request.runId);
			if (bytes === undefined || run === undefined) return undefined;
			return chatConversation(bytes, {run, at: undefined, session: request.runId.split('#')[0]}, request.step, 'every');
		}

		default:
			return assertNever(request, 'conversation request');
	}
}

/** A `claude -p` stream's step, from the transcript Claude Code keeps of its session. */
function streamConversation({projects, sessionId, messageId}: Extract<ConversationRequest, {kind: 'stream'}>): ConversationStep {
	// A stream carries no prompt and no system prompt: the transcript of its session has every message.
	const session = projects === undefined ? undefined : sessionFileIn(projects, sessionId);
	const folder = projects ?? '~/.claude/projects';
	if (session === undefined)
		return {
			kind: 'none',
			from: 'the stream',
			why: `A Claude Code stream does not carry what the model was given at a step, and no transcript of session ${sessionId} is in ${folder} to read it from (Claude Code ran on another machine or user, or with --no-session-persistence).`,
		};

	// The response is in the session's transcript, or a sub-agent's.
	const subagents = subagentsOf(session);
	const files = [
		session,
		...(subagents === undefined
			? []
			: namesIn(subagents)
					.filter(name => name.endsWith('.jsonl'))
					.map(name => join(subagents, name))),
	];
	for (const file of files) {
		const bytes = readTranscript(file);
		const offset = bytes === undefined ? undefined : responseOffset(bytes, messageId);
		if (bytes !== undefined && offset !== undefined) {
			const step = transcriptConversation(bytes, offset);
			return step.kind === 'none' ? step : {...step, from: `the session's transcript, ${file}`};
		}
	}

	return {
		kind: 'none',
		from: 'the stream',
		why: `The transcript of session ${sessionId} (${session}) does not hold this step's response (${messageId}): it may have been written since, or cleaned up.`,
	};
}

/**
 * A `codex exec --json` turn (a run: `<thread>`, `<thread>#2`, …, one step each) from the rollout Codex keeps of the
 * thread under `sessions`: the turn's last model response, what it was given and added.
 */
function execConversation(runId: string, sessions: string | undefined): ConversationStep {
	const [thread = '', nth] = runId.split('#');
	const turn = nth === undefined ? 1 : Number(nth);
	const folder = sessions ?? '~/.codex/sessions';
	// The thread id comes from the stream: it is compared with the threads of the rollouts there, never made a path.
	const rollout = sessions === undefined ? undefined : rolloutFilesUnder(sessions).find(path => rolloutThread(basename(path)) === thread);
	const bytes = rollout === undefined ? undefined : readTranscript(rollout);
	const offset = bytes === undefined || !Number.isInteger(turn) ? undefined : lastResponseOfTurn(bytes, turn);
	if (rollout === undefined || bytes === undefined || offset === undefined)
		return {
			kind: 'none',
			from: 'the stream',
			why: `A codex exec stream does not carry what the model was given, and ${rollout === undefined ? `no rollout of thread ${thread} is in ${folder}` : `its rollout (${rollout}) holds no turn ${turn}`} to read it from (Codex ran on another machine, or its sessions were cleaned up).`,
		};

	const step = rolloutConversation(bytes, offset);
	return step.kind === 'none' ? step : {...step, from: `the thread's rollout, ${rollout}`};
}

/**
 * A Gemini CLI stream's step (a run: `<session>`, `<session>#2`, … one a `gemini -p`) from the chat the CLI keeps of
 * the session under `folder` (`tmp/<project>/chats/session-<time>-<the id's first 8 characters>.jsonl`).
 */
function geminiConversation({runId, step, at, folder}: Extract<ConversationRequest, {kind: 'gemini'}>): ConversationStep {
	const session = runId.split('#')[0]!;
	const run = runNumberOf(runId) ?? Number.NaN;
	const place = folder ?? '~/.gemini';
	// The session id comes from the stream: it is compared with the chats' own first lines, never made a path.
	const chat = folder === undefined || session.includes('/') ? undefined : chatFileOf(folder, session);
	const bytes = chat === undefined ? undefined : readTranscript(chat);
	if (chat === undefined || bytes === undefined || !Number.isInteger(run))
		return {
			kind: 'none',
			from: 'the stream',
			why: session.includes('/')
				? 'A Gemini CLI stream carries nothing from inside a sub-agent, and its chat is not read for it.'
				: `A Gemini CLI stream does not carry what the model was given at a step, and no chat of session ${session} is in ${join(place, 'tmp')} to read it from (Gemini CLI ran on another machine or user, or its chats were cleaned up).`,
		};

	const found = chatConversation(bytes, {run, at}, step);
	return found.kind === 'none' ? found : {...found, from: `the session's chat, ${chat}`};
}

/** Which of its session's runs a Gemini CLI run is (`<session>` the first, `<session>#2`, …); undefined for a sub-agent's. */
function runNumberOf(runId: string): number | undefined {
	const [, nth, ...rest] = runId.split('#');
	if (rest.length > 0 || runId.includes('/')) return undefined;
	const run = nth === undefined ? 1 : Number(nth);
	return Number.isInteger(run) && run > 0 ? run : undefined;
}

/**
 * The chat of `session` among the projects' chats under a Gemini CLI folder: named by its id's start (`.jsonl`, or
 * `.json` as before 0.40), told by its header.
 */
function chatFileOf(folder: string, session: string): string | undefined {
	const suffix = `-${session.slice(0, 8)}.json`;
	for (const project of namesIn(join(folder, 'tmp'))) {
		const chats = join(folder, 'tmp', project, 'chats');
		for (const name of namesIn(chats)) {
			if (!name.startsWith('session-') || !(name.endsWith(suffix) || name.endsWith(`${suffix}l`))) continue;
			const path = join(chats, name);
			if (geminiChatSession(path) === session) return path;
		}
	}

	return undefined;
}

/** A stream line's `timestamp`, when it has one. */
function timestampIn(line: string): string | undefined {
	const at = jsonObject(line)?.['timestamp'];
	return typeof at === 'string' ? at : undefined;
}

/** A transcript read whole for a step's conversation, up to `maxTranscriptBytes`; undefined when it cannot be. */
function readTranscript(path: string): Buffer | undefined {
	try {
		// Only a regular file is read (nothing put in its place can hold it).
		return readRegularFileSync(path, maxTranscriptBytes);
	} catch {
		return undefined;
	}
}

/** `<session>.jsonl` in one of the project folders under `projects`. */
function sessionFileIn(projects: string, sessionId: string): string | undefined {
	const name = `${sessionId}.jsonl`;
	if (subagentsFolderOf(name) === undefined) return undefined;
	for (const project of namesIn(projects)) {
		const path = join(projects, project, name);
		if (isFile(path)) return path;
	}

	return undefined;
}

export function readMessageLine(raw: RawEvents, where: MessageLine): string | undefined {
	if (raw.isEventFile(where.source)) return readStepEventFile(raw, where);
	const text = raw.read({source: where.source, line: where.line, offset: where.offset});
	// A file rewritten since it was read has other bytes at the offset: only a line of an event of this step will do.
	return text !== undefined && holdsStep(text, where.step) ? text : undefined;
}

/**
 * A step number's value as JSON writes it: a string, or a number in any spelling. Read with the readers'
 * own normalisation (`stepNumberOf`), so `3`, `"3"`, `3.0` and `3e0` are all step 3 here as everywhere.
 */
const stepNumberField = /"stepNumber"\s*:\s*("(?:[^"\\]|\\.){0,64}"|-?[\d.eE+-]{1,64})\s*[,}]/g;

/**
 * Whether a raw line is plausibly the one remembered: a JSON object with a step number (the event's, its
 * checkpoint's or its step's: the model took the step from one of them) that reads as this step. A quick check,
 * without parsing the line, which can be megabytes of history.
 */
function holdsStep(text: string, step: number): boolean {
	if (!text.startsWith('{')) return false;
	for (const [, written] of text.matchAll(stepNumberField)) {
		let value: unknown;
		try {
			value = JSON.parse(written!);
		} catch {
			continue;
		}

		if (stepNumberOf(value) === step) return true;
	}

	return false;
}

/**
 * A job directory keeps each event in a file of its own, all of a run's in one folder: the one remembered is
 * any of the run's, so the step's files are found there by name.
 */
function readStepEventFile(raw: RawEvents, where: MessageLine): string | undefined {
	const folder = dirname(where.source);
	const names = namesIn(folder);
	for (const type of messageTypes) {
		const suffix = `-${where.step}-${type}.json`;
		const name = names.find(candidate => candidate.startsWith('event-') && candidate.endsWith(suffix));
		if (name === undefined) continue;
		const path = join(folder, name);
		const text = raw.read({source: path, line: 1, offset: 0});
		if (text !== undefined) return text;
	}

	return undefined;
}

/** Whether a line is a Gemini CLI chat's model response (a stream's lines are `message`, `tool_use`, …). */
function isChatResponseLine(line: string): boolean {
	const value = jsonObject(line);
	return value !== undefined && isChatMessage(value) && value['type'] === 'gemini';
}
