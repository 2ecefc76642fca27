import {accessSync, constants, statSync, type Stats} from 'node:fs';
import {basename, dirname, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {isSubagentFile} from '../parse/dialects/claude-code/session-files.js';
import {whyNotRunnable} from './command/command-lookup.js';
import {describeFsError, isMissing} from './fs-errors.js';
import {fileHead} from './file-head.js';
import {isJobDirectory, isJobsRoot, isRunDirectory} from './job/job-directory.js';
import {projectFoldersIn, sessionFilesIn, subagentsOf} from './claude-sessions.js';
import {rolloutFilesUnder, rolloutThread, subagentFoldersOf, subagentRolloutsOf, type RolloutHeads} from './codex-sessions.js';
import {geminiChatsIn, geminiSubagentChatsOf, geminiSubagentFolderOf} from './gemini-chats.js';
import {isDirectory} from './regular-file.js';

/**
 * What a path given as a file is, looked at once, as the plan is made: every reader and loader takes it from
 * here rather than looking at the path again. What is there may change before it is read; the readers that
 * open a file look at what they opened (regular-file.ts, parallel/parallel-file.ts) and fail as a file that
 * vanished does.
 */
export type FileForm =
	/** A regular file, not compressed: it can be read in chunks, and read again by offset. */
	| {kind: 'plain'; size: number}
	/** A regular file that begins with gzip's two magic bytes, whatever its name: read through gunzip. `size` is compressed. */
	| {kind: 'gzip'; size: number}
	/**
	 * A regular file that begins as a JSON document of events rather than lines (an array, claude-code-action's
	 * execution file; a pretty-printed object, Gemini CLI's `--output-format json`): read from its start to its end,
	 * each event a line (parse/json-document-lines.ts); its lines are not read again by offset. `rewritten`: a
	 * document its writer writes again whole as it grows (a chat Gemini CLI kept before 0.40): followed, it is read
	 * again whole each time it changes, never as lines appended.
	 */
	| {kind: 'json'; size: number; rewritten: boolean}
	/** A FIFO (`<(cmd)`, a named pipe): read to its end, once; opening it waits for a writer (fifo.ts). */
	| {kind: 'fifo'}
	/**
	 * A character or block device, or a socket (/dev/stdin), or a regular file of size 0 that is not empty (/proc's
	 * files): read to its end, once.
	 */
	| {kind: 'special'}
	/** Nothing there yet, which only following allows: waited for, then read as a regular file. */
	| {kind: 'missing'};

export type Input =
	| {kind: 'file'; path: string; label: string; form: FileForm}
	| {kind: 'stdin'; label: string}
	/** A command to run; its stdout is the event stream. */
	| {kind: 'command'; command: string[]; label: string}
	/** A persisted Perstack job (`jobs/<jobId>`) or one run of it (`jobs/<jobId>/runs/<runId>`). */
	| {kind: 'job'; path: string; label: string}
	/**
	 * A Claude Code session's transcript with the folder its sub-agents' transcripts are in (there, or not yet when
	 * following), read together in the order their lines were written (read-session.ts). `size` is the transcript's.
	 */
	/**
	 * A session's file read with its sub-agents', in the order their lines were written: a Claude Code transcript
	 * with its `subagents` folder, a Codex rollout with its sub-agents' rollouts (`companions`).
	 */
	| {
			kind: 'session';
			path: string;
			label: string;
			subagents: string | undefined;
			companions?: readonly string[] | undefined;
			/**
			 * A session followed: where the files of sub-agents it starts later are written (a Codex rollout's folder and the
			 * next day's; a Gemini CLI chat's `chats/<session id>/`), looked at again as it is read.
			 */
			companionFolders?: readonly string[] | undefined;
			/** Followed: whose sub-agents' files are looked for as it is read (a Codex rollout's, a Gemini CLI chat's). */
			companionsOf?: 'codex' | 'gemini' | undefined;
			size: number | undefined;
	  };

export type InputPlan = {
	inputs: Input[];
	/** What the header calls the source: a file name, `stdin`, `demo`, or the command line. */
	label: string;
	demo: boolean;
	/** Keep reading files (and job directories) as they grow, like `tail -F`. */
	follow: boolean;
	/**
	 * Set when the one path given is a directory of jobs (`perstack` or `perstack/jobs`), or a folder of Claude Code
	 * sessions (`~/.claude/projects/<folder>`): there is nothing to read yet; the jobs are listed (see `listJobs`) for
	 * the user to pick one.
	 */
	jobsRoot: string | undefined;
	/** Of a folder of Codex sessions, only those that ran in this directory are listed (`--codex`). */
	jobsWhere?: string | undefined;
};

/** A problem with what the user asked for, with the exit code it should end the viewer with. */
export class InputError extends Error {
	readonly exitCode: number;

	constructor(message: string, exitCode: number) {
		super(message);
		this.name = 'InputError';
		this.exitCode = exitCode;
	}
}

/** A shell's code for a command that cannot be run. */
export const commandNotFoundExitCode = 127;

export const demoLogPath = fileURLToPath(new URL('../../fixtures/demo.ndjson', import.meta.url));

export type InputContext = {
	stdinIsTTY: boolean;
	follow?: boolean;
	/**
	 * Everything after `--` on the command line, and the PATH its name is looked up in (the CLI reads the
	 * environment; this layer is given what it needs).
	 */
	command?: {argv: string[]; searchPath: string} | undefined;
};

/**
 * Decides where events come from, and checks up front that every file can be read and the command can be
 * run, so a typo gives one clear message and an exit code instead of a half-drawn screen.
 */
export function resolveInputs(paths: string[], context: InputContext): InputPlan {
	const follow = context.follow ?? false;
	const inputs: Input[] = [];
	// Rollouts' first lines, read once however many rollouts of one folder are given (a day's glob).
	const heads: RolloutHeads = new Map();
	for (const path of paths) {
		if (path === '-') {
			inputs.push({kind: 'stdin', label: 'stdin'});
			continue;
		}

		const looked = lookAt(path, follow);
		if (looked === 'jobs') {
			if (paths.length > 1 || context.command) throw new InputError(`${path} is a directory of jobs: give it on its own to list them, or name one job`, 2);
			return {inputs: [], label: path, demo: false, follow, jobsRoot: path};
		}

		inputs.push(
			looked === 'job' ? {kind: 'job', path, label: path} : (sessionInput(path, looked, follow, heads) ?? {kind: 'file', path, label: path, form: looked}),
		);
	}

	dropSessionsSubagents(inputs);
	if (context.command) inputs.push(commandInput(context.command));
	if (inputs.length === 0) {
		if (!context.stdinIsTTY) return plan([{kind: 'stdin', label: 'stdin'}], follow);
		return {inputs: [fileInput(demoLogPath, 'demo')], label: 'demo', demo: true, follow: false, jobsRoot: undefined};
	}

	return plan(inputs, follow);
}

function plan(inputs: Input[], follow: boolean): InputPlan {
	return {inputs, label: inputs.map(input => input.label).join(', '), demo: false, follow, jobsRoot: undefined};
}

function commandInput({argv: command, searchPath}: {argv: string[]; searchPath: string}): Input {
	const [name] = command;
	if (name === undefined || name === '') throw new InputError('no command after --', 2);
	const problem = whyNotRunnable(name, searchPath);
	if (problem !== undefined) throw new InputError(`cannot run ${name}: ${problem}`, commandNotFoundExitCode);
	return {kind: 'command', command, label: command.join(' ')};
}

/**
 * A Claude Code session's transcript (`<session id>.jsonl`) read with its sub-agents' files: when the folder they are
 * written to is there, or may come (following). Any other file, or one not plain, is read as it is.
 */
function sessionInput(path: string, form: FileForm, follow: boolean, heads?: RolloutHeads): Input | undefined {
	if (form.kind !== 'plain' && form.kind !== 'missing') return undefined;
	// A Gemini CLI session's chat with its sub-agents' chats beside it (`chats/<session id>/`): read with them, in the
	// order their lines were written; followed, with those of sub-agents it starts later.
	if (form.kind === 'plain') {
		const chats = geminiSubagentChatsOf(path);
		if (chats !== undefined) return chats.length === 0 && !follow ? undefined : companionSession(path, form.size, chats, follow, 'gemini');
	}

	const subagents = subagentsOf(path);
	if (subagents === undefined) {
		// A Codex rollout whose sub-agents' rollouts are beside it: read with them, in the order their lines were written;
		// followed, with those of sub-agents it starts later.
		if (form.kind !== 'plain' || rolloutThread(basename(path)) === undefined) return undefined;
		const companions = subagentRolloutsOf(path, heads);
		if (companions.length === 0 && !follow) return undefined;
		return companionSession(path, form.size, companions, follow, 'codex');
	}

	if (!follow && !isDirectory(subagents)) return undefined;
	return {kind: 'session', path, label: path, subagents, size: form.kind === 'plain' ? form.size : undefined};
}

/**
 * Leaves out the files given beside a session that are its sub-agents' (`<session>.jsonl <session>/subagents/*.jsonl`,
 * as a shell's glob gives them): the session reads them already, in their place in time.
 */
function dropSessionsSubagents(inputs: Input[]): void {
	const folders = new Set(inputs.flatMap(input => (input.kind === 'session' && input.subagents !== undefined ? [resolve(input.subagents)] : [])));
	const companions = new Set(inputs.flatMap(input => (input.kind === 'session' ? (input.companions ?? []).map(file => resolve(file)) : [])));
	if (folders.size === 0 && companions.size === 0) return;
	const theirs = (input: Input) =>
		input.kind === 'file' && ((isSubagentFile(basename(input.path)) && folders.has(resolve(dirname(input.path)))) || companions.has(resolve(input.path)));
	for (let index = inputs.length - 1; index >= 0; index--) if (theirs(inputs[index]!)) inputs.splice(index, 1);
}

/** What one job or session of a listing (the chooser's, a summary's) is read as: a job directory, or a session. */
export function listedInput(path: string, follow: boolean): Input {
	const looked = lookAt(path, false);
	if (looked === 'job') return {kind: 'job', path, label: path};
	if (looked === 'jobs') throw new InputError(`cannot read ${path}: it is a directory of jobs`, 1);
	return sessionInput(path, looked, follow) ?? {kind: 'file', path, label: path, form: looked};
}

/**
 * The inputs of a job chosen from a list: its path, and the files read with it (a Codex session's sub-agents'
 * rollouts), together in the order their lines were written when it is a plain file.
 */
export function listedInputs(path: string, companions: readonly string[], follow: boolean): Input[] {
	if (companions.length === 0) return [listedInput(path, follow)];
	const looked = lookAt(path, false);
	if (typeof looked === 'string' || looked.kind !== 'plain') return [listedInput(path, follow), ...companions.map(file => listedInput(file, follow))];
	return [companionSession(path, looked.size, companions, follow, geminiSubagentFolderOf(path) === undefined ? 'codex' : 'gemini')];
}

/**
 * A session's file read with its sub-agents' files named one by one (a Codex rollout's rollouts, a Gemini CLI chat's
 * chats); followed, with those of sub-agents it starts later too, looked for where they are written.
 */
function companionSession(path: string, size: number, companions: readonly string[], follow: boolean, of: 'codex' | 'gemini'): Input {
	const session = {kind: 'session' as const, path, label: path, subagents: undefined, companions, size};
	if (!follow) return session;
	const folder = of === 'gemini' ? geminiSubagentFolderOf(path) : undefined;
	const companionFolders = of === 'codex' ? subagentFoldersOf(path) : folder === undefined ? [] : [folder];
	return {...session, companionFolders, companionsOf: of};
}

/** A file input, its form looked at now (a file that is not there, or a directory, is an InputError). */
export function fileInput(path: string, label = path): Extract<Input, {kind: 'file'}> {
	const looked = lookAt(path, false);
	if (typeof looked === 'string') throw new InputError(`cannot read ${path}: it is a directory`, 1);
	return {kind: 'file', path, label, form: looked};
}

/**
 * What a path names: a file to read, of which form (also one that does not exist yet, when following), a job to
 * read, or a directory of jobs to list. The one place a path given is looked at.
 */
function lookAt(path: string, follow: boolean): FileForm | 'job' | 'jobs' {
	let stats: Stats;
	try {
		stats = statSync(path);
		accessSync(path, constants.R_OK);
	} catch (error) {
		if (follow && isMissing(error)) return {kind: 'missing'};
		throw new InputError(`cannot read ${path}: ${describeFsError(error)}`, 1);
	}

	if (stats.isDirectory()) {
		if (isJobDirectory(path) || isRunDirectory(path)) return 'job';
		if (isJobsRoot(path)) return 'jobs';
		// A Claude Code project's folder of sessions is listed as a directory of jobs is, and so are all projects' together.
		if (sessionFilesIn(path).length > 0 || projectFoldersIn(path).length > 0) return 'jobs';
		// And Codex's folder of sessions (`~/.codex/sessions`, a year's, a month's or a day's folder of it).
		if (rolloutFilesUnder(path).length > 0) return 'jobs';
		// And Gemini CLI's chats (`~/.gemini`, its `tmp`, a project's folder or its `chats`).
		if (geminiChatsIn(path).length > 0) return 'jobs';
		throw new InputError(
			`cannot read ${path}: it is a directory, but not a Perstack job, a directory of jobs or a folder of Claude Code, Codex or Gemini CLI sessions`,
			1,
		);
	}

	if (stats.isFIFO()) return {kind: 'fifo'};
	if (!stats.isFile()) return {kind: 'special'};
	const head = fileHead(path);
	// A file that says it is empty may hold lines all the same (/proc's, /sys's): read to its end, as a device is.
	if (stats.size === 0 && !head.empty) return {kind: 'special'};
	if (head.kind === 'json') return {kind: 'json', size: stats.size, rewritten: head.chat};
	return {kind: head.kind === 'lines' ? 'plain' : head.kind, size: stats.size};
}
