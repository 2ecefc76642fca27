import type {Readable} from 'node:stream';
import {assertNever} from '../model/assert-never.js';
import type {FileForm, Input} from './inputs.js';

/*
 * What the views know of the sources being read, apart from the reading itself (run-sources.ts): the views
 * load this, and must not load the loaders with it.
 */

/** What a view needs to know about one source while it is being read. Updated in place. */
export type SourceState = {
	label: string;
	/** A session is its transcript's file to the views (read-session.ts reads its sub-agents' with it). */
	kind: Exclude<Input['kind'], 'session'>;
	/** Still reading (or following, or the child still runs). */
	live: boolean;
	/** Caught up with a file or job directory and waiting for more to be appended. */
	following: boolean;
	/** Following a path that does not exist (yet). */
	waiting: boolean;
	/** For a .gz file, compressed bytes; for a job directory, bytes of its event files. */
	bytesRead: number;
	/** Known for regular files and job directories; undefined for pipes. A followed file's total grows. */
	bytesTotal: number | undefined;
	/** Set when the source failed; the message is for the user. */
	error: string | undefined;
	/** For a child command: its pid, and how it ended (exitCode null when a signal ended it). */
	pid?: number;
	command?: string[];
	exitCode?: number | null;
	signal?: string | null;
	/** A child that has exited, whose output is still open (something it started holds it, and may still write): still read. */
	outputOpen?: boolean;
	/** A child's latest stderr lines (at most `maxStderrLines`, each cut at `maxStderrLineLength`). */
	stderr: string[];
	/** Every stderr line the child wrote, including those no longer kept. */
	stderrCount: number;
};

export type SourcesHooks = {
	/** Runs after each chunk is reduced; awaiting it applies backpressure to the input. */
	afterChunk?: () => void | Promise<void>;
	/** Something in the states changed (a stderr line, an exit, progress, following began), so a view can redraw. */
	onChange?: () => void;
	/** A child wrote a line to stderr (already cut to length, not yet sanitised). */
	onStderr?: (text: string, state: SourceState) => void;
	/**
	 * Once a command has exited, how long its output may stay open with nothing coming before it is no longer read
	 * (a diagnostic says so). Undefined: until it closes (child-command.ts).
	 */
	idleAfterExitMs?: number;
	/**
	 * Where a stdin input (`-`, a pipe) is read from: the process's stdin when not given. The golden tests run the
	 * CLI in process and give it a stream of their own.
	 */
	stdin?: Readable | undefined;
};

export type RunningSources = {
	states: SourceState[];
	/**
	 * Resolves with the exit code the viewer should end with once every source has ended: the child's
	 * (128 + signal number when a signal killed it, 127 when it could not start), else 1 when a source
	 * failed, else 0. Following ends only through `stop()`.
	 */
	done: Promise<number>;
	/** Sends SIGINT to a running child; false when no child runs. */
	interrupt: () => boolean;
	childRunning: () => boolean;
	/** Ends everything: following, watching, reading stdin; a running child gets SIGTERM (SIGKILL after a grace period). */
	stop: () => void;
	/**
	 * Sends a signal to a command's process group, the command itself gone or not (what it started is in the group
	 * too); false when there is no command or nothing is left of it.
	 */
	signalCommand: (signal: NodeJS.Signals) => boolean;
	/** Ends all reading now, a command's output included, without signalling or waiting for anything. */
	abandon: () => void;
};

/**
 * Whether a source is a file (or redirected stdin) being read up to its known size. Read to that size it still
 * loads until it ends: what was read may still be going into the model (a viewer's load in a worker posts it in
 * pieces), and the views say `live` or `ended` only of a model that holds it.
 */
export function isLoading(source: SourceState): boolean {
	return source.live && !source.following && !source.waiting && source.bytesTotal !== undefined && source.bytesTotal > 0;
}

/** The state of an input before anything is read (also handy for views' tests). */
export function initialSourceState(input: Input): SourceState {
	return {
		label: input.label,
		kind: input.kind === 'session' ? 'file' : input.kind,
		live: true,
		following: false,
		waiting: false,
		bytesRead: 0,
		bytesTotal: input.kind === 'file' ? sizeOf(input.form) : input.kind === 'session' ? input.size : undefined,
		error: undefined,
		...(input.kind === 'command' ? {command: input.command} : {}),
		stderr: [],
		stderrCount: 0,
	};
}

/** A regular file's size, as the plan saw it (a compressed one's too: the bytes read are compressed as well). */
function sizeOf(form: FileForm): number | undefined {
	switch (form.kind) {
		case 'plain':
		case 'gzip':
		case 'json':
			return form.size;
		case 'fifo':
		case 'special':
		case 'missing':
			return undefined;
		default:
			return assertNever(form);
	}
}

/** What the model is told when every source has ended: how a command exited, and the last thing it said on stderr. */
export function inputEndOf(states: readonly SourceState[]): {exitCode: number | undefined; lastStderr: string | undefined} {
	const command = states.find(state => state.kind === 'command');
	if (!command) return {exitCode: undefined, lastStderr: undefined};
	const code = command.exitCode ?? undefined;
	const lastStderr = command.stderr.findLast(line => line.trim() !== '');
	return {exitCode: code === undefined && command.signal ? undefined : code, lastStderr};
}
