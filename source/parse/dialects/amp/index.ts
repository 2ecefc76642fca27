import {looksLikeClaudeLine} from '../claude-code/index.js';
import {ClaudeReader} from '../claude-code/reader.js';
import type {StreamDialect} from '../stream-dialect.js';

/*
 * Amp's `amp -x "…" --stream-json`: Claude Code's envelope (`system/init`, `user`, `assistant`, `result`), read by
 * Claude Code's reader. What differs is what Amp leaves out: its `result` has no usage and no cost (the runs'
 * usage is their `assistant` lines', priced by the table), its init names no model, and it streams no partial
 * messages. Its session ids are thread ids, `T-<uuid>`: that is how its lines are told from Claude Code's, so
 * this dialect is asked first (registry.ts).
 */

export const ampDialect: StreamDialect = {
	name: 'amp',
	recognises: value => {
		const session = value['session_id'];
		return typeof session === 'string' && session.startsWith('T-') && looksLikeClaudeLine(value);
	},
	reader: options => new ClaudeReader({dialect: 'amp', rootExpert: 'amp'}, options),
};
