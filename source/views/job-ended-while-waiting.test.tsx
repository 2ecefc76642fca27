import {describe, expect, it} from 'vitest';
import {endInput} from '../model/state.js';
import {renderApp, waitForFrame} from '../../test/helpers/app.js';
import {modelFromFixtures} from '../../test/helpers/load.js';

describe('a job that died while its coordinator waited for delegates (#21.11)', () => {
	it('while the input may go on, the coordinator is shown waiting for its delegates', async () => {
		const app = renderApp(modelFromFixtures('delegate-failure.ndjson'));
		const frame = await waitForFrame(app, text => text.includes('release-coordinator'));
		expect(frame).toContain('waiting for delegates');
		expect(frame).not.toContain('job ended');
		app.unmount();
	});

	it('once the input has ended, the pane and the header say the job ended there, and which delegate failed', async () => {
		const model = modelFromFixtures('delegate-failure.ndjson');
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const app = renderApp(model);
		const frame = await waitForFrame(app, text => text.includes('✗ job ended here · '));
		expect(frame).toContain('changelog-writer failed: AI_APICallError: Overloaded');
		expect(frame).not.toContain('waiting for delegates');
		expect(frame.split('\n').slice(0, 2).join('\n')).toContain('job ended while waiting');
		app.unmount();
	});
});
