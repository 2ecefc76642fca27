import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {keys, settle, waitForFrame} from '../../test/helpers/app.js';
import {modelFromFixtures} from '../../test/helpers/load.js';
import {App} from './app.js';
import type {ViewEnv} from './contexts.js';
import {initialUiState, type UiState} from '../view-model/ui-state.js';
import {ViewStore} from '../view-model/view-store.js';
import {ViewerWork} from '../view-model/viewer-work.js';

/** The viewer over demo.ndjson, recording what the keys for the shell (Ctrl-Z) and the chooser (backspace) asked. */
function open(ui: {history?: UiState['history']; onHistory?: (history: UiState['history']) => void} = {}) {
	let clock = 0;
	const store = new ViewStore(modelFromFixtures('demo.ndjson'), {now: () => (clock += 1000)});
	const asked: string[] = [];
	const env: ViewEnv = {
		store,
		work: new ViewerWork(),
		sourceLabel: 'demo.ndjson',
		sources: [],
		rawEvent: () => undefined,
		interrupt: () => false,
		childRunning: () => false,
		quit: () => asked.push('quit'),
		exportEvent: () => '/tmp/exported.json',
		suspend: repaint => {
			asked.push('suspend');
			repaint();
		},
		back: () => asked.push('back'),
	};
	store.tick();
	const view = render(<App env={env} initialUi={{...initialUiState, history: ui.history ?? initialUiState.history}} onHistory={ui.onHistory} />);
	const press = async (input: string) => {
		view.stdin.write(input);
		await settle();
	};

	return {view, press, asked};
}

describe('the viewer keys for filters, the shell and the chooser', () => {
	it('C clears every filter and the search at once, and says so', async () => {
		const {view, press} = open();
		await waitForFrame(view, frame => frame.includes('complete'));
		await press('x');
		await press(':');
		// The filter comes back selected; End keeps it, to add a term.
		await press('\u001B[F');
		await press(' type:exec\r');
		await press('/');
		await press('vitest\r');
		await waitForFrame(view, frame => frame.includes('filter errors type:exec'));
		await press('C');
		const frame = await waitForFrame(view, frame => frame.includes('filter and search cleared'));
		expect(frame).not.toContain('filter errors');
		expect(frame).not.toContain('hidden');
		await press('/');
		expect(await waitForFrame(view, frame => frame.includes('type to search'))).toBeDefined();
		view.unmount();
	});

	it('/ reopens with the last query selected: what is typed replaces it', async () => {
		const {view, press} = open();
		await waitForFrame(view, frame => frame.includes('complete'));
		await press('/');
		await press('vitest\r');
		await press('/');
		await press('npm');
		expect(await waitForFrame(view, frame => /^\/npm /m.test(frame))).not.toContain('vitestnpm');
		view.unmount();
	});

	it('Ctrl-Z suspends whatever is open, a prompt included, and backspace goes back to the chooser', async () => {
		const {view, press, asked} = open();
		await waitForFrame(view, frame => frame.includes('complete'));
		await press('\u001A');
		await press('/');
		await press('ab');
		await press('\u001A');
		expect(asked).toEqual(['suspend', 'suspend']);
		// In the prompt, backspace edits the line.
		await press('\u007F');
		expect(asked).toEqual(['suspend', 'suspend']);
		await press(keys.escape);
		await press('\u007F');
		expect(asked).toEqual(['suspend', 'suspend', 'back']);
		view.unmount();
	});

	it('hands the prompt history on, and takes it back, so that it lasts from one job of the chooser to the next', async () => {
		const kept: Array<UiState['history']> = [];
		const first = open({onHistory: history => kept.push(history)});
		await waitForFrame(first.view, frame => frame.includes('complete'));
		await first.press('/');
		await first.press('vitest\r');
		first.view.unmount();
		expect(kept.at(-1)).toEqual({search: ['vitest'], filter: [], answer: []});

		const second = open({history: kept.at(-1)});
		await waitForFrame(second.view, frame => frame.includes('complete'));
		await second.press('/');
		await second.press(keys.up);
		await waitForFrame(second.view, frame => /^\/vitest /m.test(frame));
		second.view.unmount();
	});

	it("/ in the inspector finds in the inspector, not in the tree, and the tree's / works again once it closes", async () => {
		const {view, press} = open();
		await waitForFrame(view, frame => frame.includes('complete'));
		await press('/');
		await press('npm ci\r');
		await press(keys.enter);
		await waitForFrame(view, frame => frame.includes('Inspector'));
		await press('/');
		await press('npm');
		const inInspector = await waitForFrame(view, frame => /^\/npm +1\/\d+ · enter keep/m.test(frame));
		// The tree's search is untouched: its prompt is not open, its query is still `npm ci`.
		expect(inInspector).not.toContain('matches');
		await press(keys.enter);
		// Typed history is shared: ↑ at the inspector's / goes back through what was entered at either.
		await press('/');
		await press(keys.up);
		await press(keys.up);
		await waitForFrame(view, frame => /^\/npm ci +\d+\/\d+ · enter keep/m.test(frame));
		await press(keys.escape);
		await press(keys.escape);
		await waitForFrame(view, frame => !frame.includes('Inspector'));
		await press('/');
		await press('vitest');
		expect(await waitForFrame(view, frame => /^\/vitest +\d+\/\d+ matches/m.test(frame))).toBeDefined();
		view.unmount();
	});
});
