import {describe, expect, it} from 'vitest';
import {modelFromFixtures, modelFromText} from '../../test/helpers/load.js';
import {createModel, endInput} from '../model/state.js';
import {renderApp, sourceState, waitForFrame} from '../../test/helpers/app.js';

describe('the viewer', () => {
	it('moves the selection and expands a finished child with the keys', async () => {
		const app = renderApp(modelFromFixtures('real/delegate.ndjson'));
		await waitForFrame(app, frame => frame.includes('▸ child-expert'));
		await app.press('kkk');
		await app.press('l');
		const frame = await waitForFrame(app, frame => frame.includes('▾ child-expert'));
		expect(frame).toContain('📁 list .');
		expect(frame).toContain('paused');
		app.unmount();
	});
});

describe('the viewer before the first events', () => {
	it('says it is waiting for events from a live source, and reading while a file loads', async () => {
		const waiting = renderApp(createModel(), {sources: [sourceState({label: 'stdin', kind: 'stdin', live: true, bytesTotal: undefined})]});
		const idle = await waitForFrame(waiting, frame => frame.includes('Waiting for events…'));
		expect(idle.split('\n')[0]).toMatch(/ · \S waiting for events · /);
		waiting.unmount();

		const loading = renderApp(createModel(), {sources: [sourceState({live: true, bytesRead: 40 * 1024 * 1024, bytesTotal: 124 * 1024 * 1024})]});
		const frame = await waitForFrame(loading, frame => frame.includes('Reading…'));
		expect(frame.split('\n')[0]).toMatch(/ · \S reading · /);
		expect(frame).not.toContain('waiting for events');
		loading.unmount();
	});
});

describe('the viewer once the input has ended with nothing to show', () => {
	it('says there were no events in the file, and how many lines were bad, instead of waiting for events', async () => {
		const empty = createModel();
		endInput(empty, {exitCode: undefined, lastStderr: undefined});
		const none = renderApp(empty, {sources: [sourceState({label: 'logs/empty.ndjson'})], label: 'logs/empty.ndjson'});
		const frame = await waitForFrame(none, text => text.includes('no events in empty.ndjson'));
		expect(frame).not.toContain('Waiting for events');
		expect(frame.split('\n')[0]).toMatch(/ · \S no events · /);
		none.unmount();

		const bad = modelFromText('not json\n{"x":1}\nworse\n');
		endInput(bad, {exitCode: undefined, lastStderr: undefined});
		const piped = renderApp(bad, {sources: [sourceState({label: 'stdin', kind: 'stdin', bytesTotal: undefined})], label: 'stdin'});
		expect(await waitForFrame(piped, text => text.includes('no events from stdin · 3 bad lines: d'))).not.toContain('Waiting for events');
		piped.unmount();
	});
});
