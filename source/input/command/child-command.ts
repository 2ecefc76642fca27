import {spawn, type ChildProcess} from 'node:child_process';
import type {LineSink} from '../line-sink.js';
import {describeSpawnError} from './command-lookup.js';
import {shellExitCode} from './exit-status.js';
import {LineSplitter} from '../../parse/line-splitter.js';
import {pumpStream} from '../read-stream.js';
import {pushStderrLine, type StderrTail} from './stderr-tail.js';

export type ChildProgress = StderrTail & {
	live: boolean;
	bytesRead: number;
	error: string | undefined;
	pid?: number;
	exitCode?: number | null;
	signal?: string | null;
	/** The command has exited, and its output is still open a while later (something it started holds it): still read. */
	outputOpen?: boolean;
};

export type ChildOptions = {
	command: string[];
	label: string;
	progress: ChildProgress;
	ingest: LineSink;
	afterChunk: () => Promise<void>;
	changed: () => void;
	onStderr: ((text: string) => void) | undefined;
	/**
	 * Once the command has exited, how long its output may stay open with nothing coming before it is no longer
	 * read (said as a diagnostic); undefined: read until it closes, however long (the viewer, where a person decides).
	 */
	idleAfterExitMs?: number | undefined;
	/** Where the command runs; this process's working directory when undefined. */
	cwd?: string | undefined;
};

export type ChildRun = {
	/** Resolves with the exit code a shell would report for the child (127 when it could not start). */
	done: Promise<number>;
	running: () => boolean;
	/** Sends SIGINT to the child's process group; false when nothing runs. */
	interrupt: () => boolean;
	/** Sends SIGTERM, then SIGKILL if the child is still there after a grace period. */
	stop: () => void;
	/**
	 * Sends a signal to the child's process group, the child itself gone or not: what it started is in the group
	 * too (as a shell's Ctrl-C reaches every process of a job). False when nothing is left in it.
	 */
	signal: (signal: NodeJS.Signals) => boolean;
	/** Stops reading its output now, whatever still runs or holds it; `done` follows once it has exited. */
	abandon: () => void;
};

/** A kept stderr line is split off at this many bytes; the rest of it is counted, not held. */
const stderrLineBytes = 64 * 1024;
/**
 * Once the child has exited, its pipes may still be held open by something it started (a background job that
 * goes on writing events, or a server that never will). They are read until they close, as a pipe into
 * perscope is; after this long without output it is said that they are still open (`outputOpen`).
 */
const outputOpenNoteMs = 1000;
const killGraceMs = 3000;
const notFound = 127;

/**
 * Runs a command without a shell and reads its stdout as events. Its stderr is kept for the views (and
 * handed to `onStderr`), never written to our stdout. The child leads its own process group: the
 * terminal's Ctrl-C reaches only the viewer, which passes it on, so the child hears it exactly once.
 */
export function runChild(options: ChildOptions): ChildRun {
	const {progress} = options;
	const [file = '', ...args] = options.command;
	let child: ChildProcess;
	try {
		child = spawn(file, args, {stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', cwd: options.cwd});
	} catch (error) {
		// spawn throws at once for arguments it cannot pass at all (a NUL byte, say).
		return failedRun(options, error, file);
	}

	progress.pid = child.pid;
	let exited = false;
	const signalGroup = (signal: NodeJS.Signals): boolean => {
		const pid = child.pid;
		if (pid === undefined) return false;
		try {
			if (process.platform === 'win32') return child.kill(signal);
			process.kill(-pid, signal);
			return true;
		} catch {
			return false;
		}
	};

	// If the viewer ends first (an exception, process.exit), the command must not outlive it unnoticed.
	const onViewerExit = () => {
		if (!exited) signalGroup('SIGTERM');
	};

	process.on('exit', onViewerExit);

	const exit = new Promise<{code: number | null; signal: NodeJS.Signals | null} | {error: unknown}>(resolve => {
		child.once('exit', (code, signal) => resolve({code, signal}));
		// An error with a pid is a failed kill or similar, not a failed start; the exit still comes.
		child.on('error', error => {
			if (child.pid === undefined) resolve({error});
		});
	});

	let lastActivity = Date.now();
	let busy = false;
	const pipes = new AbortController();
	const stdoutSplitter = options.ingest.splitter(options.label);
	const stdoutDone = child.stdout
		? pumpStream(
				child.stdout,
				stdoutSplitter,
				async () => {
					busy = true;
					progress.bytesRead = stdoutSplitter.position;
					await options.afterChunk();
					busy = false;
					lastActivity = Date.now();
				},
				pipes.signal,
			).catch((error: unknown) => {
				progress.error = `cannot read the output of ${options.label}: ${error instanceof Error ? error.message : String(error)}`;
				options.ingest.sourceProblem(options.label, progress.error);
			})
		: Promise.resolve();

	const record = (text: string) => {
		const kept = pushStderrLine(progress, text);
		options.onStderr?.(kept);
		options.changed();
	};

	const stderrSplitter = new LineSplitter(
		`${options.label} (stderr)`,
		{line: line => record(line.text), overlong: line => record(`[${line.bytes} bytes of one stderr line skipped]`)},
		stderrLineBytes,
		{jsonDocuments: false},
	);
	const stderrDone = new Promise<void>(resolve => {
		const stderr = child.stderr;
		if (!stderr) {
			resolve();
			return;
		}

		stderr.on('data', (chunk: Buffer) => {
			lastActivity = Date.now();
			stderrSplitter.push(chunk);
		});
		stderr.on('error', () => undefined);
		stderr.once('close', () => {
			stderrSplitter.end();
			resolve();
		});
		pipes.signal.addEventListener('abort', () => stderr.destroy(), {once: true});
	});

	// Asked to stop (Ctrl-C passed on, a stop): once it has exited, what still holds its pipes is not waited for.
	let stopping = false;
	const done = (async () => {
		const ended = await exit;
		exited = true;
		process.off('exit', onViewerExit);
		if ('error' in ended) {
			pipes.abort();
			await Promise.all([stdoutDone, stderrDone]);
			reportFailedStart(options, ended.error, file);
			return notFound;
		}

		progress.exitCode = ended.code;
		progress.signal = ended.signal;
		options.changed();
		if (stopping) pipes.abort();
		lastActivity = Date.now();
		let idleLimitReached = false;
		const watch = setInterval(() => {
			if (busy) return;
			const idle = Date.now() - lastActivity;
			if (idle > outputOpenNoteMs && !progress.outputOpen) {
				progress.outputOpen = true;
				options.changed();
			}

			if (options.idleAfterExitMs !== undefined && idle > options.idleAfterExitMs && !idleLimitReached) {
				idleLimitReached = true;
				options.ingest.sourceProblem(
					options.label,
					`${options.label} exited, and its output stayed open with nothing more for ${Math.round(options.idleAfterExitMs / 1000)} s (something it started holds it): not read further`,
				);
				pipes.abort();
			}
		}, 100);
		try {
			await Promise.all([stdoutDone, stderrDone]);
		} finally {
			clearInterval(watch);
		}

		progress.outputOpen = false;
		progress.live = false;
		options.changed();
		return shellExitCode(ended.code, ended.signal);
	})();

	return {
		done,
		running: () => !exited,
		interrupt: () => {
			if (exited) return false;
			stopping = true;
			return signalGroup('SIGINT');
		},
		stop() {
			stopping = true;
			// Asked again after the exit: whatever still holds the pipes is not waited for any longer.
			if (exited) {
				pipes.abort();
				return;
			}

			signalGroup('SIGTERM');
			setTimeout(() => {
				if (!exited) signalGroup('SIGKILL');
			}, killGraceMs).unref();
		},
		signal: signal => signalGroup(signal),
		abandon() {
			stopping = true;
			pipes.abort();
		},
	};
}

function failedRun(options: ChildOptions, error: unknown, file: string): ChildRun {
	reportFailedStart(options, error, file);
	return {done: Promise.resolve(notFound), running: () => false, interrupt: () => false, stop: () => undefined, signal: () => false, abandon: () => undefined};
}

function reportFailedStart(options: ChildOptions, error: unknown, file: string): void {
	options.progress.error = `cannot run ${file}: ${describeSpawnError(error, file)}`;
	options.progress.live = false;
	options.ingest.sourceProblem(options.label, options.progress.error);
	options.changed();
}
