import {isRecord} from '../wire-reader.js';

/*
 * A chat Gemini CLI keeps of a session (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, chat.ts) given
 * to perscope as an input. It is not an event stream: a header per run (`{sessionId, projectHash, startTime, kind}`,
 * no `type`, its `kind` `main` or `subagent`), `$set` and `$rewindTo` records, and each message written again under
 * its id as it grows. perscope reads it for `c` and `--conversation` on the session's stream, not as events: a
 * response's record says nothing of whether tool calls are still to come (they are written into it after they ran),
 * so which response ended a run is only known from what follows it, and a file's last one from the file's end,
 * which a reader of lines is not told. Without this, its header read as a drover event of kind `main`, every other
 * record as a bad line or an unknown type; the file is now said to be a chat, once, and its records show nothing.
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

/** What the chat's first record is reported as (a bad line's reason): what the file is, and what to give instead. */
export const chatFileReason =
	"a Gemini CLI chat (the record it keeps of a session), not an event stream: perscope does not read chats as input; give the session's `--output-format stream-json` output (`c` and --conversation on it read this chat)";

/** The wire type a chat record's marker is counted under. */
export function chatRecordType(value: Record<string, unknown>): string {
	if (isChatHeader(value)) return 'chat header';
	if ('$set' in value) return 'chat $set';
	if ('$rewindTo' in value) return 'chat $rewindTo';
	const type = value['type'];
	return typeof type === 'string' ? `chat ${type}` : 'chat record';
}
