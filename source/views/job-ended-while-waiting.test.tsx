import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {endInput} from '../model/state.js';
import {renderApp, waitForFrame} from '../../test/helpers/app.js';
import {fixturePath, modelFromFixtures, modelFromText} from '../../test/helpers/load.js';

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

/**
 * delegate-failure.ndjson with changelog-writer stopping at the job's step limit instead of by error: its
 * `stopRunByError` (step 4) becomes a `stopRunByExceededMaxSteps`, its checkpoint's status to match, and the
 * runtime's `maxSteps` (each run's `initializeRuntime`) is 4. docs-checker still completes at step 4; the
 * coordinator is still never resumed.
 */
function delegateAtMaxSteps(): string {
	return readFileSync(fixturePath('delegate-failure.ndjson'), 'utf8')
		.split('\n')
		.filter(line => line !== '')
		.map(line => {
			const event = JSON.parse(line) as Record<string, unknown> & {checkpoint?: Record<string, unknown>};
			if (event['type'] === 'initializeRuntime') return JSON.stringify({...event, maxSteps: 4});
			if (event['type'] !== 'stopRunByError') return line;
			const {error: _error, ...rest} = event;
			return JSON.stringify({...rest, type: 'stopRunByExceededMaxSteps', checkpoint: {...event.checkpoint, status: 'stoppedByExceededMaxSteps'}});
		})
		.join('\n');
}

describe('a job whose delegate stopped at max steps while its coordinator waited', () => {
	it('once the input has ended, the header, the coordinator’s pane and the delegation say the delegate stopped at max steps', async () => {
		const model = modelFromText(delegateAtMaxSteps() + '\n');
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const app = renderApp(model);
		const frame = await waitForFrame(app, text => text.includes('✗ job ended here · '));
		const lines = frame.split('\n');
		// The job's highest step is 4 (both delegates' last), its limit 4.
		expect(lines[0]).toMatch(/^perscope · ✗ job ended while waiting · job sm8w3d6nos5n · \S+ · stopped at max steps: 4 of 4 · /);
		expect(lines.find(line => line.includes('🤝 delegate changelog-writer'))).toMatch(/✗ stopped at max steps$/);
		expect(lines.find(line => line.includes('▸ changelog-writer'))).toContain('⏹ max steps');
		expect(frame).toContain('✗ job ended here · changelog-writer stopped at max steps');
		app.unmount();
	});
});
