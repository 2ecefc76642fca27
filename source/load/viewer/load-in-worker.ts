import {availableParallelism} from 'node:os';
import {MessageChannel, receiveMessageOnPort, Worker} from 'node:worker_threads';
import type {InputPlan} from '../../input/inputs.js';
import {plainFiles} from '../../input/plain-files.js';
import {initialSourceState, type SourceState} from '../../input/source-state.js';
import {createModel, type Model} from '../../model/state.js';
import type {Loading, LoadOptions} from '../loader.js';
import type {AddedCommand, CommandRequest} from '../../input/command/added-commands.js';
import {assertNever} from '../../model/assert-never.js';
import {applyChangesInParts} from './apply-changes.js';
import {HeldPosts} from './held-posts.js';
import {Scheduler} from '../../slices/scheduler.js';
import {aliveTimers} from '../../slices/timers.js';
import {isChangesPiece} from './split-changes.js';
import {SharedStrings} from './shared-strings.js';
import {workerResourceLimits, type LoadWorkerMessage, type LoadWorkerSetup} from '../protocol.js';

/*
 * How the viewer loads large plain files: a worker loads them the headless way, model and all
 * (load-worker.ts), and posts what changed in its model; each post is put into the viewer's own model
 * (apply-changes.ts), and the views get a new model object with it. The viewer's own thread meanwhile
 * draws and answers keys, and neither waits for the other. Should the worker fail, the viewer starts again on
 * its own thread, and only then loads the loading code (parsers, reducer).
 *
 * The worker is started once the viewer's first frame is drawn (`mainThreadFrom`), not beside it: a worker's
 * start (its own Node, then the ~100 modules of the load) took the CPU the viewer's thread needed to load Ink
 * and draw, on two cores shared with whatever else runs. What it delays the load by is its start, ~100 ms.
 */

/** The sizes (all files together) from which the viewer loads in a worker. */
export const minWorkerLoadBytes = 8 * 1024 * 1024;

/** Whether the plan is worth a worker: large plain files, and a second CPU. */
export function worthAWorker(plan: InputPlan): boolean {
	if (availableParallelism() < 2) return false;
	const files = plainFiles(plan);
	if (!files) return false;
	let bytes = 0;
	for (const file of files) bytes += file.size;
	return bytes >= minWorkerLoadBytes;
}

/** Loads the plan in a worker (see worthAWorker), or on this thread should the worker fail. */
export function loadInWorker(plan: InputPlan, options: LoadOptions): Loading {
	const {hooks = {}} = options;
	const {mainThreadFrom} = options;
	// The pieces of what changed come on a port of their own, taken one at a time (LoadWorkerSetup.changes).
	const {port1: changesPort, port2} = new MessageChannel();
	const setup: LoadWorkerSetup = {
		plan,
		maxLineBytes: options.maxLineBytes,
		tuning: options.tuning ?? {},
		textKeep: options.textKeep,
		dialect: options.dialect,
		changes: port2,
	};
	const module = options.tuning?.loadWorkerModule === undefined ? new URL('load-worker.js', import.meta.url) : new URL(options.tuning.loadWorkerModule);
	/** Undefined until the first frame is drawn (see above), or when stopped before it was. */
	let worker: Worker | undefined;
	let model = createModel();
	const replace = (next: Model) => {
		model = next;
		options.onModel?.(next);
	};

	replace(model);
	/** The strings the viewer's model holds, one copy each, while posts come (shared-strings.ts); let go once they stop. */
	let shared: SharedStrings | undefined = new SharedStrings();
	// Posts go into the model as they come, unless the views are laying it out in slices: then once they are done.
	const posts = new HeldPosts<'piece'>({
		scheduler: options.scheduler ?? new Scheduler(aliveTimers),
		*inParts() {
			// Decoded now, in a turn of its own.
			const received: unknown = receiveMessageOnPort(changesPort)?.message;
			if (!isChangesPiece(received)) throw new Error('the load worker announced a piece of its changes and sent none');
			const {changes, last} = received;
			// The pieces before the last fill the model's maps and lists; the views get a new model with the last.
			shared ??= new SharedStrings();
			const next = yield* applyChangesInParts(model, changes, shared);
			if (!last) return;
			// The count of events read, which the worker's progress moves ahead of its posts, never goes back: a post
			// going in behind a progress took it from 94k to 57k events in the header (and its rate below zero).
			if (next.events < model.events) next.events = model.events;
			model = next;
			replace(model);
			hooks.onChange?.();
		},
	});
	const states = plan.inputs.map(input => initialSourceState(input));
	// The views hold these state objects: what a load reports is copied into them. `whole`: the model holds every
	// piece posted with and before these states; until it does, a source that has ended is left as the views have
	// it (see `mirrorWorker`). Returns whether one was left.
	const mirror = (from: SourceState[], whole = true): boolean => {
		let held = false;
		for (const [index, state] of from.entries()) {
			const shown = states[index];
			if (shown && !whole && shown.live && !state.live) held = true;
			else if (shown) Object.assign(shown, state);
			// A command started into the load after it (the cockpit's): its state object itself, which it keeps up to date.
			else states.push(state);
		}

		return held;
	};
	/*
	 * The worker's states, which it posts ahead of the pieces of the model that go with them (those go in on later
	 * turns, and wait while the views read the model in slices): its progress goes to the views at once, a source's
	 * end only once the model holds every piece posted before it, so that the header says `ended` of a model that
	 * holds the whole log. A search typed on seeing `ended` searched a model still without the log's last pieces,
	 * ended without its match, and its jump with it: the match came with the pieces, the selection never went to it.
	 */
	const mirrorWorker = (from: SourceState[]) => {
		if (!mirror(from, posts.waiting === 0)) return;
		posts.whenIn(() => {
			mirror(from);
			hooks.onChange?.();
		});
	};

	let stopped = false;
	let workerFinished = false;
	let onThisThread: Loading | undefined;
	const done = new Promise<number>(resolve => {
		let settled = false;
		const fail = () => {
			if (settled) return;
			settled = true;
			posts.stop();
			changesPort.close();
			void worker?.terminate();
			if (stopped) {
				resolve(0);
				return;
			}

			// Start over on this thread, from an empty model.
			replace(createModel());
			for (const [index, input] of plan.inputs.entries()) Object.assign(states[index]!, initialSourceState(input));
			resolve(
				import('../load-here.js').then(({loadHere}) => {
					if (stopped) return 0;
					const here = loadHere(plan, {
						...options,
						onModel: replace,
						hooks: {
							...hooks,
							onChange() {
								mirror(here.states);
								hooks.onChange?.();
							},
						},
					});
					onThisThread = here;
					return here.done;
				}),
			);
		};

		const onMessage = (message: LoadWorkerMessage) => {
			if (settled) return;
			switch (message.kind) {
				case 'progress':
					// The header's count of events moves while the load goes; the next changes bring the rest. Set in
					// place: a new model object would have the views work out again what they keep per model (the
					// header's totals walk every run), several times a second, for a count.
					model.events = message.events;
					break;
				case 'changes':
					for (let piece = 0; piece < message.pieces; piece++) posts.offer('piece');
					break;
				case 'done': {
					settled = true;
					const {exitCode} = message;
					// The load is done once its last piece is in the model; the worker goes then, its pieces all taken.
					for (let piece = 1; piece < message.pieces; piece++) posts.offer('piece');
					posts.offer('piece', () => {
						shared = undefined;
						changesPort.close();
						void worker?.terminate();
						workerFinished = true;
						resolve(exitCode);
					});
					break;
				}
				default:
					assertNever(message, 'load message');
			}

			// After its pieces are offered: a source's end waits for them.
			mirrorWorker(message.states);
			hooks.onChange?.();
		};

		const start = () => {
			// Stopped before its first frame (the viewer quit at once): nothing to start; the load is done.
			if (stopped) {
				fail();
				return;
			}

			worker = new Worker(module, {workerData: setup, transferList: [port2], resourceLimits: workerResourceLimits});
			worker.on('message', onMessage);
			worker.on('error', fail);
			worker.on('exit', fail);
		};

		if (mainThreadFrom) void mainThreadFrom.then(start, start);
		else start();
	});

	/*
	 * To carry a job on (a command whose events join the model), this thread needs the reducer's indexes, which
	 * stayed in the worker (model-changes.ts): the plan is read again here, the model on screen staying until that
	 * is done, and the command starts then.
	 */
	let again: Promise<Loading> | undefined;
	const loadAgainHere = async (): Promise<Loading> => {
		const {loadHere} = await import('../load-here.js');
		let caughtUp = false;
		const here = loadHere(plan, {
			...options,
			mainThreadFrom: undefined,
			onModel: undefined,
			hooks: {
				...hooks,
				onChange() {
					if (!caughtUp) return;
					mirror(here.states);
					hooks.onChange?.();
				},
			},
		});
		onThisThread = here;
		await here.done;
		caughtUp = true;
		replace(here.model);
		mirror(here.states);
		hooks.onChange?.();
		return here;
	};

	const addCommand = async (request: CommandRequest): Promise<AddedCommand> => {
		if (!workerFinished || stopped) throw new Error('the log is still being read');
		if (onThisThread?.addCommand) return onThisThread.addCommand(request);
		again ??= loadAgainHere();
		const here = await again;
		if (!here.addCommand) throw new Error('the log cannot be carried on here');
		return here.addCommand(request);
	};

	const stop = () => {
		stopped = true;
		posts.stop();
		changesPort.close();
		onThisThread?.stop();
		void worker?.terminate();
	};

	return {
		states,
		done,
		get model() {
			return model;
		},
		// A worker reads plain files only: the commands are those started into the load afterwards, on this thread.
		interrupt: () => onThisThread?.interrupt() ?? false,
		childRunning: () => onThisThread?.childRunning() ?? false,
		addCommand,
		terminateCommands: () => onThisThread?.terminateCommands() ?? false,
		stop,
		signalCommand: signal => onThisThread?.signalCommand(signal) ?? false,
		abandon() {
			stopped = true;
			posts.stop();
			changesPort.close();
			onThisThread?.abandon();
			void worker?.terminate();
		},
	};
}
