import type {LineSink} from '../line-sink.js';
import {initialSourceState, type SourcesHooks, type SourceState} from '../source-state.js';
import {runChild, type ChildRun} from './child-command.js';

/** A command to run beside a load already under way, its events joining the same model (the cockpit's continuations). */
export type CommandRequest = {
	command: string[];
	/** What the views call it: unique among the load's sources (a suffix is added when it is not). */
	label: string;
	/** Where it runs: the job's workspace, where the runtime finds its checkpoints. */
	cwd?: string | undefined;
	/** Started once this settles (the log read again first, on a load that was a worker's); at once when undefined. */
	startAfter?: Promise<unknown> | undefined;
	/**
	 * The job it carries on, when another source of the load reads its events too: a followed job directory, where
	 * the runtime writes each run event it prints. The repeats of that job's events are then let go without a word
	 * (each would be a diagnostic). Its output is still read: live text is printed only.
	 */
	repeatsOfJob?: string | undefined;
};

/** A command started with `CommandRequest`: its state (in the load's list of sources) and its exit code once it is done. */
export type AddedCommand = {state: SourceState; done: Promise<number>};

/**
 * The commands started into a load after it began: each is read as `-- COMMAND` is (child-command.ts), into the
 * load's line sink, with its state appended to the load's sources, which the views hold.
 */
export class AddedCommands {
	readonly #children: ChildRun[] = [];
	readonly #sink: LineSink;
	readonly #states: SourceState[];
	readonly #hooks: SourcesHooks;
	#ended = false;

	constructor(sink: LineSink, states: SourceState[], hooks: SourcesHooks) {
		this.#sink = sink;
		this.#states = states;
		this.#hooks = hooks;
	}

	add(request: CommandRequest): AddedCommand {
		const label = this.#uniqueLabel(request.label);
		const state = initialSourceState({kind: 'command', command: request.command, label});
		this.#states.push(state);
		const changed = () => this.#hooks.onChange?.();
		changed();
		// Not started once the load has ended meanwhile (the viewer quit while the log was read again).
		const started = (request.startAfter ?? Promise.resolve()).then(() => (this.#ended ? undefined : this.#start(request, label, state)));
		const done = started.then(async child => {
			const code = child ? await child.done : 0;
			state.live = false;
			changed();
			return code;
		});
		return {state, done};
	}

	#start(request: CommandRequest, label: string, state: SourceState): ChildRun {
		const changed = () => this.#hooks.onChange?.();
		const child = runChild({
			command: request.command,
			label,
			cwd: request.cwd,
			progress: state,
			ingest: this.#sink,
			afterChunk: async () => {
				await this.#hooks.afterChunk?.();
				changed();
			},
			changed,
			onStderr: this.#hooks.onStderr ? text => this.#hooks.onStderr?.(text, state) : undefined,
			idleAfterExitMs: this.#hooks.idleAfterExitMs,
		});
		this.#children.push(child);
		return child;
	}

	running(): boolean {
		return this.#children.some(child => child.running());
	}

	interrupt(): boolean {
		return this.#children.map(child => child.interrupt()).some(Boolean);
	}

	/** SIGTERM to each that still runs (SIGKILL after the grace period): `K`. False when none runs. */
	terminate(): boolean {
		const running = this.#children.filter(child => child.running());
		for (const child of running) child.stop();
		return running.length > 0;
	}

	/** Ends them all as the load ends (quitting): as `terminate`, and what still holds an exited one's output is not waited for. */
	stop(): void {
		this.#ended = true;
		for (const child of this.#children) child.stop();
	}

	signal(signal: NodeJS.Signals): boolean {
		return this.#children.map(child => child.signal(signal)).some(Boolean);
	}

	abandon(): void {
		this.#ended = true;
		for (const child of this.#children) child.abandon();
	}

	#uniqueLabel(label: string): string {
		const taken = new Set(this.#states.map(state => state.label));
		if (!taken.has(label)) return label;
		for (let count = 2; ; count++) {
			const candidate = `${label} (${count})`;
			if (!taken.has(candidate)) return candidate;
		}
	}
}
