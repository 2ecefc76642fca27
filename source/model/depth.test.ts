import {describe, expect, it} from 'vitest';
import {modelFromText} from '../../test/helpers/load.js';
import {shapeLines, type Shape} from '../../tools/shape-log.js';
import {depthOf, isRootPane, panesInTreeOrder, runsInTreeOrder} from '../query/tree.js';
import type {Model, Run} from './state.js';

/*
 * Delegation cycles are broken where their last link closes them, and depths stay right whatever order the
 * runs of a tree arrive in (issue #22).
 */

function lines(shape: Shape, runs: number, seed = 1): string[] {
	return [...shapeLines({shape, runs, seed})];
}

function modelOf(eventLines: string[]): Model {
	return modelFromText(eventLines.join('\n') + '\n');
}

function run(model: Model, runId: string): Run {
	const found = model.runs.get(runId);
	if (!found) throw new Error(`no run ${runId}`);
	return found;
}

/** Depth by walking up the links, the slow way, stopping at a link that closes a cycle. */
function walkedDepth(model: Model, start: Run): number {
	let depth = 0;
	let head = model.runs.get(start.paneId) ?? start;
	while (head.parentRunId !== null && !head.closesCycle) {
		const parent = model.runs.get(head.parentRunId);
		if (!parent) break;
		head = model.runs.get(parent.paneId) ?? parent;
		depth++;
	}

	return depth;
}

/** Seeded shuffle, so out-of-order arrival is the same every time. */
function shuffled<T>(items: T[], seed: number): T[] {
	const out = [...items];
	let state = seed;
	for (let i = out.length - 1; i > 0; i--) {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		const j = state % (i + 1);
		[out[i], out[j]] = [out[j]!, out[i]!];
	}

	return out;
}

describe('a delegation ring', () => {
	it('is broken at the run whose parent link closes it: that run keeps its parent but is shown as a root', () => {
		const model = modelOf(lines('ring', 3));
		expect([...model.runs.values()].filter(each => each.closesCycle).map(each => each.runId)).toEqual(['run-2']);
		const closing = run(model, 'run-2');
		expect(closing.parentRunId).toBe('run-0');
		expect(run(model, 'run-0').childRunIds).not.toContain('run-2');
		expect(isRootPane(model, model.panes.get('run-2')!)).toBe(true);
		const job = model.jobs.get('job-ring')!;
		expect(panesInTreeOrder(model, job).map(node => [node.pane.paneId, node.depth, node.cycle])).toEqual([
			['run-2', 0, true],
			['run-1', 1, false],
			['run-0', 2, false],
		]);
		expect(runsInTreeOrder(model, job).map(each => [each.runId, depthOf(model, each)])).toEqual([
			['run-2', 0],
			['run-1', 1],
			['run-0', 2],
		]);
	});

	it('of two runs, and in any order of arrival, still shows every run exactly once', () => {
		for (const order of [lines('ring', 2), lines('ring', 2).reverse(), ...[1, 2, 3].map(seed => shuffled(lines('ring', 7), seed))]) {
			const model = modelOf(order);
			const job = [...model.jobs.values()][0]!;
			const shown = runsInTreeOrder(model, job).map(each => each.runId);
			expect(new Set(shown).size).toBe(model.runs.size);
			expect(shown).toHaveLength(model.runs.size);
			expect([...model.runs.values()].filter(each => each.closesCycle)).toHaveLength(1);
		}
	});
});

describe('depths', () => {
	it.each([
		['in order', (items: string[]) => items],
		['leaves first', (items: string[]) => [...items].reverse()],
		['shuffled', (items: string[]) => shuffled(items, 7)],
	])('of a chain and of a random tree arriving %s are the depths of the links', (_order, arrange) => {
		for (const shape of ['chain', 'tree'] as const) {
			const model = modelOf(arrange(lines(shape, 500, 3)));
			for (const each of model.runs.values()) expect(depthOf(model, each)).toBe(walkedDepth(model, each));
		}
	});

	// How long a deep chain takes is measured by `npm run bench` (its hostile shapes), not by a timed unit test.
	it('of a chain 20,000 runs deep that arrives leaves first are right for every run', () => {
		const model = modelOf(lines('chain', 20_000).reverse());
		expect(depthOf(model, run(model, 'run-19999'))).toBe(19_999);
		for (let index = 0; index < 20_000; index += 997) expect(depthOf(model, run(model, `run-${index}`))).toBe(index);
	});
});
