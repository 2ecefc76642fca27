import {closeSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {sessionDirectoryOf, subagentsFolderOf} from '../parse/dialects/claude-code/session-files.js';
import {isDirectory, isFile, namesIn, openRegularFileSync, readOpenedSync} from './regular-file.js';

/*
 * A folder Claude Code keeps a project's sessions in (`~/.claude/projects/<folder>/`): each session a transcript named
 * by its id, its sub-agents' beside it (parse/dialects/claude-code/session-files.ts). Listed like a directory of
 * Perstack jobs, to choose one from.
 */

/** The sessions' transcripts in `folder`, by name; none when it holds none (or cannot be read). */
export function sessionFilesIn(folder: string): string[] {
	return namesIn(folder)
		.filter(name => subagentsFolderOf(name) !== undefined)
		.map(name => join(folder, name))
		.filter(path => isFile(path));
}

/**
 * The project folders under a folder of Claude Code projects (`~/.claude/projects`: a folder per working directory,
 * each of sessions), by name; none when it holds no such folder, or sessions of its own.
 */
export function projectFoldersIn(folder: string): string[] {
	if (sessionFilesIn(folder).length > 0) return [];
	return namesIn(folder)
		.map(name => join(folder, name))
		.filter(path => isDirectory(path) && sessionFilesIn(path).length > 0);
}

/** The folder a session's sub-agents' transcripts are in (there or not). */
export function subagentsOf(sessionFile: string): string | undefined {
	const folder = subagentsFolderOf(basename(sessionFile));
	return folder === undefined ? undefined : join(dirname(sessionFile), folder);
}

/** How far into a file its session's directory is looked for: an init line or a transcript's first lines name it. */
const directoryBytes = 1024 * 1024;

/**
 * The directory session `sessionId` ran in, from the first of `files` that names it in its first megabyte; undefined
 * when none does, or it is not a directory here. Only regular files are read (nothing put in their place can hang it).
 */
export function sessionDirectory(files: readonly string[], sessionId: string): string | undefined {
	const buffer = Buffer.allocUnsafe(64 * 1024);
	for (const file of files) {
		const pieces: Buffer[] = [];
		try {
			const opened = openRegularFileSync(file);
			try {
				readOpenedSync(opened, buffer, piece => pieces.push(Buffer.from(piece)), directoryBytes);
			} finally {
				closeSync(opened.fd);
			}
		} catch {
			continue;
		}

		for (const line of Buffer.concat(pieces).toString('utf8').split('\n')) {
			const directory = sessionDirectoryOf(line, sessionId);
			if (directory !== undefined) return isDirectory(directory) ? directory : undefined;
		}
	}

	return undefined;
}
