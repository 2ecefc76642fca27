import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {fixturePath, modelFromText} from '../../../test/helpers/load.js';
import type {Model} from '../../model/state.js';
import {emptyFilter, filterMatches, matches, parseFilter, type Filter} from '../../query/filter.js';
import {shapeLines} from '../../../tools/shape-log.js';
import {buildRows} from '../tree/rows.js';
import {initialUiState} from '../ui-state.js';
import {ViewerWork} from '../viewer-work.js';
import {filteringStatus} from './search-status.js';
import {manualScheduler, type ManualScheduler} from '../../../test/helpers/manual-scheduler.js';

/*
 * A filter's Enter worked out in slices against the blocking filter: for fixtures and generated shapes, with any
 * number of slices and the model growing between them, the filter is applied once, with exactly the bitmap and
 * the rows the filter worked out in one go gives on the final model.
 */

const fixtures = ['demo.ndjson', 'nested-delegate.ndjson', 'parallel-delegate.ndjson', 'delegate-failure.ndjson', 'real/tools.ndjson'];
const fixtureLines = new Map(
	fixtures.map(name => [
		name,
		readFileSync(fixturePath(name), 'utf8')
			.split('\n')
			.filter(line => line !== ''),
	]),
);

function filterOf(text: string): Filter {
	const parsed = parseFilter(text);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.filter;
}

const filterTexts = ['type:exec', '-errors', 'test', 'run-1', 'errors', 'step:2-5 -type:query', 'nothing-like-this'];

const logs = fc.oneof(
	fc.subarray(fixtures, {minLength: 1, maxLength: 3}).map(names => names.flatMap(name => fixtureLines.get(name)!)),
	fc
		.record({
			shape: fc.constantFrom('tools' as const, 'wide' as const, 'chain' as const),
			runs: fc.integer({min: 200, max: 900}),
			seed: fc.integer({min: 1, max: 1000}),
		})
		.map(options => [...shapeLines(options)]),
);

function load(lines: string[], model?: Model): Model {
	return modelFromText(lines.join('\n') + '\n', model ? {model} : {});
}

/** The tree as the viewer first shows it, unfiltered: the layout a filter's is cut from, at the tree's width. */
function showTree(work: ViewerWork, model: Model): void {
	work.layouts.rowsCache()(model, initialUiState, 100);
}

/** The generator's wide shape of 3,000 runs, its tree shown, and the viewer's work on a scheduler a test steps by hand. */
function wideLog(seed: number, firstSlice = 0): {model: Model; scheduler: ManualScheduler; work: ViewerWork} {
	const model = load([...shapeLines({shape: 'wide', runs: 3000, seed})]);
	const scheduler = manualScheduler({tick: 100, firstSlice});
	const work = new ViewerWork(scheduler);
	showTree(work, model);
	return {model, scheduler, work};
}

function referenceBits(model: Model, filter: Filter): number[] {
	return model.activities.map(activity => (matches(filter, activity, model) ? 1 : 0));
}

describe("a filter's Enter in slices", () => {
	it('applies the filter once, with the bitmap and rows of the filter worked out in one go, the model growing between slices', () => {
		fc.assert(
			fc.property(
				logs,
				fc.constantFrom(...filterTexts),
				fc.integer({min: 0, max: 6}),
				fc.double({min: 0.2, max: 1, noNaN: true}),
				(lines, text, before, cut) => {
					const split = Math.max(1, Math.ceil(lines.length * cut));
					const model = load(lines.slice(0, split));
					const scheduler = manualScheduler({tick: 100, firstSlice: 0});
					const work = new ViewerWork(scheduler);
					showTree(work, model);
					const filter = filterOf(text);
					let current: Filter = emptyFilter;
					const applied: Filter[] = [];
					work.filters.whenReady({
						filter,
						model: () => model,
						current: () => current,
						apply(next) {
							applied.push(next);
							current = next;
						},
					});
					scheduler.runSome(before);
					if (split < lines.length) load(lines.slice(split), model);
					scheduler.runAll();
					expect(applied).toEqual([filter]);
					expect(work.filters.progressOf()).toBeUndefined();
					const fresh = load(lines);
					expect([...filterMatches(model, filter).shown]).toEqual(referenceBits(fresh, filter));
					const ui = {...initialUiState, filter};
					const rows = work.layouts.rowsCache()(model, ui, 100);
					expect(rows.slice(0, rows.length)).toEqual(buildRows(fresh, ui, 100));
				},
			),
			{numRuns: 40},
		);
	});

	it('goes on in slices on a large log, says how far it has got, and keeps the old filter until it is done', () => {
		const {model, scheduler, work} = wideLog(7);
		let current: Filter = emptyFilter;
		const filter = filterOf('run-1');
		work.filters.whenReady({filter, model: () => model, current: () => current, apply: next => (current = next)});
		expect(current).toBe(emptyFilter);
		const shares: number[] = [];
		while (scheduler.waiting() > 0) {
			shares.push(work.filters.progressOf()!.share);
			expect(current).toBe(emptyFilter);
			scheduler.runSome(1);
		}

		expect(current).toBe(filter);
		expect(shares.length).toBeGreaterThan(3);
		expect(shares).toEqual([...shares].sort((a, b) => a - b));
		expect(filteringStatus(shares[1]!)).toMatch(/^filtering… \d+%$/);
	});

	it('a newer filter change cancels the one in progress: another Enter takes its place, C or x drops it', () => {
		const {model, scheduler, work} = wideLog(8);
		let current: Filter = emptyFilter;
		const applied: Filter[] = [];
		const request = (filter: Filter) => ({
			filter,
			model: () => model,
			current: () => current,
			apply(next: Filter) {
				applied.push(next);
				current = next;
			},
		});
		const first = filterOf('run-1');
		const second = filterOf('type:delegate');
		work.filters.whenReady(request(first));
		scheduler.runSome(2);
		work.filters.whenReady(request(second));
		scheduler.runAll();
		expect(applied).toEqual([second]);

		// `x` changes the filter meanwhile (without going through here): the one in progress is dropped.
		work.filters.whenReady(request(filterOf('exec')));
		scheduler.runSome(1);
		current = filterOf('errors');
		scheduler.runAll();
		expect(applied).toEqual([second]);
		expect(work.filters.progressOf()).toBeUndefined();
	});

	it("the key itself does one slice of at least the first slice's activities, and leaves the rest", () => {
		const {model, scheduler, work} = wideLog(9, 1500);
		let current: Filter = emptyFilter;
		work.filters.whenReady({filter: filterOf('run-1'), model: () => model, current: () => current, apply: next => (current = next)});
		const share = work.filters.progressOf()!.share;
		expect(share).toBeGreaterThan(0);
		expect(share).toBeLessThan(0.9 * ((1500 + 1024) / model.activities.length));
		expect(current).toBe(emptyFilter);
		scheduler.runAll();
		expect(work.filters.progressOf()).toBeUndefined();
	});

	it('a small log is filtered on the key itself, as before', () => {
		const model = load(fixtureLines.get('demo.ndjson')!);
		const work = new ViewerWork();
		showTree(work, model);
		let current: Filter = emptyFilter;
		const filter = filterOf('type:exec');
		work.filters.whenReady({filter, model: () => model, current: () => current, apply: next => (current = next)});
		expect(current).toBe(filter);
		expect(work.filters.progressOf()).toBeUndefined();
	});

	it("is applied on the key itself, whatever the log's size, when a load on the viewer's thread changes the model in place (#33)", () => {
		const {model, scheduler, work} = wideLog(9);
		let current: Filter = emptyFilter;
		const filter = filterOf('run-1');
		work.filters.whenReady({filter, model: () => model, current: () => current, apply: next => (current = next), changesInPlace: true});
		expect(current).toBe(filter);
		expect(work.filters.progressOf()).toBeUndefined();
		expect(scheduler.waiting()).toBe(0);
		const fresh = load([...shapeLines({shape: 'wide', runs: 3000, seed: 9})]);
		expect([...filterMatches(model, filter).shown]).toEqual(referenceBits(fresh, filter));
		const ui = {...initialUiState, filter};
		const rows = work.layouts.rowsCache()(model, ui, 100);
		expect(rows.slice(0, rows.length)).toEqual(buildRows(fresh, ui, 100));
	});

	it("is applied on a live stream read on the viewer's thread, whose model changes between any two slices (#33)", () => {
		const {model, scheduler, work} = wideLog(9);
		let current: Filter = emptyFilter;
		const filter = filterOf('run-1');
		work.filters.whenReady({filter, model: () => model, current: () => current, apply: next => (current = next)});
		// An event arrives between every two slices, as a pipe's chunks do between the viewer's turns: before, the
		// layout made ahead was stale at each slice, started again, and the filter was never applied.
		let arrived = 0;
		while (scheduler.waiting() > 0 && arrived < 2000) {
			scheduler.runSome(1);
			arrived++;
			const runId = `live-${arrived}`;
			load(
				[
					JSON.stringify({
						type: 'startRun',
						id: runId,
						timestamp: 1_795_500_000_000 + arrived,
						jobId: 'job-live',
						runId,
						expertKey: 'live',
						stepNumber: 1,
						initialCheckpoint: {id: `cp-${runId}`, runId, status: 'init', stepNumber: 1, expert: {key: 'live'}},
					}),
				],
				model,
			);
		}

		expect(current).toBe(filter);
		expect(arrived).toBeLessThan(2000);
		expect(work.filters.progressOf()).toBeUndefined();
		const ui = {...initialUiState, filter};
		const rows = work.layouts.rowsCache()(model, ui, 100);
		expect(rows.slice(0, rows.length)).toEqual(buildRows(model, ui, 100));
	});
});
