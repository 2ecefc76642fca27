import {isRecord} from '../wire-reader.js';

/*
 * How a chat Gemini CLI keeps of a session (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, chat.ts) is
 * told from other lines: its records with no `type`, a header per process (`{sessionId, projectHash, startTime,
 * kind}`, its `kind` `main` or `subagent`, which drover's events would take for theirs), `$set` and `$rewindTo`. A
 * source whose header is read is a chat (chat-reader.ts reads it); untyped.ts lets these records through.
 */

/** Whether a value is a chat's header: the session, the project and the start, with no `type`. */
export function isChatHeader(value: Record<string, unknown>): boolean {
	return !('type' in value) && typeof value['sessionId'] === 'string' && typeof value['projectHash'] === 'string' && typeof value['startTime'] === 'string';
}

/** Whether a value is one of a chat's records with no `type`: its header, or a `$set` or `$rewindTo` record. */
export function isChatRecordWithoutType(value: Record<string, unknown>): boolean {
	if ('type' in value) return false;
	return isChatHeader(value) || isRecord(value['$set']) || typeof value['$rewindTo'] === 'string';
}

/** The types of a chat's messages (what the person typed or the tools gave back; the model's; the CLI's notices). */
const chatMessageTypes: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'warning', 'error']);

/** Whether a value is a chat's message: an `id` and a message's `type` (a stream's `error` event has no `id`). */
export function isChatMessage(value: Record<string, unknown>): boolean {
	const type = value['type'];
	return typeof value['id'] === 'string' && typeof type === 'string' && chatMessageTypes.has(type);
}
