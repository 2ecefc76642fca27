import {createHash} from 'node:crypto';
import {accessSync, constants} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {chatDocumentHeader, isChatHeader} from '../parse/dialects/gemini/chat-file.js';
import {jsonObject} from '../parse/dialects/json-values.js';
import {atMostEvery} from './looked-for.js';
import {bytesOfSync, firstLineSync, isDirectory, isFile, namesIn} from './regular-file.js';

/*
 * Where Gemini CLI keeps its chats (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, one per session, the
 * interactive CLI's and `gemini -p`'s alike; a sub-agent's in `chats/<session id>/`; before 0.40 `session-….json`,
 * one JSON document): listed like a directory of Perstack jobs, to choose one from. Given `~/.gemini`, its `tmp`, a
 * project's folder or its `chats`, the sessions under it; each is told by its header (a chat's first line, or a
 * document's first fields, of the main loop), never by its name alone.
 */

/** A session's chat as Gemini CLI names it (a sub-agent's is named by its id alone); `.json` before 0.40. */
const chatName = /^session-.*\.jsonl?$/;

/** How far into a chat its header is looked for: it is a line of some hundred bytes. */
const headerBytes = 64 * 1024;

/** What a chat's first line says: its session, the hash of the directory it ran in, and whose loop it is. */
type ChatHead = {session: string; projectHash: string; kind: string | undefined};

function chatHead(path: string): ChatHead | undefined {
	const value = jsonObject(firstLineSync(path, headerBytes) ?? '') ?? documentHead(path);
	if (!value || !isChatHeader(value)) return undefined;
	const kind = value['kind'];
	return {session: value['sessionId'] as string, projectHash: value['projectHash'] as string, kind: typeof kind === 'string' ? kind : undefined};
}

/** A chat kept as one document: its header's fields from its first bytes, and its `kind`, its last field, from its end. */
function documentHead(path: string): Record<string, string> | undefined {
	const fields = chatDocumentHeader(bytesOfSync(path, 'start', 4096)?.toString('utf8') ?? '');
	if (!fields) return undefined;
	const kind = /"kind"\s*:\s*"(\w+)"\s*\}\s*$/.exec(bytesOfSync(path, 'end', 256)?.toString('utf8') ?? '')?.[1];
	return kind === undefined ? fields : {...fields, kind};
}

/** The session a chat is of (its header's), a chat of lines or a document; undefined for a file that is no session's chat. */
export function geminiChatSession(path: string): string | undefined {
	return chatHead(path)?.session;
}

/** The sessions' chats in a `chats` folder: the files named as a session's whose first line is a main loop's header. */
function chatsOf(folder: string): string[] {
	const found: string[] = [];
	for (const name of namesIn(folder)) {
		if (!chatName.test(name)) continue;
		const path = join(folder, name);
		if (!isFile(path)) continue;
		const head = chatHead(path);
		if (head && head.kind !== 'subagent') found.push(path);
	}

	return found;
}

/**
 * The sessions' chats under `root`: it is a `chats` folder, a project's folder (holding `chats`), the folder of projects
 * (`~/.gemini/tmp`) or Gemini CLI's own (`~/.gemini`). With `where`, only those of sessions that ran in that directory
 * (the header's `projectHash` is the SHA-256 of its path).
 */
export function geminiChatsIn(root: string, where?: string): string[] {
	let found = chatsOf(root);
	if (found.length === 0) found = chatsOf(join(root, 'chats'));
	if (found.length === 0) found = projectsIn(root).flatMap(project => chatsOf(join(project, 'chats')));
	if (found.length === 0) found = projectsIn(join(root, 'tmp')).flatMap(project => chatsOf(join(project, 'chats')));
	if (where === undefined) return found;
	const hash = createHash('sha256').update(where).digest('hex');
	return found.filter(path => chatHead(path)?.projectHash === hash);
}

/** The project folders in a folder of them: those holding a `chats` folder. */
function projectsIn(folder: string): string[] {
	return namesIn(folder)
		.map(name => join(folder, name))
		.filter(path => isDirectory(join(path, 'chats')));
}

/** Whether `root` holds the chats of several projects (`~/.gemini/tmp`, `~/.gemini`): each is listed with its project. */
export function geminiProjectsListed(root: string): boolean {
	return chatsOf(root).length === 0 && chatsOf(join(root, 'chats')).length === 0;
}

/** A chat's project, as the list shows it: the name of the folder its `chats` folder is in. */
export function geminiProjectOf(path: string): string {
	return basename(dirname(dirname(path)));
}

/** Where a session's sub-agents' chats are written (`chats/<session id>/`, there or not yet); undefined for a file that is no session's chat. */
export function geminiSubagentFolderOf(path: string): string | undefined {
	// A chat kept as one document (before 0.40) has none.
	if (!chatName.test(basename(path)) || !path.endsWith('.jsonl')) return undefined;
	const head = chatHead(path);
	// The session's id is made a folder's name: only when it is one Gemini CLI could have written.
	if (!head || head.kind === 'subagent' || !/^[\w-]+$/.test(head.session)) return undefined;
	return join(dirname(path), head.session);
}

/**
 * The chats of a session's sub-agents (`chats/<session id>/<agent id>.jsonl`, each a sub-agent's header first), read
 * with the session's chat; undefined when `path` is not a session's chat as Gemini CLI names and begins one.
 */
export function geminiSubagentChatsOf(path: string): string[] | undefined {
	const folder = geminiSubagentFolderOf(path);
	if (folder === undefined) return undefined;
	// One that cannot be read is kept, so that reading it says so (a sub-agent's file that cannot be read is reported).
	return namesIn(folder)
		.filter(name => name.endsWith('.jsonl'))
		.map(name => join(folder, name))
		.filter(file => isFile(file) && (!readable(file) || chatHead(file)?.kind === 'subagent'));
}

function readable(path: string): boolean {
	try {
		accessSync(path, constants.R_OK);
		return true;
	} catch {
		return false;
	}
}

/** For a session's chat followed: its sub-agents' chats as they start, looked for at most every `everyMs`. */
export function geminiSubagentChatsAsTheyStart(path: string, everyMs = 1000): () => readonly string[] {
	return atMostEvery(everyMs, () => geminiSubagentChatsOf(path) ?? []);
}
