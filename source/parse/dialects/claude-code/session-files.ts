/*
 * Where Claude Code keeps a session's transcript and its sub-agents' (transcript.ts): the session is
 * `<folder>/<session id>.jsonl`, each sub-agent's own steps `<folder>/<session id>/subagents/agent-<id>.jsonl`,
 * written as the sub-agent works. Only names and times here: the input layer lists and reads the files.
 */

/** A session id as Claude Code makes them (a UUID), as the name of its transcript. */
const sessionFileName = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const subagentFileName = /^agent-[\w-]+\.jsonl$/;

/** The folder of a session's sub-agent files, relative to its transcript's folder; undefined for a file named otherwise. */
export function subagentsFolderOf(fileName: string): string | undefined {
	const session = sessionFileName.exec(fileName)?.[1];
	return session === undefined ? undefined : `${session}/subagents`;
}

/** Whether a file in a session's sub-agents folder is a sub-agent's transcript (not its `.meta.json`). */
export function isSubagentFile(fileName: string): boolean {
	return subagentFileName.test(fileName);
}

/**
 * When a transcript line was written (its `timestamp`, in ms), or undefined for a line without one (or not JSON):
 * a session's files are read together in this order, so that a sub-agent's steps come between its call and its answer.
 */
export function transcriptLineTime(text: string): number | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}

	if (typeof value !== 'object' || value === null || !('timestamp' in value) || typeof value.timestamp !== 'string') return undefined;
	const time = Date.parse(value.timestamp);
	return Number.isNaN(time) ? undefined : time;
}

/**
 * The folder Claude Code keeps the sessions of a working directory in, under its config folder's `projects/`: the
 * directory's path with every character but a letter or a digit written as `-` (`/home/me/my.app` is
 * `-home-me-my-app`; seen with 2.1.197).
 */
export function projectFolderName(workingDirectory: string): string {
	return workingDirectory.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * The directory a session ran in, as one of its lines names it (a stream's `system/init`, any transcript line: `cwd`
 * beside the session's id), or undefined for a line that does not. Claude Code finds a session by that directory.
 */
export function sessionDirectoryOf(text: string, sessionId: string): string | undefined {
	if (!text.includes('"cwd"')) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}

	if (typeof value !== 'object' || value === null) return undefined;
	const line = value as Record<string, unknown>;
	const id = line['session_id'] ?? line['sessionId'];
	const cwd = line['cwd'];
	return id === sessionId && typeof cwd === 'string' && cwd !== '' ? cwd : undefined;
}
