import {isRecord} from '../wire-reader.js';

/*
 * How a chat Gemini CLI keeps of a session (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, chat.ts) is
 * told from other lines: its records with no `type`, a header per process (`{sessionId, projectHash, startTime,
 * kind}`, its `kind` `main` or `subagent`, which drover's events would take for theirs), `$set` and `$rewindTo`; or,
 * before 0.40, the whole chat as one document. A source whose header is read is a chat (chat-reader.ts reads it);
 * untyped.ts lets these records through.
 */

/** Whether a value is a chat's header: the session, the project and the start, with no `type`. */
export function isChatHeader(value: Record<string, unknown>): boolean {
	return !('type' in value) && typeof value['sessionId'] === 'string' && typeof value['projectHash'] === 'string' && typeof value['startTime'] === 'string';
}

/**
 * Whether a value is a whole chat as Gemini CLI before 0.40 kept one (`session-<time>-<id>.json`): one JSON document,
 * written again whole as the session grows, its header's fields and every message in `messages`. Pretty-printed, it
 * reaches a reader as one line (parse/json-document-lines.ts).
 */
export function isChatDocument(value: Record<string, unknown>): boolean {
	return isChatHeader(value) && Array.isArray(value['messages']);
}

/** Whether a value is one of a chat's records with no `type`: its header, or a `$set` or `$rewindTo` record. */
export function isChatRecordWithoutType(value: Record<string, unknown>): boolean {
	if ('type' in value) return false;
	return isChatHeader(value) || isRecord(value['$set']) || typeof value['$rewindTo'] === 'string';
}

/**
 * Whether a user message's content is the calls' results given back (every part a `functionResponse`) rather than
 * a prompt: where chat-reader.ts ends a step rather than starting a run, and chat.ts numbers runs the same way.
 */
export function isToolResponses(content: unknown): boolean {
	return Array.isArray(content) && content.length > 0 && content.every(part => isRecord(part) && 'functionResponse' in part);
}

/** The types of a chat's messages (what the person typed or the tools gave back; the model's; the CLI's notices). */
const chatMessageTypes: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'warning', 'error']);

/** Whether a value is a chat's message: an `id` and a message's `type` (a stream's `error` event has no `id`). */
export function isChatMessage(value: Record<string, unknown>): boolean {
	const type = value['type'];
	return typeof value['id'] === 'string' && typeof type === 'string' && chatMessageTypes.has(type);
}

/**
 * The header of a chat kept as one document, from the document's first bytes (a listing reads no more of a long
 * session): the string fields before `messages`, as Gemini CLI writes them (`JSON.stringify(…, null, 2)`, the
 * header's fields first). Undefined when the head is not a chat document's.
 */
export function chatDocumentHeader(head: string): Record<string, string> | undefined {
	const opening = /^\uFEFF?\s*\{\s*\n/.exec(head);
	if (!opening) return undefined;
	const fields: Record<string, string> = {};
	const field = /\s*"(\w+)"\s*:\s*("(?:[^"\\\n]|\\.)*")\s*,/y;
	field.lastIndex = opening[0].length;
	for (let match = field.exec(head); match; match = field.exec(head)) {
		let value: unknown;
		try {
			value = JSON.parse(match[2]!);
		} catch {
			return undefined;
		}

		if (typeof value === 'string') fields[match[1]!] = value;
	}

	return isChatHeader(fields) ? fields : undefined;
}
