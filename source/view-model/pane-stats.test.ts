import {describe, expect, it} from 'vitest';
import {modelFromFixtures, runByExpert} from '../../test/helpers/load.js';
import type {Model, Pane} from '../model/state.js';
import {paneStats} from './pane-stats.js';

describe('paneStats', () => {
	it('adds the runs of a resumed coordinator together, timed from the first start to the last end', () => {
		const model = modelFromFixtures('demo.ndjson');
		const first = runByExpert(model, 'bugfix-lead', 0);
		const resumed = runByExpert(model, 'bugfix-lead', 1);
		expect(paneStats(model, paneOf(model, 'bugfix-lead'))).toEqual({
			steps: 10,
			inputTokens: first.usage.inputTokens + resumed.usage.inputTokens,
			outputTokens: first.usage.outputTokens + resumed.usage.outputTokens,
			durationMs: resumed.endedAt! - first.startedAt!,
		});
	});

	it('takes a run whose events carry no time as long as its runtime reported (Claude Code 2.0: its result, 1,889 ms)', () => {
		const model = modelFromFixtures('claude-code/agentcmd-simple-cc2.0.28.ndjson');
		expect(paneStats(model, paneOf(model, 'claude')).durationMs).toBe(1889);
	});
});

function paneOf(model: Model, expertKey: string): Pane {
	const pane = model.panes.get(runByExpert(model, expertKey).paneId);
	if (!pane) throw new Error(`no pane for ${expertKey}`);
	return pane;
}
