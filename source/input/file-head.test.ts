import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {fileHead, mayYetBeChatDocumentHead} from './file-head.js';
import {fixturePath} from '../../test/helpers/load.js';

/* Compressed logs, and JSON documents of events, are recognised by their first bytes, not their names. */

let directory = '';

beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), 'perscope-file-head-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

function file(name: string, bytes: Buffer | string): string {
	const path = join(directory, name);
	writeFileSync(path, bytes);
	return path;
}

describe('fileHead', () => {
	it('recognises a compressed log, whatever its name', () => {
		const compressed = gzipSync('{"type":"startRun"}\n');
		expect(fileHead(file('events.ndjson.gz', compressed)).kind).toBe('gzip');
		expect(fileHead(file('events.ndjson.1', compressed)).kind).toBe('gzip');
	});

	it('takes a plain log named .gz for what it is', () => {
		expect(fileHead(file('plain.gz', '{"type":"startRun"}\n')).kind).toBe('lines');
	});

	it('says lines for a file shorter than the magic number, and for one that starts with only half of it', () => {
		expect(fileHead(file('empty', '')).kind).toBe('lines');
		expect(fileHead(file('one-byte', Buffer.from([0x1f]))).kind).toBe('lines');
		expect(fileHead(file('half', Buffer.from([0x1f, 0x00, 0x8b]))).kind).toBe('lines');
	});

	it('says lines, rather than throwing, for what it cannot read (its reader reports it)', () => {
		expect(fileHead(join(directory, 'missing.gz')).kind).toBe('lines');
		const subdirectory = join(directory, 'a-directory');
		mkdirSync(subdirectory);
		expect(fileHead(subdirectory).kind).toBe('lines');
	});

	it('says json for a file that begins as a JSON array of objects or a pretty-printed object, after blanks and a byte order mark, and for one of blanks only', () => {
		expect(fileHead(file('execution.json', '[\n  {"type":"system"}\n]\n')).kind).toBe('json');
		expect(fileHead(file('bom.json', '\uFEFF \r\n\t[{"type":"system"}]')).kind).toBe('json');
		expect(fileHead(file('blanks', ' \n \n')).kind).toBe('json');
		expect(fileHead(file('lines.ndjson', '\n{"type":"system"}\n[1]\n')).kind).toBe('lines');
		expect(fileHead(file('log-line-first.ndjson', '[dotenv@17.2.0] injecting env\n{"type":"system"}\n')).kind).toBe('lines');
		expect(fileHead(file('numbers.json', '[1, 2]')).kind).toBe('lines');
		expect(fileHead(file('empty-array.json', '[ ]')).kind).toBe('json');
		expect(fileHead(file('pretty.json', '{ \r\n  "session_id": "s"\n}\n')).kind).toBe('json');
		expect(fileHead(file('event-lines.ndjson', '{ "type": "system"}\n{}\n')).kind).toBe('lines');
		expect(fileHead(file('cut-log.ndjson', '{\n{"type": "system"}\n')).kind).toBe('lines');
	});

	it('says whether anything could be read: a file of size 0 may not be empty (/proc)', () => {
		expect(fileHead(file('nothing', '')).empty).toBe(true);
		expect(fileHead(file('something', '{}')).empty).toBe(false);
		if (existsSync('/proc/self/status')) expect(fileHead('/proc/self/status')).toEqual({kind: 'lines', empty: false, chat: false});
	});

	it('says when a followed file’s first bytes are too few to tell a chat document from lines (its reader waits for more)', () => {
		const recorded = readFileSync(fixturePath('gemini/chat-document/chats/session-2026-11-30T03-22-5cb65d08.json'));
		expect(mayYetBeChatDocumentHead(recorded.subarray(0, 60))).toBe(true);
		expect(mayYetBeChatDocumentHead(Buffer.from('\n'))).toBe(true);
		expect(mayYetBeChatDocumentHead(Buffer.from('{'))).toBe(true);
		// Told: a chat document's header whole; lines of events; a pretty-printed object that ended and is no chat.
		expect(mayYetBeChatDocumentHead(recorded.subarray(0, 400))).toBe(false);
		expect(mayYetBeChatDocumentHead(Buffer.from('{"type":"init","session_id":"s"}\n'))).toBe(false);
		expect(mayYetBeChatDocumentHead(Buffer.from('{\n  "session_id": "s"\n}\n'))).toBe(false);
	});

	it('does not wait on a FIFO at the path (as the viewer asks of a followed file that was swapped): it is no document', () => {
		const fifo = join(directory, 'swapped.json');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		expect(fileHead(fifo)).toEqual({kind: 'lines', empty: false, chat: false});
	});

	it('says chat for a JSON document that is a chat Gemini CLI kept before 0.40 (its writer writes it again whole), by its first fields', () => {
		const recorded = readFileSync(fixturePath('gemini/chat-document/chats/session-2026-11-30T03-22-5cb65d08.json'));
		expect(fileHead(file('session.json', recorded))).toEqual({kind: 'json', empty: false, chat: true});
		// Gemini CLI's `--output-format json`, a chat of lines, an array: no.
		expect(fileHead(fixturePath('gemini/json-output.json'))).toMatchObject({kind: 'json', chat: false});
		expect(fileHead(fixturePath('gemini/interactive-chat/chats/session-2026-11-30T01-37-420074c7.ndjson'))).toMatchObject({kind: 'lines', chat: false});
		expect(fileHead(file('array.json', '[\n  {"sessionId": "s", "projectHash": "p", "startTime": "t"}\n]\n'))).toMatchObject({chat: false});
	});
});
