import {createContext, useContext, useMemo, useRef, useSyncExternalStore, type Dispatch} from 'react';
import type {EventRef} from '../model/events.js';
import type {MessageLine} from '../model/message-lines.js';
import type {Activity, Model} from '../model/state.js';
import type {Replay} from '../load/replay.js';
import type {SourceState} from '../input/source-state.js';
import {builtinPrices, type PriceTable} from '../query/prices.js';
import type {UiAction, UiState} from '../view-model/ui-state.js';
import type {UiStore} from '../view-model/ui-store.js';
import type {ViewStore} from '../view-model/view-store.js';
import type {TreeRows} from '../view-model/tree/layouts.js';
import type {ViewerWork} from '../view-model/viewer-work.js';
import type {CockpitActions} from '../view-model/cockpit.js';
import type {ConversationSource} from '../text/conversation.js';

/** What the views are given from outside React: the store (and through it the model), the sources, and ways to act on them. */
export type ViewEnv = {
	/** Holds the model the views draw, which a load may replace (ViewStore.setModel). */
	store: ViewStore;
	/** What this viewer works out of the model and its work in slices (layouts, searches, filters, figures): one per viewer. */
	work: ViewerWork;
	/** What the header calls the input: a file name, `stdin`, `demo`, or the command line. */
	sourceLabel: string;
	sources: SourceState[];
	/** What tokens cost, for the costs shown; the built-in table when absent (tests). */
	prices?: PriceTable | undefined;
	/** The raw JSON line of an event, read again from its file or a bounded buffer; undefined once gone. */
	rawEvent: (ref: EventRef) => string | undefined;
	/**
	 * `activity` with its tool result whole where the model keeps only its start (load/result-text.ts reads it again
	 * from its line). Undefined while what reads it is still being loaded (app/interactive.ts imports it after the
	 * first frame: it brings the parsers), and `arrived` is called once it is. Absent: results are shown as kept.
	 */
	wholeResult?: ((activity: Activity, arrived: () => void) => Activity | undefined) | undefined;
	/**
	 * A step's conversation (input/reread/message-line.ts): the raw line that holds its messages, or the step as its
	 * runtime's reader made it, at once or (an agent CLI's session read off this thread) as a promise; without it,
	 * `rawEvent` at the line's place.
	 */
	messageLine?: ((where: MessageLine) => ConversationSource | undefined | Promise<ConversationSource | undefined>) | undefined;
	/** Interrupt a running child (Ctrl-C); returns false when there is none. */
	interrupt: () => boolean;
	/** Whether a child command is still running (quitting then asks first). */
	childRunning: () => boolean;
	/** Ends the app with the exit code the run should give. */
	quit: () => void;
	/** With `--replay`: the pacing, for the space and +/- keys and the header. */
	replay?: Replay | undefined;
	/** Ctrl-Z: stops like other full-screen programs; `repaint` draws the screen again on `fg`. */
	suspend?: ((repaint: () => void) => void) | undefined;
	/** Backspace, for a job opened through the chooser (`perscope perstack`): back to the list. */
	back?: (() => void) | undefined;
	/** Writes an activity's raw event to a file; returns where, or throws with a message for the person. */
	exportEvent: (activity: Activity) => string;
	/** Answer, resume, stop, copy (`a`, `R`, `K`, `y`): absent where the viewer runs no commands. */
	cockpit?: CockpitActions | undefined;
};

export const ViewEnvContext = createContext<ViewEnv | undefined>(undefined);

/**
 * The tree's rows, as the tree draws them (one rows cache per screen, made in app.tsx): the header, `t` and `u`
 * ask them which job the selection is in, and get the same row list the tree then draws (no second layout).
 */
export const TreeRowsContext = createContext<TreeRows | undefined>(undefined);
export const UiStoreContext = createContext<UiStore | undefined>(undefined);

/** What the views read: the env, with the model the store holds now. */
export type ViewContext = ViewEnv & {readonly model: Model};

export function useViewEnv(): ViewContext {
	const env = useContext(ViewEnvContext);
	if (!env) throw new Error('useViewEnv outside ViewEnvContext');
	const {model} = env.store;
	// A new object only when the model is replaced, so that what depends on the env does not change every frame.
	return useMemo(() => ({...env, model}), [env, model]);
}

/** The price table costs are shown with; rows drawn outside a viewer (tests) get the built-in one. */
export function usePrices(): PriceTable {
	return useContext(ViewEnvContext)?.prices ?? builtinPrices;
}

/** Re-renders the caller whenever the store publishes a new version (at most once per tick). */
export function useModelVersion(): number {
	const {store} = useViewEnv();
	return useSyncExternalStore(store.subscribe, store.getVersion);
}

export function useUiState(): UiState {
	const store = useUiStore();
	return useSyncExternalStore(store.subscribe, store.getState);
}

export function useUiDispatch(): Dispatch<UiAction> {
	return useUiStore().dispatch;
}

/** For key handlers: the state as it is now, including changes from keys handled earlier in the same read. */
export function useUiStore(): UiStore {
	const store = useContext(UiStoreContext);
	if (!store) throw new Error('useUiStore outside UiStoreContext');
	return store;
}

/** This viewer's work in slices and what it keeps (view-model/viewer-work.ts). */
export function useViewerWork(): ViewerWork {
	const env = useContext(ViewEnvContext);
	if (!env) throw new Error('useViewerWork outside ViewEnvContext');
	return env.work;
}

/** The tree's rows as the screen draws them; a view drawn outside a screen (a test) gets a rows cache of its own. */
export function useTreeRows(): TreeRows {
	const shared = useContext(TreeRowsContext);
	const work = useViewerWork();
	const own = useRef<TreeRows | undefined>(undefined);
	if (shared) return shared;
	own.current ??= work.layouts.rowsCache();
	return own.current;
}
