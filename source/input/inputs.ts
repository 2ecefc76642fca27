import {accessSync, constants, statSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {whyNotRunnable} from './command-lookup.js';
import {describeFsError, isMissing} from './fs-errors.js';
import {isJobDirectory, isJobsRoot, isRunDirectory} from './job-directory.js';

export type Input =
	| {kind: 'file'; path: string; label: string}
	| {kind: 'stdin'; label: string}
	/** A command to run; its stdout is the event stream. */
	| {kind: 'command'; command: string[]; label: string}
	/** A persisted Perstack job (`jobs/<jobId>`) or one run of it (`jobs/<jobId>/runs/<runId>`). */
	| {kind: 'job'; path: string; label: string};

export type InputPlan = {
	inputs: Input[];
	/** What the header calls the source: a file name, `stdin`, `demo`, or the command line. */
	label: string;
	demo: boolean;
	/** Keep reading files (and job directories) as they grow, like `tail -F`. */
	follow: boolean;
	/**
	 * Set when the one path given is a directory of jobs (`perstack` or `perstack/jobs`): there is nothing
	 * to read yet; the jobs are listed (see `listJobs`) for the user to pick one.
	 */
	jobsRoot: string | undefined;
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
	for (const path of paths) {
		if (path === '-') {
			inputs.push({kind: 'stdin', label: 'stdin'});
			continue;
		}

		const directory = directoryKind(path, follow);
		if (directory === 'jobs') {
			if (paths.length > 1 || context.command) throw new InputError(`${path} is a directory of jobs: give it on its own to list them, or name one job`, 2);
			return {inputs: [], label: path, demo: false, follow, jobsRoot: path};
		}

		inputs.push(directory === 'job' ? {kind: 'job', path, label: path} : {kind: 'file', path, label: path});
	}

	if (context.command) inputs.push(commandInput(context.command));
	if (inputs.length === 0) {
		if (!context.stdinIsTTY) return plan([{kind: 'stdin', label: 'stdin'}], follow);
		return {inputs: [{kind: 'file', path: demoLogPath, label: 'demo'}], label: 'demo', demo: true, follow: false, jobsRoot: undefined};
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
 * What a path names: a file to read (also one that does not exist yet, when following), a job to read,
 * or a directory of jobs to list.
 */
function directoryKind(path: string, follow: boolean): 'file' | 'job' | 'jobs' {
	let isDirectory: boolean;
	try {
		isDirectory = statSync(path).isDirectory();
		accessSync(path, constants.R_OK);
	} catch (error) {
		if (follow && isMissing(error)) return 'file';
		throw new InputError(`cannot read ${path}: ${describeFsError(error)}`, 1);
	}

	if (!isDirectory) return 'file';
	if (isJobDirectory(path) || isRunDirectory(path)) return 'job';
	if (isJobsRoot(path)) return 'jobs';
	throw new InputError(`cannot read ${path}: it is a directory, but not a Perstack job or a directory of jobs`, 1);
}
