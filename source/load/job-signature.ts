import {statSync} from 'node:fs';
import {join} from 'node:path';
import {subagentsOf} from '../input/claude-sessions.js';
import {namesIn} from '../input/regular-file.js';
import {assertNever} from '../model/assert-never.js';
import {eventFilesOf} from '../input/job/job-directory.js';

/*
 * A job's signature: what its files are and how big, cheap next to reading them. A job whose signature is what it was
 * when it was listed lists the same (the followed list reads a job again only when it changed; the listing cache
 * keeps a listing with it).
 */

export type JobKind = 'sessions' | 'rollouts' | 'chats' | 'jobs';

/** The signature of a job of this kind: a session's files, a rollout's and its sub-agents', a job directory's. */
export function jobSignature(kind: JobKind, path: string, companions: readonly string[]): string {
	switch (kind) {
		case 'sessions':
			return sessionSignature(path);
		case 'rollouts':
		case 'chats':
			return [path, ...companions].map(fileMark).join(' ');
		case 'jobs':
			return directorySignature(path);
		default:
			return assertNever(kind);
	}
}

/** A file's size and time of change, or `-` when it cannot be looked at. */
function fileMark(path: string): string {
	try {
		const stat = statSync(path);
		return `${stat.size}:${stat.mtimeMs}`;
	} catch {
		return '-';
	}
}

/** A session's transcript and its sub-agents' (a sub-agent writes only its own file while it runs). */
function sessionSignature(path: string): string {
	const marks = [fileMark(path)];
	const subagents = subagentsOf(path);
	// No folder: no sub-agents (yet).
	if (subagents !== undefined) for (const name of namesIn(subagents)) marks.push(`${name}=${fileMark(join(subagents, name))}`);

	return marks.join(' ');
}

/** A job directory's event files (each event a file of its own, named by its time) and its `job.json`. */
function directorySignature(path: string): string {
	const files = eventFilesOf(path);
	let newest: (typeof files)[number] | undefined;
	for (const file of files) if (newest === undefined || file.name > newest.name) newest = file;
	// The newest file's size and time too: one read while it was being written is read again once it is whole.
	return `${files.length} ${newest?.name ?? ''} ${newest ? fileMark(newest.path) : '-'} ${fileMark(join(path, 'job.json'))}`;
}
