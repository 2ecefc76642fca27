import type {StreamDialect} from '../stream-dialect.js';
import {ClaudeReader} from './reader.js';
import {claudeLineTypes} from './schema.js';
import {isTranscriptLine} from './transcript.js';

/*
 * Claude Code's `--output-format stream-json` (reader.ts). A line is surely Claude Code's when its type is one of
 * the stream's and it has what only that stream's lines have together: the session, a message, a raw API event,
 * a subtype, or a sub-agent's tag.
 */

export function looksLikeClaudeLine(value: Record<string, unknown>): boolean {
	// The transcript Claude Code keeps of a session (transcript.ts), whatever its line's type.
	if (isTranscriptLine(value)) return true;
	const type = value['type'];
	if (typeof type !== 'string' || !claudeLineTypes.has(type)) return false;
	return (
		typeof value['session_id'] === 'string' ||
		'message' in value ||
		'event' in value ||
		typeof value['subtype'] === 'string' ||
		'parent_tool_use_id' in value ||
		'rate_limit_info' in value
	);
}

export const claudeCodeDialect: StreamDialect = {
	name: 'claude-code',
	recognises: looksLikeClaudeLine,
	reader: options => new ClaudeReader({dialect: 'claude-code', rootExpert: 'claude'}, options),
};
