import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromText} from '../../../test/helpers/load.js';
import {flattenRows} from '../../../test/helpers/flatten-rows.js';
import {collect} from '../../../test/safety/heap.js';
import {expectEqual} from '../../../test/helpers/expect-same.js';
import {updateActivity} from '../../model/reduce/activities.js';
import {endInput, reopenInput, type Model} from '../../model/state.js';
import {emptyFilter, parseFilter, type Filter} from '../../query/filter.js';
import {shapeLines} from '../../../tools/shape-log.js';
import {Scheduler} from '../../slices/scheduler.js';
import {initialUiState, type UiState} from '../ui-state.js';
import {Layouts} from './layouts.js';
import {drain, PaneLists} from './pane-lists.js';
import {cutSteps} from './filter-cut.js';
import {Placement, placeSteps} from './placement.js';

/*
 * A live stream read on the viewer's thread changes one model in place, a frame at a time, mostly in its last
 * job. A placement of a later revision carries over the leading jobs that did not change since the last one
 * (placement.ts): the rows must be those a placement made afresh gives, whatever changed where, and the jobs
 * that did not change must not be placed again.
 */

function linesOf(name: string): string[] {
	return readFileSync(fixturePath(name), 'utf8')
		.split('\n')
		.filter(line => line !== '');
}

function filterOf(text: string): Filter {
	const parsed = parseFilter(text);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.filter;
}

/** Several jobs one after another, as a day's stream brings them, and a job continued after others began. */
const streams: Record<string, string[]> = {
	'three fixtures': [...linesOf('demo.ndjson'), ...linesOf('nested-delegate.ndjson'), ...linesOf('parallel-delegate.ndjson')],
	'a continued job after another': [...linesOf('continue-followup.ndjson'), ...linesOf('interactive.ndjson'), ...linesOf('delegate-failure.ndjson')],
	'shapes: a wide job, then a chain': [
		...[...shapeLines({shape: 'wide', runs: 8, seed: 3})].filter(line => line !== ''),
		...[...shapeLines({shape: 'chain', runs: 6, seed: 4})].filter(line => line !== ''),
	],
	'two jobs interleaved': interleave(linesOf('nested-delegate.ndjson'), linesOf('real/boss-nested-parallel.ndjson')),
};

function interleave(a: string[], b: string[]): string[] {
	const out: string[] = [];
	for (let k = 0; k < Math.max(a.length, b.length); k++) {
		if (k < a.length) out.push(a[k]!);
		if (k < b.length) out.push(b[k]!);
	}

	return out;
}

function foldsOf(model: Model, picks: number[], filter: Filter): UiState {
	const paneIds = [...model.panes.keys()];
	const collapsed = new Map<string, boolean>();
	for (const [n, pick] of picks.entries()) {
		const paneId = paneIds[pick % Math.max(1, paneIds.length)];
		if (paneId !== undefined) collapsed.set(paneId, n % 2 === 0);
	}

	return filter === emptyFilter
		? {...initialUiState, collapsed, defaultCollapse: 'auto', follow: false}
		: {...initialUiState, filter, filterFolds: {folds: collapsed, all: false}, defaultCollapse: 'auto', follow: false};
}

/** The model placed and cut by `filter` at 90 columns, each carried from `earlier` (a cut) and its base where they can be. */
function cutOf(model: Model, filter: Filter, earlier?: Placement): Placement {
	const lists = new PaneLists(model, model.rev);
	const base = new Placement(model, 90, lists, undefined);
	drain(placeSteps(base, earlier?.base));
	const filtered = new Placement(model, 90, lists, base);
	drain(cutSteps(filtered, filter, earlier));
	return filtered;
}

describe('a placement carried over from the revision before', () => {
	it('gives the rows a placement made afresh gives, as a stream of several jobs grows in place, the input ends and opens again', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...Object.keys(streams)),
				fc.array(fc.integer({min: 1, max: 12}), {minLength: 1, maxLength: 40}),
				fc.array(fc.nat(), {maxLength: 8}),
				fc.constantFrom(emptyFilter, filterOf('errors'), filterOf('type:delegate'), filterOf('-type:exec,query')),
				fc.constantFrom(80, 100),
				(name, chunks, picks, filter, otherWidth) => {
					const lines = streams[name]!;
					const rowsFor = new Layouts(new Scheduler()).rowsCache();
					let model: Model | undefined;
					let at = 0;
					for (const [step, size] of chunks.entries()) {
						if (at >= lines.length) break;
						model = modelFromText(`${lines.slice(at, at + size).join('\n')}\n`, model ? {model} : {});
						at += size;
						// The input's end changes what a pane waiting on its delegates says, in every job.
						if (step % 5 === 4) endInput(model, {exitCode: undefined, lastStderr: undefined});
						if (step % 5 === 0) reopenInput(model);
						const ui = foldsOf(model, picks, filter);
						// The terminal resized now and then: a placement of another width is not carried over.
						const width = step % 7 === 6 ? otherWidth : 90;
						const list = rowsFor(model, ui, width);
						const expected = flattenRows(model, ui, width);
						expectEqual(list.slice(0, 10_000), expected, `${name} after line ${at}`);
						// Keys are found through the nodes of panes (a filtered placement's through `fromBase`).
						for (const [position, row] of expected.entries()) if (row.kind !== 'live' && row.kind !== 'notice') expect(list.indexOfKey(row.key)).toBe(position);
					}
				},
			),
			{numRuns: 60},
		);
	});

	it('places again a job whose runtime changed though its runs did not: the resume command a waiting question shows names the runtime', () => {
		// The first 13 lines: a job stopped on a question, its resume command shown under it; then another job.
		const waiting = linesOf('interactive.ndjson').slice(0, 13);
		const other = linesOf('demo.ndjson');
		const model = modelFromText(`${[...waiting, ...other.slice(0, -1)].join('\n')}\n`);
		const rowsFor = new Layouts(new Scheduler()).rowsCache();
		const ui = foldsOf(model, [], emptyFilter);
		rowsFor(model, ui, 120);
		// A second revision: its placement marks the jobs, for the next to carry over.
		modelFromText(`${other.at(-1)!}\n`, {model});
		rowsFor(model, ui, 120);
		// The runtime of the first job said again, for a run not started: no run or pane changes.
		const init = JSON.parse(waiting[0]!) as Record<string, unknown>;
		modelFromText(`${JSON.stringify({...init, id: 'again', runId: 'not-started', runtime: 'docker'})}\n`, {model});
		const rows = rowsFor(model, ui, 120).slice(0, 10_000);
		expect(rows.some(row => row.kind === 'notice' && row.text.includes('--runtime docker'))).toBe(true);
		expectEqual(rows, flattenRows(model, ui, 120));
	});

	it('does not place again the jobs that did not change: the first job’s panes keep what they were placed with, the changed job’s are placed anew', () => {
		const first = linesOf('nested-delegate.ndjson');
		const second = linesOf('parallel-delegate.ndjson');
		const model = modelFromText(`${[...first, ...second.slice(0, 10)].join('\n')}\n`);
		const place = (earlier?: Placement): Placement => {
			const placement = new Placement(model, 90, new PaneLists(model, model.rev), undefined);
			drain(placeSteps(placement, earlier));
			return placement;
		};

		// The first layout of a model marks nothing: a model the load posts is never changed in place.
		const unmarked = place();
		expect(unmarked.jobMarks).toBeUndefined();
		const before = place(unmarked);
		modelFromText(`${second.slice(10, 20).join('\n')}\n`, {model});
		const after = place(before);
		const fresh = place();
		const [firstJob, secondJob] = [...model.jobs.values()];
		let carried = 0;
		for (const runId of firstJob!.runIds) {
			const paneId = model.runs.get(runId)!.paneId;
			// The same facts: carried, not placed again. A node of its own: the earlier layout may still be drawn.
			expect(after.byPane.get(paneId)!.facts).toBe(before.byPane.get(paneId)!.facts);
			expect(after.byPane.get(paneId)).not.toBe(before.byPane.get(paneId));
			carried++;
		}

		expect(carried).toBeGreaterThan(1);
		for (const runId of secondJob!.runIds) {
			const paneId = model.runs.get(runId)!.paneId;
			expect(after.byPane.get(paneId)!.facts).not.toBe(before.byPane.get(paneId)?.facts);
		}

		// And what it carried is what placing afresh finds, node for node.
		const shape = (placement: Placement) =>
			placement.order.map(node => [node.pane.paneId, node.no, node.slot, node.parent?.no, node.acts, node.tail, node.childAfter, node.jobId]);
		expectEqual(shape(after), shape(fresh));
		expectEqual([...after.nodeOfActivity!], [...fresh.nodeOfActivity!]);
		expectEqual(after.parentNo, fresh.parentNo);
		expectEqual([...after.topSlotOfJob], [...fresh.topSlotOfJob]);
	});

	it('carries the jobs a filter cut as it did, and cuts anew a job whose activity the filter now matches though its runs did not change', () => {
		const first = linesOf('nested-delegate.ndjson');
		const second = linesOf('parallel-delegate.ndjson');
		const model = modelFromText(`${[...first, ...second.slice(0, 10)].join('\n')}\n`);
		const cut = (filter: Filter, earlier?: Placement): Placement => cutOf(model, filter, earlier);

		const shape = (placement: Placement) =>
			placement.order.map(node => [node.pane.paneId, node.no, node.slot, node.parent?.no, node.acts, node.tail, node.childAfter, node.jobId]);
		const [firstJob] = [...model.jobs.values()];
		const firstPanes = new Set(firstJob!.runIds.map(runId => model.runs.get(runId)!.paneId));
		const inFirstJob = (placement: Placement) => placement.order.filter(node => firstPanes.has(node.pane.paneId));
		// The first cut of a model marks nothing: a model the load posts is never changed in place.
		const delegations = filterOf('type:delegate');
		const before = cut(delegations, cut(delegations));
		modelFromText(`${second.slice(10, 20).join('\n')}\n`, {model});
		const after = cut(delegations, before);
		expect(inFirstJob(after).length).toBeGreaterThan(1);
		for (const node of inFirstJob(after)) {
			const earlier = before.nodeOf(node.pane.paneId)!;
			// The same facts and activities: carried, not cut again. A node of its own: the earlier layout may still be drawn.
			expect(node.facts).toBe(earlier.facts);
			expect(node.acts).toBe(earlier.acts);
			expect(node).not.toBe(earlier);
		}

		// And what it carried is what cutting afresh gives, node for node.
		expectEqual(shape(after), shape(cut(delegations)));

		// Calls of the first job fail now, and nothing else changes in its runs (the reducer moves a run's `rev` with its
		// activities; the cut does not count on it): the filter shows them, and the job is cut again.
		const calls = model.activities.flatMap((activity, index) =>
			'result' in activity && activity.result !== undefined && firstPanes.has(model.runs.get(activity.runId)!.paneId) ? [index] : [],
		);
		const paneOf = (index: number) => model.runs.get(model.activities[index]!.runId)!.paneId;
		const [one, two] = calls.filter(index => paneOf(index) === paneOf(calls[0]!));
		if (one === undefined || two === undefined) throw new Error('no pane of the first job with two calls');
		const fail = (index: number): void => {
			const call = model.activities[index]!;
			if ('result' in call && call.result) updateActivity(model, call, {result: {...call.result, error: 'failed after all'}});
		};

		const errors = filterOf('errors');
		let earlier = cut(errors, cut(errors));
		// The first shows the pane; the second only one more of its activities.
		for (const [k, index] of [one, two].entries()) {
			modelFromText(`${second.slice(20 + 5 * k, 25 + 5 * k).join('\n')}\n`, {model});
			fail(index);
			const failed = cut(errors, earlier);
			expect(inFirstJob(failed).some(node => node.acts.includes(index))).toBe(true);
			expectEqual(shape(failed), shape(cut(errors)));
			earlier = failed;
		}
	});

	// The soak of #33 grew by 160 MB more when each placement kept the one it carried from: every layout of the day.
	it('keeps no earlier placement alive: a layout carried over, filtered or not, holds nothing of those before it', async () => {
		const first = linesOf('nested-delegate.ndjson');
		const lines = linesOf('parallel-delegate.ndjson');
		// The first job whole: each cut carries it over from the one before.
		const model = modelFromText(`${[...first, ...lines.slice(0, 5)].join('\n')}\n`);
		const delegations = filterOf('type:delegate');
		const cut = (earlier?: Placement): Placement => cutOf(model, delegations, earlier);

		let latest = cut(cut());
		const firstCut = new WeakRef(latest);
		const firstBase = new WeakRef(latest.base!);
		for (let at = 5; at < lines.length; at += 5) {
			modelFromText(`${lines.slice(at, at + 5).join('\n')}\n`, {model});
			latest = cut(latest);
		}

		// A WeakRef's target stays alive until the task that made it ends.
		await new Promise(resolve => setImmediate(resolve));
		collect();
		expect(latest.order.length).toBeGreaterThan(1);
		expect(firstCut.deref()).toBeUndefined();
		expect(firstBase.deref()).toBeUndefined();
	});
});
