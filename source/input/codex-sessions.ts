import {dirname, join} from 'node:path';
import {jsonObject} from '../parse/dialects/json-values.js';
import {atMostEvery} from './looked-for.js';
import {firstLineSync, isDirectory, isFile, namesIn} from './regular-file.js';

/*
 * The folder Codex keeps its sessions in (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`, or any folder
 * of it: a year's, a day's): each session a rollout, a sub-agent's a rollout of its own whose first line names its
 * parent's thread. Listed like a directory of Perstack jobs, to choose one from: the sessions people started, each
 * with its sub-agents' rollouts.
 */

/** A rollout's name: `rollout-2026-11-29T19-21-04-<thread id>.jsonl`. */
const rolloutName = /^rollout-[0-9T-]+-([0-9a-f-]{36})\.jsonl$/;

/** The thread of a rollout named as Codex names them (`rollout-<time>-<thread>.jsonl`); undefined for another name. */
export function rolloutThread(name: string): string | undefined {
	return rolloutName.exec(name)?.[1];
}

/** How deep under a folder rollouts are looked for: `sessions/` holds years, then months, then days. */
const maxDepth = 3;

/** The rollouts under `folder` (it, and up to three levels of folders in it), by path. */
export function rolloutFilesUnder(folder: string, depth = 0): string[] {
	const found: string[] = [];
	for (const name of namesIn(folder)) {
		const path = join(folder, name);
		if (rolloutThread(name) !== undefined) {
			if (isFile(path)) found.push(path);
		} else if (depth < maxDepth && /^\d+$/.test(name) && isDirectory(path)) found.push(...rolloutFilesUnder(path, depth + 1));
	}

	return found;
}

/** What a rollout's first line (`session_meta`) says: its thread, the parent's for a sub-agent's, where it ran. */
export type RolloutHead = {thread: string; parentThread: string | undefined; cwd: string | undefined};

/** How far into a rollout its first line is looked for: it holds the model's instructions, tens of kilobytes. */
const headBytes = 1024 * 1024;

/** A rollout's first line, read (only a regular file, no further than a megabyte); undefined when it is no session's start. */
export function rolloutHead(path: string): RolloutHead | undefined {
	const line = firstLineSync(path, headBytes);
	const value = line === undefined ? undefined : jsonObject(line);
	if (value === undefined) return undefined;
	const payload = value['type'] === 'session_meta' ? value['payload'] : undefined;
	if (typeof payload !== 'object' || payload === null) return undefined;
	const text = (key: string): string | undefined => {
		const found: unknown = Reflect.get(payload, key);
		return typeof found === 'string' ? found : undefined;
	};

	const thread = text('id');
	return thread === undefined ? undefined : {thread, parentThread: text('parent_thread_id'), cwd: text('cwd')};
}

/**
 * The sessions under a folder of rollouts: each session's rollout (not a sub-agent's) with the rollouts of its
 * sub-agents, at any depth, oldest first; `where` keeps only those that ran in that directory.
 */
export function codexSessionsIn(folder: string, where?: string, heads: RolloutHeads = new Map()): Array<{path: string; subagents: string[]}> {
	return sessionsOf(headsOf(rolloutFilesUnder(folder), heads), where);
}

function headsOf(paths: readonly string[], heads: RolloutHeads): Array<{path: string; head: RolloutHead}> {
	return paths.flatMap(path => {
		const head = heads.get(path) ?? rolloutHead(path);
		if (head) heads.set(path, head);
		return head ? [{path, head}] : [];
	});
}

/**
 * Rollouts' first lines by path, read once: a rollout's first line never changes, and a listing that is followed, or
 * several rollouts of one folder given at once, would read each again for each look.
 */
export type RolloutHeads = Map<string, RolloutHead>;

function sessionsOf(heads: Array<{path: string; head: RolloutHead}>, where: string | undefined): Array<{path: string; subagents: string[]}> {
	const children = new Map<string, string[]>();
	for (const {path, head} of heads) if (head.parentThread !== undefined) children.set(head.parentThread, [...(children.get(head.parentThread) ?? []), path]);
	const threadOf = new Map(heads.map(({path, head}) => [path, head.thread]));
	// Each sub-agent once, whatever the lines claim (a thread named as its own ancestor).
	const descendants = (thread: string, seen = new Set<string>()): string[] =>
		(children.get(thread) ?? []).flatMap(path => {
			if (seen.has(path)) return [];
			seen.add(path);
			return [path, ...descendants(threadOf.get(path) ?? '', seen)];
		});
	return heads
		.filter(({head}) => head.parentThread === undefined && (where === undefined || head.cwd === where))
		.map(({path, head}) => ({path, subagents: descendants(head.thread)}));
}

/**
 * The rollouts of a session's sub-agents, at any depth, among the rollouts of the session's folder and the next
 * day's (Codex writes a sub-agent's in the folder of the day it starts: a session that runs past midnight has some
 * there): none for a rollout that is a sub-agent's or has none.
 */
export function subagentRolloutsOf(path: string, heads: RolloutHeads = new Map()): string[] {
	const sessions = sessionsOf(
		headsOf(
			subagentFoldersOf(path).flatMap(folder => rolloutFilesUnder(folder, maxDepth)),
			heads,
		),
		undefined,
	);
	return sessions.find(session => session.path === path)?.subagents ?? [];
}

/** Where the rollouts of a session's sub-agents are written: its folder and the next day's. */
export function subagentFoldersOf(path: string): string[] {
	return [dirname(path), nextDayFolder(dirname(path))].filter(folder => folder !== undefined);
}

/**
 * A followed session's sub-agents' rollouts as they start (subagentRolloutsOf), looked for at most every `everyMs`:
 * the folders hold every session of the day, and a rollout's first line is read once (`heads`, shared by the rollouts
 * followed together).
 */
export function subagentRolloutsAsTheyStart(path: string, heads: RolloutHeads = new Map(), everyMs = 1000): () => readonly string[] {
	return atMostEvery(everyMs, () => subagentRolloutsOf(path, heads));
}

/** `…/2026/11/29` → `…/2026/11/30` (month and year ends too); undefined for a folder not named as Codex's days are. */
export function nextDayFolder(folder: string): string | undefined {
	const match = /^(.*)[/\\](\d{4})[/\\](\d{2})[/\\](\d{2})$/.exec(folder);
	if (!match) return undefined;
	const [, root, year, month, day] = match;
	const next = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day) + 1));
	const two = (value: number) => String(value).padStart(2, '0');
	return join(root!, String(next.getUTCFullYear()), two(next.getUTCMonth() + 1), two(next.getUTCDate()));
}
