import type {ConversationMessage, ConversationPart, ConversationStep, ConversationUsage} from '../../../model/conversation.js';
import {jsonObject, jsonObjectAt} from '../json-values.js';
import {isRecord} from '../wire-reader.js';
import {JsonDocumentLines} from '../../json-document-lines.js';
import {isChatDocument, isToolResponses} from './chat-file.js';

/*
 * A step's conversation from the chat Gemini CLI keeps of a session (`~/.gemini/tmp/<project>/chats/session-<time>-
 * <id>.jsonl`, seen with 0.61.0): a log of records, one a line. Each `gemini -p` run starts with a header
 * (`{sessionId, projectHash, startTime, …}`); `{"$set": {"messages": […]}}` puts the history in place (the context
 * the CLI gives first, and a resumed session's earlier messages); then each message as it comes, `type` `user` (a
 * prompt, or tool results as `functionResponse` parts) or `gemini` (a model response: its text, `thoughts`,
 * `toolCalls`, `tokens`), written again under the same `id` as it grows. The stream's step n of its k-th run is the
 * k-th run's n-th model response. Before 0.40 the CLI kept a session as one JSON document (`session-….json`: the
 * header's fields and `messages`), read here as if each prompt began a run (its time the run's start), as
 * chat-reader.ts reads it. The lines come from a program we do not control: every value is checked.
 */

type Record = {[key: string]: unknown};

/**
 * Which run of a chat a step is of: the `run`-th (1 the first), or, better, the last that started at or before `at` (the
 * time of the step's line in the stream: a stream may hold only some of the session's runs).
 */
export type ChatRun = {
	run: number;
	at: string | undefined;
	/**
	 * The session the run is of, where `bytes` may hold chats kept as documents of several (a copy of a stream that
	 * had them one after the other): the last of its documents is read (a later version holds what an earlier did).
	 */
	session?: string | undefined;
};

/**
 * The conversation of step `step` of a run of the session whose chat `bytes` holds: the stream's step (`counted`
 * `said`), or the chat's own as chat-reader.ts counts them (`every` response is a step).
 */
export function chatConversation(bytes: Buffer, which: ChatRun, step: number, counted: 'said' | 'every' = 'said'): ConversationStep {
	const records = [...chatRecords(bytes, which.session)];
	const run = runOf(records, which);
	// The run's responses, in the order they began; a response that said nothing and called nothing (one begun and
	// given up, as a retry leaves it) is no step of the stream's.
	const latest = latestMessages(records);
	const responses: string[] = [];
	for (const record of records)
		if (
			record.kind === 'message' &&
			record.run === run &&
			record.first &&
			record.value['type'] === 'gemini' &&
			(counted === 'every' || saysSomething(latest.get(record.id)!))
		)
			responses.push(record.id);
	const target = responses[step - 1];
	if (target === undefined)
		return {kind: 'none', from: 'chat', why: `The session's chat holds no step ${step} of this run: it may have been written since, or cleaned up.`};
	return conversationOf(records, latest, target);
}

/**
 * The conversation of the step whose response's record begins at byte `offset` of the chat (a chat read as the input:
 * chat-reader.ts makes each response a step, its first record the step's line).
 */
export function chatConversationAt(bytes: Buffer, offset: number): ConversationStep {
	const end = bytes.indexOf(0x0a, offset);
	const value = jsonObject(bytes.toString('utf8', offset, end === -1 ? bytes.length : end));
	const target = value?.['id'];
	if (typeof target !== 'string' || value?.['type'] !== 'gemini')
		return {kind: 'none', from: 'chat', why: 'The chat no longer holds this step where it was read: it may have been written again since.'};
	const records = [...chatRecords(bytes)];
	const latest = latestMessages(records);
	return conversationOf(records, latest, target);
}

/** Each message as it was last written under its id. */
function latestMessages(records: readonly ChatRecord[]): Map<string, Record> {
	const latest = new Map<string, Record>();
	for (const record of records) if (record.kind === 'message') latest.set(record.id, record.value);
	return latest;
}

/** The conversation of the response `target`: what the model was given as it began, then the response and its calls' results. */
function conversationOf(records: readonly ChatRecord[], latest: ReadonlyMap<string, Record>, target: string): ConversationStep {
	// What the model was given: the messages as they stood when the response began (each the last version written
	// under its id then); what the step added: the response, then its calls' results (a prompt that follows is the
	// next turn's).
	let messages: Record[] = [];
	const positions = new Map<string, number>();
	let given: Record[] = [];
	const added: Record[] = [latest.get(target)!];
	let after = false;
	for (const record of records) {
		if (record.kind === 'header') {
			if (after) break;
			continue;
		}

		if (record.kind === 'history') {
			messages = [...record.messages];
			positions.clear();
			for (const [index, message] of messages.entries()) if (typeof message['id'] === 'string') positions.set(message['id'], index);
			continue;
		}

		if (after) {
			if (record.id === target) continue;
			if (!record.first || record.value['type'] !== 'user' || !isToolResults(record.value)) break;
			added.push(latest.get(record.id)!);
			continue;
		}

		if (record.id === target) {
			given = messages;
			after = true;
			continue;
		}

		const at = positions.get(record.id);
		if (at === undefined) {
			positions.set(record.id, messages.length);
			messages.push(record.value);
		} else messages[at] = record.value;
	}

	// A response begun and given up (nothing said, nothing called) is left out, and so are the CLI's notices (what it
	// showed the person: `info`, `warning`, `error`), which it never gives the model.
	const givenMessages = withoutRepeatedResults(
		given.filter(message => !noticeTypes.has(message['type']) && (message['type'] !== 'gemini' || saysSomething(message))).map(messageOf),
	);
	let lastAnswer = -1;
	for (const [index, message] of givenMessages.entries()) if (message.role === 'assistant') lastAnswer = index;
	for (const message of givenMessages.slice(lastAnswer + 1)) if (message.role === 'user') message.isNewInput = true;
	const response = latest.get(target)!;
	return {kind: 'ended', from: 'chat', usage: usageOf(response['tokens']), given: givenMessages, added: added.map(messageOf), error: undefined};
}

/** The messages a chat keeps of what the CLI showed the person, apart from the conversation with the model. */
const noticeTypes: ReadonlySet<unknown> = new Set(['info', 'warning', 'error']);

/** A chat's lines as records: a run's header, a history put in place, a message (`first` where its id is new). */
type ChatRecord =
	| {kind: 'header'; run: number; startTime: string}
	| {kind: 'history'; run: number; messages: Record[]}
	| {kind: 'message'; run: number; id: string; first: boolean; value: Record};

function* chatRecords(bytes: Buffer, session?: string): Generator<ChatRecord> {
	let run = 0;
	const seen = new Set<string>();
	for (const value of chatValues(bytes, session)) {
		const startTime = value['startTime'];
		if (typeof value['sessionId'] === 'string' && typeof startTime === 'string') {
			run++;
			yield {kind: 'header', run, startTime};
			continue;
		}

		const set = value['$set'];
		if (isRecord(set)) {
			if (Array.isArray(set['messages'])) {
				const messages = set['messages'].filter(isRecord);
				for (const message of messages) if (typeof message['id'] === 'string') seen.add(message['id']);
				yield {kind: 'history', run, messages};
			}

			continue;
		}

		const id = value['id'];
		if (typeof id !== 'string') continue;
		const first = !seen.has(id);
		seen.add(id);
		yield {kind: 'message', run, id, first, value};
	}
}

/** The run a step is of: the last to start at or before the step's time, else the one counted. */
function runOf(records: readonly ChatRecord[], which: ChatRun): number {
	if (which.at === undefined) return which.run;
	let run = 0;
	for (const record of records) if (record.kind === 'header' && record.startTime <= which.at) run = record.run;
	return run === 0 ? which.run : run;
}

/** Whether a model response said or called anything. */
function saysSomething(response: Record): boolean {
	const content = response['content'];
	const calls = response['toolCalls'];
	const text = typeof content === 'string' ? content : textOf(content);
	return (
		text.trim() !== '' ||
		(Array.isArray(calls) && calls.length > 0) ||
		(Array.isArray(content) && content.some(part => isRecord(part) && isRecord(part['functionCall'])))
	);
}

/**
 * The messages with each tool result once: a resumed session's history holds a response's results under its id as
 * well as under their own.
 */
function withoutRepeatedResults(messages: ConversationMessage[]): ConversationMessage[] {
	const shown = new Set<string>();
	const out: ConversationMessage[] = [];
	for (const message of messages) {
		if (message.role !== 'tool' || typeof message.contents === 'string') {
			out.push(message);
			continue;
		}

		const parts = message.contents.filter(part => part.kind !== 'result' || part.callId === undefined || !shown.has(part.callId));
		for (const part of parts) if (part.kind === 'result' && part.callId !== undefined) shown.add(part.callId);
		if (parts.length > 0) out.push({...message, contents: parts});
	}

	return out;
}

function messageOf(message: Record): ConversationMessage {
	const content = message['content'];
	if (message['type'] === 'gemini') {
		const parts: ConversationPart[] = [];
		const thoughts = Array.isArray(message['thoughts']) ? message['thoughts'].filter(isRecord) : [];
		for (const thought of thoughts) {
			const text = [thought['subject'], thought['description']].filter(part => typeof part === 'string' && part !== '').join(': ');
			if (text !== '') parts.push({kind: 'thinking', text});
		}

		if (typeof content === 'string') {
			if (content !== '') parts.push({kind: 'text', text: content});
		} else if (Array.isArray(content)) {
			// As the API has them (a resumed session's history): thinking marked `thought`, calls as `functionCall`.
			for (const part of content.filter(isRecord)) {
				const call = part['functionCall'];
				if (isRecord(call)) parts.push({kind: 'call', toolName: stringOf(call['name']), callId: stringOf(call['id']), args: call['args']});
				else if (typeof part['text'] === 'string' && part['text'] !== '')
					parts.push({kind: part['thought'] === true ? 'thinking' : 'text', text: part['text']});
			}
		}

		const calls = Array.isArray(message['toolCalls']) ? message['toolCalls'].filter(isRecord) : [];
		for (const call of calls) parts.push({kind: 'call', toolName: stringOf(call['name']), callId: stringOf(call['id']), args: call['args']});
		return {role: 'assistant', contents: parts, isNewInput: false};
	}

	if (isToolResults(message)) {
		const parts: ConversationPart[] = (Array.isArray(content) ? content.filter(isRecord) : []).flatMap(part => {
			const result = part['functionResponse'];
			if (!isRecord(result)) return [];
			const response = isRecord(result['response']) ? result['response'] : {};
			const output = response['output'] ?? response['error'];
			return [
				{
					kind: 'result' as const,
					toolName: stringOf(result['name']),
					callId: stringOf(result['id']),
					parts: [{kind: 'text' as const, text: typeof output === 'string' ? output : JSON.stringify(output ?? null)}],
				},
			];
		});
		return {role: 'tool', contents: parts, isNewInput: false};
	}

	const text = typeof content === 'string' ? content : textOf(content);
	// The context the CLI gives first (the date, the workspace's files) folds as a system prompt does.
	const role = /^\s*<session_context>/.test(text) ? 'system' : typeof message['type'] === 'string' ? message['type'] : 'user';
	return {role, contents: text, isNewInput: false};
}

function isToolResults(message: Record): boolean {
	const content = message['content'];
	return Array.isArray(content) && content.some(part => isRecord(part) && isRecord(part['functionResponse']));
}

function textOf(content: unknown): string {
	if (!Array.isArray(content)) return '';
	return content
		.filter(isRecord)
		.map(part => (typeof part['text'] === 'string' ? part['text'] : ''))
		.filter(text => text !== '')
		.join('\n');
}

function usageOf(tokens: unknown): ConversationUsage | undefined {
	if (!isRecord(tokens)) return undefined;
	const count = (key: string) => (typeof tokens[key] === 'number' ? tokens[key] : undefined);
	return {inputTokens: count('input'), outputTokens: count('output'), reasoningTokens: count('thoughts'), cachedInputTokens: count('cached')};
}

function stringOf(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/**
 * A chat's records: its lines, or a chat kept as one document's messages, a header before each prompt (a run, as
 * chat-reader.ts counts them, begun at the prompt's time). A document keeps a call's result in the call alone
 * (`toolCalls[].result`, the `functionResponse` parts the model was given): after a response, its calls' results
 * are the message of results that a chat of lines writes of them.
 */
function* chatValues(bytes: Buffer, session: string | undefined): Generator<Record> {
	const document = chatDocumentOf(bytes, session);
	if (!document) {
		yield* objects(bytes);
		return;
	}

	// Where chat-reader.ts starts a run: at a prompt (a user message that is not all calls' results), and at a
	// response that comes before any prompt (the CLI's notices before it wait for it).
	let inRun = false;
	for (const message of document.messages) {
		if (!isRecord(message)) continue;
		const type = message['type'];
		if ((type === 'user' && !isToolResponses(message['content'])) || (!inRun && type === 'gemini')) {
			inRun = true;
			const at = message['timestamp'];
			yield {sessionId: document.sessionId, startTime: typeof at === 'string' ? at : document.startTime};
		}

		yield message;
		const calls = message['toolCalls'];
		if (message['type'] !== 'gemini' || typeof message['id'] !== 'string' || !Array.isArray(calls)) continue;
		const results = calls.flatMap(call => (isRecord(call) && Array.isArray(call['result']) ? call['result'].filter(isRecord) : []));
		if (results.length > 0) yield {id: `${message['id']}/results`, type: 'user', content: results};
	}
}

type ChatDocument = {sessionId: string; startTime: string; messages: unknown[]};

/**
 * A chat kept as one document, parsed, of `session` (when given): the last of the session's documents, in a file as
 * Gemini CLI writes it (pretty-printed, its first line a `{` alone; several of them one after the other, as `cat`
 * makes them), or in a copy that has them a line each (a pipe's: parse/json-document-lines.ts; a followed file's
 * versions). Undefined for a chat of lines, or with none of `session`.
 */
function chatDocumentOf(given: Buffer, session: string | undefined): ChatDocument | undefined {
	// Pretty-printed documents made lines as the stream's reader makes them.
	let bytes = given;
	if (/^\uFEFF?\s*\{[ \t\r]*\n/.test(given.toString('utf8', 0, Math.min(given.length, 256)))) {
		const pieces: Buffer[] = [];
		const lines = new JsonDocumentLines(piece => pieces.push(Buffer.from(piece)));
		lines.push(given);
		lines.end();
		bytes = Buffer.concat(pieces);
	}

	// Past a byte order mark and blank lines (a pipe's copy keeps what came before the document as a line of its own).
	let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	while (start < bytes.length && (bytes[start] === 0x20 || bytes[start] === 0x09 || bytes[start] === 0x0a || bytes[start] === 0x0d)) start++;
	if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
	const ofSession = (value: unknown): ChatDocument | undefined =>
		isRecord(value) && isChatDocument(value) && (session === undefined || value['sessionId'] === session)
			? {sessionId: value['sessionId'] as string, startTime: value['startTime'] as string, messages: value['messages'] as unknown[]}
			: undefined;
	// A document a line: only when the first line is one (a chat of lines is not read twice).
	const first = jsonObjectAt(bytes, start);
	if (!first.value || !isChatDocument(first.value)) return undefined;
	let found = ofSession(first.value);
	for (let at = first.next; at < bytes.length; ) {
		const {value, next} = jsonObjectAt(bytes, at);
		found = ofSession(value) ?? found;
		at = next;
	}

	return found;
}

/** The chat's lines that are JSON objects, in order. */
function* objects(bytes: Buffer): Generator<Record> {
	for (let at = 0; at < bytes.length; ) {
		const {value, next} = jsonObjectAt(bytes, at);
		if (value) yield value;
		at = next;
	}
}
