import type {Instance} from 'ink';
import {createModel, endInput, isToolActivity, type TextKeep} from '../model/state.js';
import {listedInputs, type InputPlan} from '../input/inputs.js';
import {startLoad} from '../load/start-load.js';
import {liveSources} from './live-sources.js';
import {RawEvents} from '../input/reread/raw-events.js';
import {conversationRequest} from '../input/reread/message-line.js';
import {ConversationReads} from '../input/reread/conversation-reads.js';
import {inputEndOf, isLoading} from '../input/source-state.js';
import {exportRawEvent} from '../views/export-event.js';
import {builtinPrices} from '../query/prices.js';
import type {ViewEnv} from '../views/contexts.js';
import type {TypedAhead} from '../views/keypress.js';
import {enterFullScreen, openKeyboard, reassertRawMode, suspendToShell} from '../views/terminal.js';
import type {UiState} from '../view-model/ui-state.js';
import {ViewStore} from '../view-model/view-store.js';
import {ViewerWork} from '../view-model/viewer-work.js';
import {Scheduler} from '../slices/scheduler.js';
import type {RunOptions} from './run-options.js';
import type {OtlpReport} from '../export/otlp/start.js';
import {createCockpit} from './cockpit.js';

/*
 * The viewer's wiring: keyboard, load, store and views. It loads no Ink: reading starts first (startLoad, in a
 * worker for a large file), then show-app.tsx (Ink and the views) is imported while it reads.
 */

const signalNumbers: Record<string, number> = {SIGHUP: 1, SIGINT: 2, SIGTERM: 15};
/** The signals that end the viewer. */
const viewerSignals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];

/** Erases the screen and puts the cursor at its top left. */
const clearScreen = '\u001b[2J\u001b[H';

/**
 * How much of tool results the viewer's model keeps: the first 32 Mi characters of them whole, so that search
 * and filters see every result of all but the largest logs; past that, the first 256 characters of each, more
 * than a row shows. The inspector reads a cut result whole again (load/result-text.ts); the footer says when
 * a search ran over cut results (docs/performance.md).
 */
const viewerTextKeep: TextKeep = {limit: 256, wholeBudget: 32 * 1024 * 1024};

/** Mounts the interactive viewer full-screen and resolves with the exit code once it is closed. */
export async function runApp(
	requested: InputPlan,
	options: RunOptions & {
		restoreScreen?: () => void;
		/** Called once Ink and React are loaded (the caller set up their environment: see cli/ink-environment.ts). */
		onViewsLoaded?: () => void;
	},
): Promise<number> {
	const plan = requested;
	let viewsLoaded: Promise<typeof import('../views/show-app.js')> | undefined;
	const loadViews = async () => {
		viewsLoaded ??= import('../views/show-app.js').then(views => {
			options.onViewsLoaded?.();
			return views;
		});
		return viewsLoaded;
	};

	// The caller may already have switched screens to show something while Ink loaded.
	const restoreScreen = options.restoreScreen ?? enterFullScreen(process.stdout);
	const stdinCarriesEvents = plan.inputs.some(input => input.kind === 'stdin');
	const keyboard = openKeyboard(stdinCarriesEvents);
	if (!keyboard) {
		restoreScreen();
		process.stderr.write('perscope: the interactive viewer needs a terminal to read keys from, and none is available; use --print for a transcript\n');
		return 2;
	}

	const suspend = (repaint: () => void) => suspendToShell(process.stdout, keyboard.stream, repaint);
	// What was typed at the `/` and `:` prompts, for ↑/↓, kept from one job of the chooser to the next.
	const session: Pick<ViewOptions, 'history' | 'onHistory' | 'typedAhead'> = {
		history: undefined,
		onHistory: history => (session.history = history),
		// Keys typed as one screen gives way to the next (the list to a job, a job back to the list), for the next.
		typedAhead: {text: ''},
	};
	// The OpenTelemetry export's reports, written once the terminal is restored.
	const reports: OtlpReport[] = [];
	let code = 1;
	try {
		code = await (async () => {
			const {jobsRoot} = plan;
			if (jobsRoot === undefined) {
				const viewed = await viewPlan(plan, keyboard, {...options, ...session, loadViews, suspend, back: undefined});
				if (viewed.report) reports.push(viewed.report);
				return viewed.code;
			}

			// `perscope perstack`: list the saved jobs and open the one chosen; backspace in the job comes back here.
			let lastPath: string | undefined;
			for (;;) {
				const {chooseJob} = await loadViews();
				const job = await chooseJob(jobsRoot, keyboard.stream, {
					initialJobPath: lastPath,
					suspend,
					follow: plan.follow,
					where: plan.jobsWhere,
					typedAhead: session.typedAhead,
					cacheFile: options.listingCache,
				});
				if (!job) return 0;
				lastPath = job.path;
				const chosen: InputPlan = {
					inputs: listedInputs(job.path, job.companions ?? [], plan.follow),
					label: job.path,
					demo: false,
					follow: plan.follow,
					jobsRoot: undefined,
				};
				const viewed = await viewPlan(chosen, keyboard, {...options, ...session, loadViews, suspend, back: true});
				if (viewed.report) reports.push(viewed.report);
				if (!viewed.back) return viewed.code;
			}
		})();
	} finally {
		keyboard.close();
		restoreScreen();
	}

	for (const report of reports) process.stderr.write(report.text);
	// An --otlp-file cut short is a file that could not be written (README, Exit codes); a command's own
	// failure or a signal says more and is kept.
	if (code === 0 && reports.some(report => report.fileFailed)) code = 1;
	// A request that never answers must not keep the process alive past its flush bound.
	if (reports.some(report => report.abandoned)) process.exit(code);
	return code;
}

type ViewOptions = Parameters<typeof runApp>[1] & {
	loadViews: () => Promise<typeof import('../views/show-app.js')>;
	suspend: (repaint: () => void) => void;
	/** true: the plan was chosen from the job list, and backspace goes back to it. */
	back: true | undefined;
	history: UiState['history'] | undefined;
	onHistory: (history: UiState['history']) => void;
	typedAhead?: TypedAhead | undefined;
};

/** Shows one plan in the viewer until it is closed: with its exit code, and whether the person asked to go back to the list. */
async function viewPlan(
	plan: InputPlan,
	keyboard: Pick<NonNullable<ReturnType<typeof openKeyboard>>, 'stream'>,
	options: ViewOptions,
): Promise<{code: number; back: boolean; report: OtlpReport | undefined}> {
	const {loadViews} = options;
	const stdinCarriesEvents = plan.inputs.some(input => input.kind === 'stdin');
	// A command is started only once the views are loaded: it must inherit the person's environment, not the
	// one set up for loading Ink (cli/ink-environment.ts). Anything else starts reading first.
	const views = plan.inputs.some(input => input.kind === 'command') ? await loadViews() : undefined;
	// Stdin and a command are copied to a temporary file, so that their events are read again as a file's are.
	const raw = new RawEvents({spool: true});
	// `c` on an agent CLI's step reads its session off this thread.
	const conversations = new ConversationReads();
	// A signal with no listener ends the process at once, without its exit handlers: one that comes while the viewer
	// starts, before its own listeners below, removes the copy first, then does what it does.
	const onSignalWhileStarting = (signal: NodeJS.Signals) => {
		raw.close();
		for (const name of viewerSignals) process.off(name, onSignalWhileStarting);
		process.kill(process.pid, signal);
	};

	for (const name of viewerSignals) process.on(name, onSignalWhileStarting);
	raw.addPlan(plan);
	const speed = options.replaySpeed;
	const replay = speed === undefined ? undefined : await import('../load/replay.js').then(({Replay}) => new Replay({speed}));
	// A replayed file is read as its events fall due, not as fast as it can be: it keeps the live pace.
	// (`loading` is set below, before the store's first tick.)
	// The store's tick rests while nothing changes only where every change announces itself: stdin and commands are
	// read on this thread, each chunk telling the store, and so is everything once the load has ended. A file's load
	// in a worker puts its posts into the model on the scheduler's turns: the tick goes on until it is done.
	let loadEnded = false;
	const readHere = plan.inputs.every(input => input.kind === 'stdin' || input.kind === 'command');
	const store = new ViewStore(createModel(), {loading: () => replay === undefined && loading.states.some(isLoading), mayRest: () => loadEnded || readHere});
	// The viewer's one scheduler of work in slices, shared by the views and the load's posts, which take turns on
	// the model (slices/turns.ts); and what the views work out of the model, kept for this viewer only.
	const scheduler = new Scheduler();
	const work = new ViewerWork(scheduler);
	// A replay holds lines back until they are due; what is already in the model is drawn meanwhile.
	replay?.subscribe(() => store.markChanged());

	let exitCode = 0;
	let goingBack = false;
	let quitting = false;
	let interrupted = false;
	let instance: Instance | undefined;
	// Settles once the first frame is drawn: a file read on this thread waits for it, so loading Ink and the
	// views does not wait for the file.
	let firstFrameDrawn = () => {};
	const drawn = new Promise<void>(resolve => (firstFrameDrawn = resolve));
	// Reading a cut tool result again whole (the inspector) parses its line as the load did: load/result-text.ts
	// brings the parsers, ~55 modules and 30-40 ms of a start. They are imported once the first frame is up, not
	// on the way to it; a result is cut only after 32 Mi characters of whole ones, long after they are in.
	let resultText: typeof import('../load/result-text.js') | undefined;
	const resultTextLoaded = drawn.then(async () => import('../load/result-text.js')).then(module => (resultText = module));
	const loading = await startLoad(plan, {
		maxLineBytes: options.maxLineBytes,
		tuning: options.tuning,
		fast: options.fast,
		dialect: options.dialect,
		// A live stream's events that carry no time (Codex's) are stamped as they arrive; a file's stay without.
		arrivalClock: liveSources(plan),
		replay,
		mainThreadFrom: drawn,
		onModel: model => store.setModel(model),
		// Posts go into the views' model in the scheduler's turns: never while the views read it in slices.
		scheduler,
		// Only the start of each tool result is kept where the rest can be read again (the inspector does).
		textKeep: raw.readsEveryLineAgain(plan) && !options.otlp ? viewerTextKeep : undefined,
		// The inspector reads the events of plain files again by offset; other inputs' lines are kept.
		onLine: line => raw.remember(line),
		hooks: {
			// Yield to the event loop between chunks so keys and frames are served while a big file loads.
			afterChunk: () => new Promise(resolve => setImmediate(resolve)),
			onChange: () => store.markChanged(),
		},
	});
	// Loaded beside the views; it looks at the model on a timer of its own, so a frame never waits on the network.
	const otlp = options.otlp ? await (await import('../export/otlp/start.js')).OtlpExport.start(options.otlp, options.prices ?? builtinPrices) : undefined;
	otlp?.watch(() => loading.model);
	// The viewer's hands (`a`, `R`, `K`, `y`); a continuation's exit code is the viewer's from then on.
	let continuedCode: number | undefined;
	const cockpit = createCockpit({
		plan,
		loading,
		raw,
		changed: () => store.markChanged(),
		onExit(code) {
			continuedCode = code;
			// A continuation interrupted with Ctrl-C has ended: the next Ctrl-C interrupts the next one again.
			interrupted = false;
		},
		searchPath: process.env.PATH ?? '',
		cwd: process.cwd(),
		stdout: process.stdout,
	});
	const quit = () => {
		if (quitting) return;
		quitting = true;
		replay?.finish();
		loading.stop();
		instance?.unmount();
	};

	const env: ViewEnv = {
		store,
		work,
		sourceLabel: plan.label,
		sources: loading.states,
		prices: options.prices ?? builtinPrices,
		rawEvent: ref => raw.read(ref),
		wholeResult(activity, arrived) {
			if (resultText) return resultText.withWholeResult(activity, ref => raw.read(ref));
			if (!isToolActivity(activity) || activity.result?.fullLength === undefined) return activity;
			void resultTextLoaded.then(arrived);
			return undefined;
		},
		messageLine: where => {
			const found = conversationRequest(raw, where, options);
			return found.kind === 'read' ? found.conversation : conversations.read(found.request);
		},
		// The first Ctrl-C goes to the command; the viewer follows it out when it exits. A second one quits.
		interrupt: () => {
			if (interrupted || !loading.childRunning()) return false;
			interrupted = true;
			return loading.interrupt();
		},
		childRunning: () => loading.childRunning(),
		quit,
		replay,
		suspend: options.suspend,
		back: options.back
			? () => {
					goingBack = true;
					quit();
				}
			: undefined,
		exportEvent: activity => {
			const text = raw.read(activity.ref);
			if (text === undefined) throw new Error('the raw event is no longer available');
			return exportRawEvent(text, activity);
		},
		cockpit,
	};

	let signalCode: number | undefined;
	const onSignal = (signal: NodeJS.Signals) => {
		signalCode = 128 + (signalNumbers[signal] ?? 0);
		quit();
	};

	// The viewer's listener is added before the starting one is removed: with none between the two, Node stops
	// watching the signal, and one that had come but was not handled yet (the thread busy starting) was dropped.
	for (const name of viewerSignals) {
		process.on(name, onSignal);
		process.off(name, onSignalWhileStarting);
	}

	try {
		const loaded = views ?? (await loadViews());
		const {showApp} = loaded;
		instance = showApp(env, {
			stdin: keyboard.stream,
			filter: options.filter,
			onDrawCost: ms => store.noteDrawCost(ms),
			history: options.history,
			onHistory: options.onHistory,
			typedAhead: options.typedAhead,
		});
		// A signal (or a quit) that came while Ink and the views were loading found no app to end: it ends it now.
		if (quitting) instance.unmount();
		firstFrameDrawn();
		store.start();
		if (stdinCarriesEvents) {
			// The writer of the pipe may have reset the terminal as it exited: take raw mode back, now and
			// again a little later, since it can exit some time after closing its end of the pipe.
			process.stdin.once('end', () => {
				for (const delay of [50, 500, 2000]) setTimeout(() => reassertRawMode(keyboard.stream), delay).unref();
			});
		}

		let ended = false;
		void loading.done.then(code => {
			ended = true;
			loadEnded = true;
			exitCode = code;
			// A continuation started before the first load ended (a followed file) still runs: the input goes on.
			if (!loading.states.some(state => state.live)) endInput(loading.model, inputEndOf(loading.states));
			store.markChanged();
			store.flush();
			if (interrupted) quit();
		});
		await instance.waitUntilExit();
		// Quitting stopped a running command: its exit status (or 128 + signal) is ours.
		const exited = Promise.all([loading.done.then(code => (exitCode = code)), ...cockpit.started]);
		if (!ended || cockpit.started.length > 0) await Promise.race([exited, new Promise(resolve => setTimeout(resolve, 5000).unref())]);
	} finally {
		// Should Ink fail to load, the loader must not wait for a frame that never comes.
		firstFrameDrawn();
		store.stop();
		scheduler.stop();
		raw.close();
		conversations.close();
		for (const name of viewerSignals) process.off(name, onSignal);
	}

	// The export's report is written by runApp once the screen is restored: here it would land on the alternate
	// screen. The views are gone, so a flush that takes a while (a backend that does not answer) says what it is
	// doing on the screen they left, instead of leaving their last frame frozen.
	let report: OtlpReport | undefined;
	if (otlp) {
		// Loaded here, not with the viewer: nothing else on its way to the first frame needs it.
		const {sanitizeLine} = await import('../text/sanitize.js');
		report = await otlp.finish(loading.model, text => process.stdout.write(`${clearScreen}perscope: ${sanitizeLine(text)}`));
	}

	return {code: signalCode ?? continuedCode ?? exitCode, back: goingBack && signalCode === undefined, report};
}
