import {describe, expect, it} from 'vitest';
import {modelFromFixtures} from '../helpers/load.js';
import {keys, renderApp, waitForFrame} from '../helpers/app.js';

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
