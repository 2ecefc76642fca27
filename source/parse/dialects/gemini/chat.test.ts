import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../../../test/helpers/load.js';
import type {ConversationMessage, ConversationPart} from '../../../model/conversation.js';
import {chatConversation} from './chat.js';
import {chatDocumentHeader, isChatHeader} from './chat-file.js';
import {jsonObject} from '../json-values.js';
import {ended} from '../../../../test/helpers/conversation-step.js';

/*
 * The chat Gemini CLI 0.61.0 kept of the session of fixtures/gemini/stream-with-chats.jsonl (two `gemini -p` runs, the
 * second with --resume latest): the figures below are read off its lines.
 */

const chat = readFileSync(fixturePath('gemini/stream-with-chats/tmp/tmp-7jg85xlsvx/chats/session-2026-11-29T21-44-87be16a9.ndjson'));
/** The chat Gemini CLI 0.36.0 kept of an interactive session of two prompts (fixtures/gemini/chat-document/): one JSON document. */
const document = readFileSync(fixturePath('gemini/chat-document/chats/session-2026-11-30T03-22-5cb65d08.json'));

function kinds(message: ConversationMessage): string[] {
	return typeof message.contents === 'string' ? ['text'] : message.contents.map((part: ConversationPart) => part.kind);
}

describe('a step’s conversation from a Gemini CLI chat', () => {
	it('knows a chat by its header: a chat of lines by its first line, one kept as a document (before 0.40) by its first fields', () => {
		const header = jsonObject(chat.toString('utf8').split('\n')[0]!)!;
		expect(isChatHeader(header)).toBe(true);
		expect(header['sessionId']).toBe('87be16a9-348b-4b32-baa8-f067a778c15d');
		expect(isChatHeader(jsonObject('{"type":"init","session_id":"87be16a9"}')!)).toBe(false);
		expect(chatDocumentHeader(document.toString('utf8', 0, 4096))).toEqual({
			sessionId: '5cb65d08-9708-44fa-a074-b37d5efce019',
			projectHash: '2be3ada952f74df968ddbd733af2656f1454fade1330db31e6399ec80461e8dd',
			startTime: '2026-11-30T03:22:30.789Z',
			lastUpdated: '2026-11-30T03:22:34.998Z',
		});
		// A chat of lines, a stream's line, a document of something else: none.
		expect(chatDocumentHeader(chat.toString('utf8', 0, 4096))).toBeUndefined();
		expect(chatDocumentHeader('{\n  "type": "init",\n  "session_id": "87be16a9",\n')).toBeUndefined();
		expect(chatDocumentHeader('{\n  "sessionId": "a\\qb",\n  "projectHash": "p",\n  "startTime": "t",\n')).toBeUndefined();
	});

	it('step 2 of the first run: given the context, the prompt, the first response (2 calls) and its results (line 9); added the replace call and its result', () => {
		const step = ended(chatConversation(chat, {run: 1, at: undefined}, 2));
		expect(step.given.map(message => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
		expect(step.given[1]!.contents).toBe('Fix the greeting in greet.txt, then have a helper check the workspace.');
		expect(kinds(step.given[2]!)).toEqual(['thinking', 'text', 'call', 'call']);
		expect(kinds(step.given[3]!)).toEqual(['result', 'result']);
		expect(step.added.map(message => message.role)).toEqual(['assistant', 'tool']);
		expect(step.added[0]!.contents).toEqual([
			{
				kind: 'call',
				toolName: 'replace',
				callId: 'replace__replace_1795988673896_0',
				args: expect.objectContaining({old_string: 'Helo, world', new_string: 'Hello, world'}),
			},
		]);
		// Line 11's tokens: 900 in (300 cached), 40 out, 10 thinking.
		expect(step.usage).toEqual({inputTokens: 900, outputTokens: 40, reasoningTokens: 10, cachedInputTokens: 300});
	});

	it('the second run’s first step: the resumed history, the new prompt marked new, the write and its result added', () => {
		const step = ended(chatConversation(chat, {run: 2, at: undefined}, 1));
		const newInputs = step.given.filter(message => message.isNewInput);
		expect(newInputs.map(message => message.contents)).toEqual(['Now add a farewell file.']);
		expect(step.given.at(-1)!.contents).toBe('Now add a farewell file.');
		expect(step.added[0]!.contents).toEqual([expect.objectContaining({kind: 'call', toolName: 'write_file'})]);
		// The last step of the run: its answer, nothing after it.
		const last = ended(chatConversation(chat, {run: 2, at: undefined}, 2));
		expect(last.added.map(message => message.contents)).toEqual([[{kind: 'text', text: 'Added farewell.txt.'}]]);
	});

	it('reads a resumed run’s history as the API parts it is kept in: thinking, calls, and each result once', () => {
		const step = ended(chatConversation(chat, {run: 2, at: undefined}, 1));
		const first = step.given.find(message => message.role === 'assistant')!;
		expect(kinds(first)).toEqual(['thinking', 'text', 'call', 'call']);
		const results = step.given.flatMap(message => (typeof message.contents === 'string' ? [] : message.contents.filter(part => part.kind === 'result')));
		const ids = results.map(part => (part.kind === 'result' ? part.callId : ''));
		// Two reads, the replace, the command and the sub-agent: five calls, each result once.
		expect(ids).toHaveLength(5);
		expect(new Set(ids).size).toBe(5);
	});

	it('takes the run a step is of from the step’s time: a stream of the second gemini -p alone calls it its first', () => {
		const step = ended(chatConversation(chat, {run: 1, at: '2026-11-29T21:44:36.606Z'}, 1));
		expect(step.added[0]!.contents).toEqual([expect.objectContaining({kind: 'call', toolName: 'write_file'})]);
	});

	it('counts no response that said and called nothing as a step, and survives a history that drops the step', () => {
		const records = [
			{sessionId: 's', projectHash: 'p', startTime: '2026-01-01T00:00:00.000Z', kind: 'main'},
			{id: 'u1', type: 'user', content: [{text: 'hello'}]},
			{id: 'g0', type: 'gemini', content: ''},
			{id: 'g1', type: 'gemini', content: 'Hi there.', tokens: {input: 5, output: 2}},
			{$set: {messages: []}},
		];
		const bytes = Buffer.from(records.map(record => JSON.stringify(record)).join('\n'));
		const step = ended(chatConversation(bytes, {run: 1, at: undefined}, 1));
		expect(step.added.map(message => message.contents)).toEqual([[{kind: 'text', text: 'Hi there.'}]]);
		expect(step.given.map(message => message.contents)).toEqual(['hello']);
		expect(chatConversation(bytes, {run: 1, at: undefined}, 2)).toMatchObject({kind: 'none'});
	});

	it('a chat kept as one document (0.36.0): each prompt a run, its steps its responses, read as from a chat of lines', () => {
		// Run 1, step 2: given the prompt, the first response (thought, text, two reads) and its results; added the replace.
		const step = ended(chatConversation(document, {run: 1, at: undefined}, 2, 'every'));
		expect(step.given.map(message => message.role)).toEqual(['user', 'assistant', 'tool']);
		expect(step.given[0]!.contents).toBe('Fix the greeting in greet.txt, then have a helper check the workspace.');
		expect(kinds(step.given[1]!)).toEqual(['thinking', 'text', 'call', 'call']);
		expect(kinds(step.given[2]!)).toEqual(['result', 'result']);
		expect(step.added.map(message => message.role)).toEqual(['assistant', 'tool']);
		expect(step.added[0]!.contents).toEqual([expect.objectContaining({kind: 'call', toolName: 'replace'})]);
		expect(step.usage).toEqual({inputTokens: 900, outputTokens: 40, reasoningTokens: 10, cachedInputTokens: 300});
		// Run 2 (the second prompt), step 1: what came before, the new prompt marked new; the write added.
		const second = ended(chatConversation(document, {run: 2, at: undefined}, 1, 'every'));
		expect(second.given.filter(message => message.isNewInput).map(message => message.contents)).toEqual(['Now add a farewell file.']);
		expect(second.added[0]!.contents).toEqual([expect.objectContaining({kind: 'call', toolName: 'write_file'})]);
		// By the time of a stream's step, as a 0.36.0 stream's steps are found in its session's chat.
		const byTime = ended(chatConversation(document, {run: 1, at: '2026-11-30T03:22:34.900Z'}, 2));
		expect(byTime.added.map(message => message.contents)).toEqual([[{kind: 'text', text: 'Added farewell.txt.'}]]);
		expect(chatConversation(document, {run: 1, at: undefined}, 6, 'every')).toMatchObject({kind: 'none'});
	});

	it('numbers a document’s runs as its reader does: a notice of the CLI’s before any prompt is no run of its own; a copy holding several documents, the session’s last', () => {
		const whole = JSON.parse(document.toString('utf8')) as {sessionId: string; messages: unknown[]};
		const warned = Buffer.from(
			JSON.stringify({...whole, messages: [{id: 'w0', timestamp: '2026-11-30T03:22:30.700Z', type: 'warning', content: 'x'}, ...whole.messages]}, null, 2),
		);
		// The second prompt is the second run: the warning waited for the first prompt's (it used to be a run).
		const afterWarning = ended(chatConversation(warned, {run: 2, at: undefined}, 1, 'every'));
		expect(afterWarning.added[0]!.contents).toEqual([expect.objectContaining({kind: 'call', toolName: 'write_file'})]);
		expect(chatConversation(warned, {run: 3, at: undefined}, 1, 'every')).toMatchObject({kind: 'none'});
		// A pipe's copy: documents a line each, another session's after the one asked for, and an earlier version before it.
		const line = (value: object) => JSON.stringify(value);
		const other = {...whole, sessionId: 'another', messages: whole.messages.slice(0, 1)};
		const copy = Buffer.from(`${[line({...whole, messages: whole.messages.slice(0, 3)}), line(whole), line(other)].join('\n')}\n`);
		const second = ended(chatConversation(copy, {run: 2, at: undefined, session: whole.sessionId}, 1, 'every'));
		expect(second.added[0]!.contents).toEqual([expect.objectContaining({kind: 'call', toolName: 'write_file'})]);
		expect(chatConversation(copy, {run: 1, at: undefined, session: 'none of these'}, 1, 'every')).toMatchObject({kind: 'none'});
	});

	it('says so for a step the chat does not hold', () => {
		expect(chatConversation(chat, {run: 1, at: undefined}, 6)).toMatchObject({kind: 'none'});
		expect(chatConversation(chat, {run: 3, at: undefined}, 1)).toMatchObject({kind: 'none'});
	});
});
