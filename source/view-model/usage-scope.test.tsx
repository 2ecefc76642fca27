import {describe, expect, it} from 'vitest';
import {waitForFrame} from '../../test/helpers/app.js';
import {modelFromFixtures, runByExpert} from '../../test/helpers/load.js';
import {renderView} from '../../test/helpers/views.js';
import type {Model} from '../model/state.js';
import {useUiState} from '../views/contexts.js';
import {UsageOverlay} from '../views/overlays.js';
import {usageScope} from './usage-scope.js';

function threeJobs(): Model {
	return modelFromFixtures('real/simple.ndjson', 'demo.ndjson', 'delegate-failure.ndjson');
}

/** The overlay at the scroll the UI state holds, as the app draws it. */
function Usage() {
	const {overlay} = useUiState();
	return <UsageOverlay scroll={overlay.kind === 'usage' ? overlay.scroll : 0} height={12} width={100} />;
}

function open(model: Model, selectedKey: string | undefined) {
	return renderView(<Usage />, {model, ui: {overlay: {kind: 'usage', scroll: 0}, selectedKey, follow: selectedKey === undefined}});
}

const experts = (frame: string) =>
	frame
		.split('\n')
		.slice(2)
		.flatMap(line => /^([a-z-]+) +\d+ /.exec(line)?.[1] ?? [])
		.sort();

describe('the usage overlay with several jobs', () => {
	it('adds up the job the selection is in, says which, and u switches to every job and back', async () => {
		const model = threeJobs();
		// The job's own row: its panes are folded under it, as a finished job's are.
		const view = open(model, `j:${runByExpert(model, 'code-reader').jobId}`);
		let frame = await waitForFrame(view, text => text.includes('Token usage'));
		expect(frame.split('\n')[0]).toBe(' Token usage per expert · job 2/3 · bugfix-lead');
		expect(experts(frame)).toEqual(['bugfix-lead', 'code-reader', 'test-runner']);
		expect(frame).toContain('u: all 3 jobs · share of the cost · esc close');

		await view.press('u');
		frame = await waitForFrame(view, text => text.split('\n')[0]!.includes('· all 3 jobs'));
		expect(frame.split('\n')[0]).toBe(' Token usage per expert · all 3 jobs');
		expect(experts(frame)).toEqual(['bugfix-lead', 'changelog-writer', 'code-reader', 'docs-checker', 'release-coordinator', 'simple-expert', 'test-runner']);
		expect(frame).toContain('u: job 2/3 only · ');
		expect(view.ui.getState().overlay.kind).toBe('usage');

		await view.press('u');
		frame = await waitForFrame(view, text => text.split('\n')[0]!.includes('job 2/3'));
		expect(experts(frame)).toEqual(['bugfix-lead', 'code-reader', 'test-runner']);
		view.unmount();
	});

	it('with nothing selected, is about the job that saw an event last', async () => {
		const view = open(threeJobs(), undefined);
		const frame = await waitForFrame(view, text => text.includes('Token usage'));
		expect(frame.split('\n')[0]).toMatch(/^ Token usage per expert · job \d\/3 · /);
		view.unmount();
	});

	it('names a hostile coordinator inert', async () => {
		const model = threeJobs();
		const run = runByExpert(model, 'simple-expert');
		run.expertKey = 'x\u001b[2Jy';
		const view = open(model, `j:${run.jobId}`);
		const frame = await waitForFrame(view, text => text.includes('Token usage'));
		expect(frame.split('\n')[0]).toBe(' Token usage per expert · job 1/3 · x␛[2Jy');
		view.unmount();
	});
});

describe('usageScope', () => {
	it('is nothing to choose with one job: the overlay stays as it was', () => {
		expect(usageScope(modelFromFixtures('demo.ndjson'), undefined, false)).toBeUndefined();
	});
});
