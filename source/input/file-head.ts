import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs';
import {chatDocumentHeader} from '../parse/dialects/gemini/chat-file.js';
import {JsonDocumentLines} from '../parse/json-document-lines.js';

/** How far into a file its head is looked at for what says it is a JSON document. */
const headBytes = 4096;

/**
 * What a regular file's first bytes say it is: `gzip` (its two magic bytes, whatever its name: rotated logs are often
 * compressed without a `.gz`); `json` when it begins as a JSON document of events rather than lines, as the line
 * splitter's reader of documents decides on the same bytes (parse/json-document-lines.ts: an array of events, or a
 * pretty-printed object), also when its head ends before that is decided, since then the reading that decides as
 * it goes must take it; else `lines`. `empty`: nothing could be read from it (a file
 * of size 0 that is not empty, as /proc's are, is read to its end rather than by its size). `chat`: a JSON document
 * that is a chat Gemini CLI kept before 0.40, which it wrote again whole as the session grew. A file that cannot be
 * read is `lines`, not empty: its reader meets the error and reports it.
 */
export function fileHead(path: string): {kind: 'gzip' | 'json' | 'lines'; empty: boolean; chat: boolean} {
	let fd: number;
	try {
		// Without waiting: a FIFO or a terminal put at the path must not hold whoever asks (the viewer's `c`).
		fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
		if (!fstatSync(fd).isFile()) {
			closeSync(fd);
			return {kind: 'lines', empty: false, chat: false};
		}
	} catch {
		return {kind: 'lines', empty: false, chat: false};
	}

	try {
		const head = Buffer.alloc(headBytes);
		const read = readSync(fd, head, 0, headBytes, 0);
		const kind = headKind(head, read);
		return {kind, empty: read === 0, chat: kind === 'json' && isChatDocumentHead(head.subarray(0, read))};
	} catch {
		return {kind: 'lines', empty: false, chat: false};
	} finally {
		closeSync(fd);
	}
}

/** Whether a file's first bytes (some hundred at least) begin a chat Gemini CLI kept as one JSON document (before 0.40). */
export function isChatDocumentHead(head: Buffer): boolean {
	// As much as fileHead looks at: a followed file's first piece may be a megabyte.
	const read = Math.min(head.length, headBytes);
	return headKind(head, read) === 'json' && chatDocumentHeader(head.toString('utf8', 0, read)) !== undefined;
}

/**
 * Whether a file's first bytes, too few to say, may yet turn out to begin a chat kept as one document: blanks, or a
 * pretty-printed object begun whose top level has neither ended nor reached its `messages`, in less than the head
 * looked at. A followed file's reader waits for more before it takes them as lines.
 */
export function mayYetBeChatDocumentHead(head: Buffer): boolean {
	if (head.length >= headBytes || isChatDocumentHead(head)) return false;
	const text = head.toString('utf8').replace(/^\uFEFF/, '');
	if (/^\s*$/.test(text)) return true;
	return /^\s*\{[ \t\r]*(?:\n|$)/.test(text) && !/\n\}/.test(text) && !text.includes('"messages"');
}

function headKind(head: Buffer, read: number): 'gzip' | 'json' | 'lines' {
	if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
	if (read === 0) return 'lines';
	// What the stream reader makes of these bytes as it reads them: lines, a document, or not decided yet.
	const lines = new JsonDocumentLines(() => undefined);
	lines.push(head.subarray(0, read));
	return lines.began === 'lines' ? 'lines' : 'json';
}
