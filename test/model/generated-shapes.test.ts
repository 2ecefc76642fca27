import {describe, expect, it} from 'vitest';
import {modelFromText} from '../helpers/load.js';
import {jobTotals} from '../../source/query/tree.js';
import {shapeLines, type Shape} from '../../tools/shape-log.js';

/*
 * The generator's shapes end their steps as the Perstack runtime does (#33): the viewer and the summaries count
 * their steps and tokens as of a real log, where the tools shape used to read `1 step · tokens 0`.
 */

function totalsOf(shape: Shape, runs: number) {
	const model = modelFromText(`${[...shapeLines({shape, runs, seed: 1})].join('\n')}\n`);
	const job = [...model.jobs.values()][0]!;
	return {totals: jobTotals(model, job), model};
}

describe('the generator shapes count steps and tokens', () => {
	it('tools: every call is a step of its own and the completion one more, each with its tokens', () => {
		const {totals, model} = totalsOf('tools', 50);
		expect(totals.status).toBe('completed');
		expect(totals.steps).toBe(51);
		// 900 + index input tokens and 40 output tokens a step, index 0 to 50.
		expect(totals.usage.inputTokens).toBe(51 * 900 + (50 * 51) / 2);
		expect(totals.usage.outputTokens).toBe(51 * 40);
		expect(model.diagnostics).toEqual([]);
		expect(model.unknownEvents.size).toBe(0);
	});

	it('wide: each run ends its one step with its tokens', () => {
		const {totals} = totalsOf('wide', 10);
		expect(totals.stepsRun).toBe(10);
		expect(totals.usage.inputTokens).toBe(10 * 900 + 45);
		expect(totals.usage.outputTokens).toBe(400);
	});
});
