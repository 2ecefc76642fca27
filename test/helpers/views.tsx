import type {ReactElement} from 'react';
import {render} from 'ink-testing-library';
import {createModel, type Model} from '../../source/model/state.js';
import {UiStoreContext, ViewEnvContext, type ViewEnv} from '../../source/views/contexts.js';
import {KeypressProvider} from '../../source/views/keypress.js';
import {initialUiState, type UiState} from '../../source/view-model/ui-state.js';
import {UiStore} from '../../source/view-model/ui-store.js';
import {ViewStore} from '../../source/view-model/view-store.js';
import {ViewerWork} from '../../source/view-model/viewer-work.js';
import {settle, sourceState} from './app.js';

export type ViewHarness = ReturnType<typeof render> & {
	store: ViewStore;
	ui: UiStore;
	env: ViewEnv;
	quits: () => number;
	press: (keys: string) => Promise<void>;
};

/**
 * Renders one view (a header, a row, an overlay) inside the contexts the app gives it, without the rest of
 * the app: a unit test of a component sees only what that component draws.
 */
export function renderView(
	element: ReactElement,
	options: {model?: Model; ui?: Partial<UiState>; env?: Partial<Omit<ViewEnv, 'store' | 'model' | 'work'>>} = {},
): ViewHarness {
	const model = options.model ?? createModel();
	let clock = 0;
	const store = new ViewStore(model, {now: () => (clock += 1000)});
	let quitCount = 0;
	const env: ViewEnv = {
		store,
		work: new ViewerWork(),
		sourceLabel: 'test.ndjson',
		sources: [sourceState()],
		rawEvent: () => undefined,
		interrupt: () => false,
		childRunning: () => false,
		quit: () => {
			quitCount++;
		},
		exportEvent: () => '/tmp/exported.json',
		...options.env,
	};
	const ui = new UiStore({...initialUiState, ...options.ui});
	store.tick();
	const instance = render(
		<ViewEnvContext.Provider value={env}>
			<UiStoreContext.Provider value={ui}>
				<KeypressProvider>{element}</KeypressProvider>
			</UiStoreContext.Provider>
		</ViewEnvContext.Provider>,
	);
	const press = async (input: string) => {
		instance.stdin.write(input);
		await settle();
	};

	return {...instance, store, ui, env, quits: () => quitCount, press};
}
