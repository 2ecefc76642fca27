import {render} from 'ink-testing-library';
import {App} from '../../source/views/app.js';
import type {ViewEnv} from '../../source/views/contexts.js';
import {ViewStore} from '../../source/view-model/view-store.js';
import {ViewerWork} from '../../source/view-model/viewer-work.js';
import type {Model} from '../../source/model/state.js';
import type {SourceState} from '../../source/input/source-state.js';

export type AppHarness = ReturnType<typeof render> & {store: ViewStore; work: ViewerWork; quits: () => number; press: (keys: string) => Promise<void>};

export const keys = {
	up: '\u001B[A',
	down: '\u001B[B',
	right: '\u001B[C',
	left: '\u001B[D',
	enter: '\r',
	escape: '\u001B',
	pageDown: '\u001B[6~',
	pageUp: '\u001B[5~',
} as const;

/** A source as the views see it, finished unless told otherwise. */
export function sourceState(overrides: Partial<SourceState> = {}): SourceState {
	return {
		label: 'test.ndjson',
		kind: 'file',
		live: false,
		following: false,
		waiting: false,
		bytesRead: 0,
		bytesTotal: 0,
		error: undefined,
		stderr: [],
		stderrCount: 0,
		...overrides,
	};
}

/** Renders the app over a model, with no timers: tests tick the store themselves. `work`: the viewer's work, on a scheduler a test may step. */
export function renderApp(
	model: Model,
	options: {sources?: SourceState[]; rawEvent?: ViewEnv['rawEvent']; label?: string; exportEvent?: ViewEnv['exportEvent']; work?: ViewerWork} = {},
): AppHarness {
	// Each reading of this clock is a second later, so every manual tick is past the redraw gap.
	let clock = 0;
	const store = new ViewStore(model, {now: () => (clock += 1000)});
	let quitCount = 0;
	const work = options.work ?? new ViewerWork();
	const env: ViewEnv = {
		store,
		work,
		sourceLabel: options.label ?? 'test.ndjson',
		sources: options.sources ?? [sourceState()],
		rawEvent: options.rawEvent ?? (() => undefined),
		interrupt: () => false,
		childRunning: () => false,
		quit: () => {
			quitCount++;
		},
		exportEvent: options.exportEvent ?? (() => '/tmp/exported.json'),
	};
	store.tick();
	const instance = render(<App env={env} />);
	const press = async (input: string) => {
		instance.stdin.write(input);
		await settle();
	};

	return {...instance, store, work, quits: () => quitCount, press};
}

/** Lets React and Ink flush what a key or a tick caused. */
export async function settle(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise(resolve => setImmediate(resolve));
}

/** Waits until the last frame satisfies `check`, instead of sleeping for a guessed time. */
export async function waitForFrame(instance: {lastFrame: () => string | undefined}, check: (frame: string) => boolean, timeoutMs = 2000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const frame = instance.lastFrame() ?? '';
		if (check(frame)) return frame;
		if (Date.now() > deadline) throw new Error(`frame never matched; last frame:\n${frame}`);
		await new Promise(resolve => setTimeout(resolve, 10));
	}
}
