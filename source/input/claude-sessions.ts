import {readdirSync, statSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {subagentsFolderOf} from '../parse/dialects/claude-code/session-files.js';

/*
 * A folder Claude Code keeps a project's sessions in (`~/.claude/projects/<folder>/`): each session a transcript named
 * by its id, its sub-agents' beside it (parse/dialects/claude-code/session-files.ts). Listed like a directory of
 * Perstack jobs, to choose one from.
 */

/** The sessions' transcripts in `folder`, by name; none when it holds none (or cannot be read). */
export function sessionFilesIn(folder: string): string[] {
	let names: string[];
	try {
		names = readdirSync(folder);
	} catch {
		return [];
	}

	return names
		.filter(name => subagentsFolderOf(name) !== undefined)
		.sort()
		.map(name => join(folder, name))
		.filter(path => isFile(path));
}

/** The folder a session's sub-agents' transcripts are in (there or not). */
export function subagentsOf(sessionFile: string): string | undefined {
	const folder = subagentsFolderOf(basename(sessionFile));
	return folder === undefined ? undefined : join(dirname(sessionFile), folder);
}

function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
