import {createReadStream, statSync} from 'node:fs';
import type {Readable} from 'node:stream';
import type {Ingest} from '../ingest.js';
import {describeFsError, type Input, type InputPlan} from './inputs.js';
import {pumpStream} from './read-stream.js';

/** What a view needs to know about one source while it is being read. */
export type SourceState = {
	label: string;
	kind: Input['kind'];
	/** Still reading (or following, or the child still runs). */
	live: boolean;
	bytesRead: number;
	/** Known for regular files; undefined for pipes. */
	bytesTotal: number | undefined;
	/** Set when the source failed; the message is for the user. */
	error: string | undefined;
	/** For a child command: its pid while it runs, and how it ended. */
	pid?: number;
	command?: string[];
	exitCode?: number | null;
	signal?: string | null;
};

export type SourcesHooks = {
	/** Runs after each chunk is reduced; awaiting it applies backpressure to the input. */
	afterChunk?: () => void | Promise<void>;
};

export type RunningSources = {
	states: SourceState[];
	/** Resolves with the exit code the viewer should end with once every source has ended. */
	done: Promise<number>;
};

/**
 * Reads every input of the plan into the ingest, one after another (several files merge into one model).
 * Sources only produce lines: they do not know what the lines mean.
 */
export function runSources(plan: InputPlan, ingest: Ingest, hooks: SourcesHooks = {}): RunningSources {
	const states: SourceState[] = plan.inputs.map(input => ({
		label: input.label,
		kind: input.kind,
		live: true,
		bytesRead: 0,
		bytesTotal: input.kind === 'file' ? fileSize(input.path) : undefined,
		error: undefined,
	}));

	const done = (async () => {
		let exitCode = 0;
		for (const [index, input] of plan.inputs.entries()) {
			const state = states[index]!;
			const splitter = ingest.splitter(input.label);
			try {
				await pumpStream(open(input), splitter, async () => {
					state.bytesRead = splitter.position;
					await hooks.afterChunk?.();
				});
			} catch (error) {
				state.error = `cannot read ${input.label}: ${describeFsError(error)}`;
				ingest.sourceProblem(input.label, state.error);
				exitCode = 1;
			}

			state.live = false;
		}

		return exitCode;
	})();

	return {states, done};
}

function open(input: Input): Readable {
	if (input.kind === 'stdin') return process.stdin;
	return createReadStream(input.path, {highWaterMark: 1024 * 1024});
}

function fileSize(path: string): number | undefined {
	try {
		return statSync(path).size;
	} catch {
		return undefined;
	}
}
