import {fstatSync} from 'node:fs';
import type {Readable} from 'node:stream';
import {assertNever} from '../model/assert-never.js';
import type {LineSink} from './line-sink.js';
import {runChild, type ChildRun} from './command/child-command.js';
import {readRegularFile} from './follow-file.js';
import {describeFsError} from './fs-errors.js';
import type {Input, InputPlan} from './inputs.js';
import {pumpStream, ungzipped} from './read-stream.js';
import {initialSourceState, type RunningSources, type SourcesHooks, type SourceState} from './source-state.js';
import type {RolloutHeads} from './codex-sessions.js';

/**
 * Reads every input of the plan into the ingest (several merge into one model). Files and job
 * directories are read one after another, in the order given, so their events merge in that order;
 * followed ones then keep going side by side. Stdin and a command are live streams and run from the start.
 * Sources only produce lines: they do not know what the lines mean.
 */
export function runSources(plan: InputPlan, ingest: LineSink, hooks: SourcesHooks = {}): RunningSources {
	const controller = new AbortController();
	const {signal} = controller;
	const states = plan.inputs.map(input => initialSourceState(input));
	const children: ChildRun[] = [];
	const changed = () => hooks.onChange?.();
	const afterChunk = async () => {
		await hooks.afterChunk?.();
		changed();
	};

	const failed = (state: SourceState, input: Input, error: unknown) => {
		state.error = `cannot read ${input.label}: ${describeFsError(error)}`;
		ingest.sourceProblem(input.label, state.error);
	};

	const tasks: Array<Promise<number>> = [];
	// Rollouts' first lines, read once for every followed rollout that looks for its sub-agents (a day's glob).
	const heads: RolloutHeads = new Map();
	let previousCaughtUp = Promise.resolve();
	for (const [index, input] of plan.inputs.entries()) {
		const state = states[index]!;
		const finish = (code: number) => {
			state.live = false;
			state.following = false;
			state.waiting = false;
			changed();
			return code;
		};

		if (input.kind === 'command') {
			const child = runChild({
				command: input.command,
				label: input.label,
				progress: state,
				ingest,
				afterChunk,
				changed,
				onStderr: hooks.onStderr ? text => hooks.onStderr?.(text, state) : undefined,
				idleAfterExitMs: hooks.idleAfterExitMs,
			});
			children.push(child);
			tasks.push(child.done.then(finish));
			continue;
		}

		if (input.kind === 'stdin') {
			tasks.push(
				readStdin(state, ingest, afterChunk, signal, hooks.stdin).then(
					() => finish(0),
					(error: unknown) => {
						failed(state, input, error);
						return finish(1);
					},
				),
			);
			continue;
		}

		let caughtUp: () => void = () => undefined;
		const thisCaughtUp = new Promise<void>(resolve => {
			caughtUp = resolve;
		});
		const read = previousCaughtUp.then(async () => {
			try {
				await readPath(input, state, {ingest, follow: plan.follow, signal, afterChunk, changed, caughtUp, heads});
				return finish(0);
			} catch (error) {
				failed(state, input, error);
				return finish(1);
			} finally {
				caughtUp();
			}
		});
		previousCaughtUp = thisCaughtUp;
		tasks.push(read);
	}

	const done = Promise.all(tasks).then(codes => {
		const childCodes = codes.filter((_code, index) => plan.inputs[index]?.kind === 'command');
		const childFailure = childCodes.find(code => code !== 0);
		if (childFailure !== undefined) return childFailure;
		return codes.some(code => code !== 0) ? 1 : 0;
	});

	return {
		states,
		done,
		interrupt: () => children.map(child => child.interrupt()).some(Boolean),
		childRunning: () => children.some(child => child.running()),
		stop() {
			controller.abort();
			for (const child of children) child.stop();
		},
		signalCommand: signal => children.map(child => child.signal(signal)).some(Boolean),
		abandon() {
			controller.abort();
			for (const child of children) child.abandon();
		},
	};
}

type PathReading = {
	ingest: LineSink;
	follow: boolean;
	heads: RolloutHeads;
	signal: AbortSignal;
	afterChunk: () => Promise<void>;
	changed: () => void;
	caughtUp: () => void;
};

async function readPath(input: Extract<Input, {kind: 'file' | 'job' | 'session'}>, state: SourceState, reading: PathReading): Promise<void> {
	const {ingest, signal} = reading;
	// What the readers of a job directory and of a session are given alike.
	const directoryReading = {
		follow: reading.follow,
		signal,
		progress: state,
		splitterFor: (source: string) => ingest.splitter(source),
		problem: (source: string, reason: string) => ingest.sourceProblem(source, reason),
		afterChunk: reading.afterChunk,
		changed: reading.changed,
		caughtUp: reading.caughtUp,
	};
	// A job directory, a session, a compressed file, a FIFO: their readers are imported only when an input is one, so
	// that a start on plain files (the common case, and most of the test suite's ~330 starts) does not load them.
	if (input.kind === 'session') {
		const {readSession} = await import('./read-session.js');
		const {subagentRolloutsAsTheyStart} = await import('./codex-sessions.js');
		const {geminiSubagentChatsAsTheyStart} = await import('./gemini-chats.js');
		const companionsSince = !reading.follow
			? undefined
			: input.companionsOf === 'gemini'
				? geminiSubagentChatsAsTheyStart(input.path)
				: input.companionsOf === 'codex'
					? subagentRolloutsAsTheyStart(input.path, reading.heads)
					: undefined;
		await readSession({
			...directoryReading,
			path: input.path,
			label: input.label,
			subagents: input.subagents,
			companions: input.companions,
			companionsSince,
		});
		return;
	}

	if (input.kind === 'job') {
		const {readJobDirectory} = await import('./job/job-reader.js');
		await readJobDirectory({...directoryReading, path: input.path});
		return;
	}

	const {form} = input;
	switch (form.kind) {
		case 'gzip': {
			const {readGzipFile} = await import('./read-gzip.js');
			await readGzipFile({
				path: input.path,
				splitter: ingest.splitter(input.label),
				signal,
				progress: bytes => {
					state.bytesRead = bytes;
				},
				afterChunk: reading.afterChunk,
			});
			return;
		}

		case 'fifo':
		case 'special': {
			// A FIFO or device (`<(cmd)`, /dev/stdin): it cannot be re-read or followed, only read to its end.
			const {readFifo} = await import('./fifo.js');
			const splitter = ingest.splitter(input.label);
			await pumpStream(
				await ungzipped(readFifo(input.path, signal, form.kind === 'fifo'), signal),
				splitter,
				async () => {
					state.bytesRead = splitter.position;
					await reading.afterChunk();
				},
				signal,
			);
			return;
		}

		case 'plain':
		// Read from its start to its end, the line splitter giving its events as lines.
		case 'json':
		// A path that does not exist yet (only allowed when following) is a regular file to wait for.
		case 'missing':
			await readRegularFile({
				path: input.path,
				label: input.label,
				follow: reading.follow,
				rewritten: form.kind === 'json' && form.rewritten,
				signal,
				progress: state,
				splitterFor: source => ingest.splitter(source),
				afterChunk: reading.afterChunk,
				changed: reading.changed,
				caughtUp: reading.caughtUp,
			});
			return;
		default:
			assertNever(form);
	}
}

async function readStdin(
	state: SourceState,
	ingest: LineSink,
	afterChunk: () => Promise<void>,
	signal: AbortSignal,
	stdin: Readable | undefined,
): Promise<void> {
	// A stream given in place of the process's stdin is not file descriptor 0: its size is not known.
	state.bytesTotal = stdin === undefined ? redirectedFileSize() : undefined;
	const splitter = ingest.splitter(state.label);
	await pumpStream(
		await ungzipped(stdin ?? process.stdin, signal),
		splitter,
		async () => {
			state.bytesRead = splitter.position;
			await afterChunk();
		},
		signal,
	);
}

/** `perscope < big.ndjson`: stdin is a regular file whose size is known, so progress can be shown. */
function redirectedFileSize(): number | undefined {
	try {
		const info = fstatSync(0);
		return info.isFile() ? info.size : undefined;
	} catch {
		return undefined;
	}
}
