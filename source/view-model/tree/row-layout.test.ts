import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {isDeepStrictEqual as isEqual} from 'node:util';
import {fixturePath, modelFromText} from '../../../test/helpers/load.js';
import {flattenRows} from '../../../test/helpers/flatten-rows.js';
import {expectEqual} from '../../../test/helpers/expect-same.js';
import type {Model} from '../../model/state.js';
import {emptyFilter, parseFilter, type Filter} from '../../query/filter.js';
import {prepareTexts} from '../../query/search.js';
import {shapeLines} from '../../../tools/shape-log.js';
import {isSelectableRow, selectedRowIndex} from './rows.js';
import {Layouts, type TreeRows} from './layouts.js';
import {Scheduler} from '../../slices/scheduler.js';
import {manualScheduler} from '../../../test/helpers/manual-scheduler.js';
import {initialUiState, type UiState} from '../ui-state.js';

/** A rows cache of a viewer of its own. */
function rowsCache(...args: Parameters<Layouts['rowsCache']>): TreeRows {
	return new Layouts(new Scheduler()).rowsCache(...args);
}

/*
 * The row index against the flattening it replaced (test/helpers/flatten-rows.ts): for any log, any moment of
 * its load, any folds and any filter, the same rows in the same places, and every key found where it is.
 */

const fixtures = [
	'demo.ndjson',
	'nested-delegate.ndjson',
	'parallel-delegate.ndjson',
	'interactive.ndjson',
	'delegate-failure.ndjson',
	'streaming.ndjson',
	'continue-followup.ndjson',
	'retry.ndjson',
	'real/boss-nested-parallel.ndjson',
];
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

const filters = [
	emptyFilter,
	filterOf('errors'),
	filterOf('type:exec'),
	filterOf('type:delegate'),
	filterOf('nothing-at-all-matches'),
	filterOf('test'),
	filterOf('-read expert'),
];

/** A log: a fixture cut after some of its lines (a load in progress), several together, or a shape. */
const logs = fc.oneof(
	fc.record({name: fc.constantFrom(...fixtures), cut: fc.double({min: 0.05, max: 1, noNaN: true})}).map(({name, cut}) => {
		const lines = fixtureLines.get(name)!;
		return lines.slice(0, Math.max(1, Math.ceil(lines.length * cut))).join('\n') + '\n';
	}),
	fc.subarray(fixtures, {minLength: 2, maxLength: 3}).map(names => names.map(name => fixtureLines.get(name)!.join('\n')).join('\n') + '\n'),
	fc
		.record({
			shape: fc.constantFrom('chain' as const, 'ring' as const, 'tree' as const, 'wide' as const),
			runs: fc.integer({min: 2, max: 40}),
			seed: fc.integer({min: 1, max: 1000}),
		})
		.map(options => [...shapeLines(options)].join('\n') + '\n'),
);

function foldsFor(model: Model, picks: number[], defaultCollapse: UiState['defaultCollapse'], filter: Filter, all: boolean): UiState {
	const paneIds = [...model.panes.keys()];
	const folds = new Map<string, boolean>();
	for (const [n, pick] of picks.entries()) {
		const paneId = paneIds[pick % Math.max(1, paneIds.length)];
		if (paneId !== undefined) folds.set(paneId, n % 2 === 0);
	}

	// Jobs fold too (several fixtures together make several jobs): every third pick folds or opens one.
	const jobIds = [...model.jobs.keys()];
	const jobs = new Map<string, boolean>();
	for (const [n, pick] of picks.entries()) if (n % 3 === 0 && jobIds.length > 0) jobs.set(jobIds[pick % jobIds.length]!, pick % 2 === 0);
	return filter === emptyFilter
		? {...initialUiState, collapsed: folds, jobFolds: {...initialUiState.jobFolds, folds: jobs}, defaultCollapse, follow: false}
		: {...initialUiState, filter, filterFolds: {folds, all}, jobFolds: {...initialUiState.jobFolds, filtering: jobs}, defaultCollapse, follow: false};
}

describe('the row index', () => {
	it('gives the rows, the positions of keys and the counts that flattening the whole tree gives', () => {
		fc.assert(
			fc.property(
				logs,
				fc.array(fc.nat(), {maxLength: 12}),
				fc.constantFrom('auto' as const, 'expanded' as const, 'collapsed' as const),
				fc.constantFrom(...filters),
				fc.boolean(),
				fc.integer({min: 20, max: 160}),
				fc.option(fc.integer({min: 20, max: 160})),
				(text, picks, defaultCollapse, filter, all, width, unfilteredWidth) => {
					const model = modelFromText(text);
					const ui = foldsFor(model, picks, defaultCollapse, filter, all);
					const expected = flattenRows(model, ui, width);
					const rowsFor = rowsCache();
					// A filtered layout is cut from the unfiltered one, which the viewer has mostly laid out
					// already, maybe at another width (the terminal resized since).
					if (unfilteredWidth !== null) rowsFor(model, {...ui, filter: emptyFilter}, unfilteredWidth);
					const list = rowsFor(model, ui, width);
					expect(list.length).toBe(expected.length);
					expect(list.slice(0, list.length)).toEqual(expected);
					for (const [at, row] of expected.entries()) {
						expect(list.at(at)).toEqual(row);
						expect(list.indexOfKey(row.key)).toBe(at);
					}

					// Any window, as the screen asks for one.
					for (let from = 0; from < expected.length; from += 7) expect(list.slice(from, from + 5)).toEqual(expected.slice(from, from + 5));
					expect(list.at(expected.length)).toBeUndefined();
					expect(list.indexOfKey('p:no-such-pane')).toBe(-1);
				},
			),
			{numRuns: 150},
		);
	});

	it('gives the same rows and positions asked in any order between folds, from the places its walks noted (a chain walked once per fold, #33)', () => {
		// One rows cache over several folds in turn: each ask may start from what an ask before it found under the
		// same folds, and nothing found under folds before them may be used.
		const asks = fc.array(
			fc.oneof(
				fc.record({kind: fc.constant('at' as const), pick: fc.nat()}),
				fc.record({kind: fc.constant('slice' as const), pick: fc.nat(), size: fc.integer({min: 1, max: 9})}),
				fc.record({kind: fc.constant('key' as const), pick: fc.nat()}),
				fc.record({
					kind: fc.constant('fold' as const),
					picks: fc.array(fc.nat(), {maxLength: 6}),
					all: fc.constantFrom('auto' as const, 'expanded' as const, 'collapsed' as const),
				}),
			),
			{minLength: 1, maxLength: 40},
		);
		fc.assert(
			fc.property(
				fc.record({
					shape: fc.constantFrom('chain' as const, 'tree' as const, 'wide' as const),
					runs: fc.integer({min: 2, max: 40}),
					seed: fc.integer({min: 1, max: 1000}),
				}),
				asks,
				fc.constantFrom(...filters),
				(options, steps, filter) => {
					const model = modelFromText([...shapeLines(options)].join('\n') + '\n');
					const rowsFor = rowsCache();
					let ui = foldsFor(model, [], 'expanded', filter, false);
					let expected = flattenRows(model, ui, 100);
					for (const step of steps) {
						const list = rowsFor(model, ui, 100);
						const size = Math.max(1, expected.length);
						switch (step.kind) {
							case 'fold': {
								ui = foldsFor(model, step.picks, step.all, filter, false);
								expected = flattenRows(model, ui, 100);
								expect(rowsFor(model, ui, 100).length).toBe(expected.length);
								break;
							}

							case 'at': {
								expect(list.at(step.pick % size)).toEqual(expected[step.pick % size]);
								break;
							}

							case 'slice': {
								const from = step.pick % size;
								expect(list.slice(from, from + step.size)).toEqual(expected.slice(from, from + step.size));
								break;
							}

							case 'key': {
								const row = expected[step.pick % size];
								if (row) expect(list.indexOfKey(row.key)).toBe(step.pick % size);
								break;
							}
						}
					}
				},
			),
			{numRuns: 150},
		);
	});

	it('follows one model as it grows (the same object, a new revision each event), with texts made ahead or not', () => {
		for (const name of ['parallel-delegate.ndjson', 'nested-delegate.ndjson', 'demo.ndjson']) {
			const lines = fixtureLines.get(name)!;
			let model: Model | undefined;
			const rowsFor = rowsCache();
			for (const [at, line] of lines.entries()) {
				model = modelFromText(`${line}\n`, model ? {model} : {});
				// Texts made ahead at some revisions only: the filter then meets texts made at an older one.
				if (at % 3 === 0) prepareTexts(model, 0, () => false);
				for (const filter of [emptyFilter, filterOf('test'), filterOf('type:exec')]) {
					const ui = foldsFor(model, [], 'expanded', filter, false);
					expectEqual(rowsFor(model, ui, 100).slice(0, 10_000), flattenRows(model, ui, 100), `${name} line ${at}`);
				}
			}
		}
	});

	it('follows a live stream whose runs link up late, resume, and start jobs, though each revision takes over the pane lists of the one before', () => {
		// Lines in an order a live stream can bring them: children before their parents, a resumed run, a second job.
		const shapes = [
			['wide', 12],
			['tree', 20],
			['ring', 6],
			['chain', 15],
		] as const;
		const logs = [
			...fixtures.map(name => fixtureLines.get(name)!),
			[...fixtureLines.get('nested-delegate.ndjson')!].reverse(),
			[...fixtureLines.get('continue-followup.ndjson')!, ...fixtureLines.get('interactive.ndjson')!],
			...shapes.map(([shape, runs]) => [...shapeLines({shape, runs, seed: 7})].filter(line => line !== '')),
			readFileSync(fixturePath('branches/3-resume-from.ndjson'), 'utf8')
				.split('\n')
				.filter(line => line !== ''),
		];
		for (const [n, lines] of logs.entries()) {
			let model: Model | undefined;
			const rowsFor = rowsCache();
			for (const [at, line] of lines.entries()) {
				model = modelFromText(`${line}\n`, model ? {model} : {});
				for (const filter of [emptyFilter, filterOf('errors')]) {
					const ui = foldsFor(model, [], 'expanded', filter, false);
					expectEqual(rowsFor(model, ui, 90).slice(0, 10_000), flattenRows(model, ui, 90), `log ${n} line ${at}`);
				}
			}
		}
	});

	it('keeps the layout for a shallow copy of the model (a load in a worker moving its event count) until the model changes', () => {
		const lines = fixtureLines.get('parallel-delegate.ndjson')!;
		const model = modelFromText(lines.slice(0, 20).join('\n') + '\n');
		let builds = 0;
		const rowsFor = rowsCache(() => builds++);
		const ui = foldsFor(model, [], 'expanded', emptyFilter, false);
		const list = rowsFor(model, ui, 100);
		expect(rowsFor({...model, events: model.events + 100}, ui, 100)).toBe(list);
		expect(builds).toBe(1);
		// The worker's next model is all new, and so is a change in place: laid out again.
		const next = modelFromText(lines.join('\n') + '\n');
		expectEqual(rowsFor(next, ui, 100).slice(0, 10_000), flattenRows(next, ui, 100));
		modelFromText(lines.slice(20).join('\n') + '\n', {model});
		expectEqual(rowsFor(model, ui, 100).slice(0, 10_000), flattenRows(model, ui, 100));
		expect(builds).toBe(3);
	});

	it('shows the last layout made while the next model a load posts is laid out in slices, then that one', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...fixtures),
				fc.array(fc.double({min: 0.05, max: 1, noNaN: true}), {minLength: 2, maxLength: 5}),
				fc.array(fc.nat(), {maxLength: 6}),
				fc.constantFrom(...filters),
				fc.array(fc.oneof(fc.nat({max: 3}), fc.constant(Number.POSITIVE_INFINITY)), {minLength: 5, maxLength: 5}),
				(name, cuts, picks, filter, slices) => {
					const lines = fixtureLines.get(name)!;
					// Each model is a new object, as the load's worker posts them, cut later and later.
					const models = [...cuts]
						.sort((a, b) => a - b)
						.map(cut => modelFromText(lines.slice(0, Math.max(1, Math.ceil(lines.length * cut))).join('\n') + '\n'));
					// Stepped by hand: a key (a call for rows) can come between any two slices, and the rest between two
					// layouts made in the background is the test's own pace.
					const scheduler = manualScheduler();
					const steps = scheduler.pending;
					let ready = 0;
					const rowsFor = new Layouts(scheduler).rowsCache(undefined, {
						onReady() {
							ready++;
						},
						// The fixtures are small: every posted model is made in slices here.
						minPanes: 0,
					});
					const run = (count: number) => {
						for (let done = 0; done < count && steps.length > 0; done++) steps.shift()!();
					};

					// The rows are always those of a model posted so far, never older than the ones shown before,
					// with the folds of now (a key answered on the last layout made).
					let shown = 0;
					for (const [at, model] of models.entries()) {
						const ui = foldsFor(model, picks, 'auto', filter, false);
						const list = rowsFor(model, ui, 100);
						const rows = list.slice(0, list.length);
						const which = models.findIndex((earlier, index) => index >= shown && index <= at && isEqual(rows, flattenRows(earlier, ui, 100)));
						expect(which, `${name} model ${at}`).not.toBe(-1);
						shown = which;
						run(slices[at] ?? 0);
					}

					// Once the slices are all run, the newest model is shown, and `onReady` said so.
					const newest = models.at(-1)!;
					const ui = foldsFor(newest, picks, 'auto', filter, false);
					for (let round = 0; round < 3; round++) {
						run(Number.POSITIVE_INFINITY);
						rowsFor(newest, ui, 100);
					}

					const readyBefore = ready;
					run(Number.POSITIVE_INFINITY);
					const list = rowsFor(newest, ui, 100);
					expectEqual(list.slice(0, list.length), flattenRows(newest, ui, 100));
					expect(ready).toBe(readyBefore);
					expect(steps).toEqual([]);

					// A new filter is answered at once, from the newest model.
					const other = foldsFor(newest, picks, 'auto', filter === emptyFilter ? filterOf('type:exec') : emptyFilter, false);
					const next = modelFromText(lines.join('\n') + '\n');
					const now = rowsFor(next, other, 100);
					expectEqual(now.slice(0, now.length), flattenRows(next, other, 100));
				},
			),
			{numRuns: 80},
		);
	});

	it('lays a posted model with few panes out at once, as it costs less than a slice', () => {
		const lines = fixtureLines.get('parallel-delegate.ndjson')!;
		const scheduler = manualScheduler();
		const steps = scheduler.pending;
		const rowsFor = new Layouts(scheduler).rowsCache(undefined, {onReady() {}});
		const ui = {...initialUiState, follow: false};
		rowsFor(modelFromText(lines.slice(0, 10).join('\n') + '\n'), ui, 100);
		const next = modelFromText(lines.join('\n') + '\n');
		const list = rowsFor(next, ui, 100);
		expectEqual(list.slice(0, list.length), flattenRows(next, ui, 100));
		expect(steps).toEqual([]);
	});

	it('follows the folds as they change, one pane or many at a time, on one layout', () => {
		fc.assert(
			fc.property(logs, fc.array(fc.array(fc.nat(), {maxLength: 6}), {minLength: 2, maxLength: 5}), fc.constantFrom(...filters), (text, steps, filter) => {
				const model = modelFromText(text);
				const rowsFor = rowsCache();
				for (const picks of steps) {
					const ui = foldsFor(model, picks, 'auto', filter, false);
					const expected = flattenRows(model, ui, 80);
					const list = rowsFor(model, ui, 80);
					expect(list.slice(0, list.length)).toEqual(expected);
					// A key folded away is not found; the selection then falls back to its old place.
					for (const [at, row] of expected.entries()) expect(list.indexOfKey(row.key)).toBe(at);
					const hiddenKey = [...model.activityIndexById.keys()].map(id => `a:${id}`).find(key => !expected.some(row => row.key === key));
					if (hiddenKey) expect(list.indexOfKey(hiddenKey)).toBe(-1);
				}
			}),
			{numRuns: 60},
		);
	});

	it('finds rows after a pane among several children is folded, and unfolded again', () => {
		const model = modelFromText(fixtureLines.get('parallel-delegate.ndjson')!.join('\n') + '\n');
		const rowsFor = rowsCache();
		let ui: UiState = {...initialUiState, defaultCollapse: 'expanded', follow: false};
		const check = () => {
			const expected = flattenRows(model, ui, 80);
			const list = rowsFor(model, ui, 80);
			expect(list.length).toBe(expected.length);
			for (const [at, row] of expected.entries()) expect(list.indexOfKey(row.key)).toBe(at);
			expect(list.slice(0, list.length)).toEqual(expected);
			return expected;
		};

		const children = check().flatMap(row => (row.kind === 'pane' && row.depth === 1 ? [row.paneId] : []));
		expect(children.length).toBeGreaterThan(1);
		for (const child of children) {
			ui = {...ui, collapsed: new Map([...ui.collapsed, [child, true]])};
			check();
		}

		for (const child of children) {
			ui = {...ui, collapsed: new Map([...ui.collapsed, [child, false]])};
			check();
		}
	});

	it('finds rows as panes are unfolded one at a time after E, a parent before its children and after (a pane keeps its open count while folded)', () => {
		const model = modelFromText(fixtureLines.get('parallel-delegate.ndjson')!.join('\n') + '\n');
		const rowsFor = rowsCache();
		let ui: UiState = {...initialUiState, defaultCollapse: 'collapsed', follow: false};
		const check = () => {
			const expected = flattenRows(model, ui, 80);
			const list = rowsFor(model, ui, 80);
			expect(list.length).toBe(expected.length);
			expect(list.slice(0, list.length)).toEqual(expected);
			return expected;
		};

		const panes = [...model.panes.keys()];
		expect(panes.length).toBeGreaterThan(2);
		check();
		// Children first (under a folded root), then the root, then fold the children again under the open root.
		for (const paneId of [...panes.slice(1), panes[0]!]) {
			ui = {...ui, collapsed: new Map([...ui.collapsed, [paneId, false]])};
			check();
		}

		for (const paneId of panes.slice(1)) {
			ui = {...ui, collapsed: new Map([...ui.collapsed, [paneId, true]])};
			check();
		}
	});

	it("answers the screen's window, the selected row and its key's position again from what it made last, and not once the folds change (G on a chain, #33)", () => {
		const model = modelFromText([...shapeLines({shape: 'chain', runs: 30, seed: 7})].join('\n') + '\n');
		const rowsFor = rowsCache();
		const open: UiState = {...initialUiState, defaultCollapse: 'expanded', follow: false};
		const paneIds = [...model.panes.keys()];
		const folded: UiState = {...open, collapsed: new Map([[paneIds[10]!, true]])};
		const openList = rowsFor(model, open, 80);
		const foldedList = rowsFor(model, folded, 80);
		// Two lists of one layout, asked in turn as two views with other folds would: each re-applies its own folds.
		for (const [list, ui] of [
			[openList, open],
			[foldedList, folded],
			[openList, open],
			[foldedList, folded],
		] as const) {
			const expected = flattenRows(model, ui, 80);
			expect(list.length).toBe(expected.length);
			const from = Math.max(0, expected.length - 12);
			expect(list.slice(from, expected.length)).toEqual(expected.slice(from));
			for (let at = from; at < expected.length; at++) expect(list.at(at)).toEqual(expected[at]);
			// The selection's key, asked by each view of a frame.
			for (let at = 0; at < expected.length; at++) expect(list.indexOfKey(expected[at]!.key)).toBe(at);
			expect(list.indexOfKey(expected.at(-1)!.key)).toBe(expected.length - 1);
			expect(list.slice(from + 2, from + 5)).toEqual(expected.slice(from + 2, from + 5));
			expect(list.at(3)).toEqual(expected[3]);
			expect(list.at(3)).toEqual(expected[3]);
		}
	});

	it('selects the last selectable row while following, as the flattened rows did', () => {
		const model = modelFromText(fixtureLines.get('streaming.ndjson')!.slice(0, 40).join('\n') + '\n');
		const ui = {...initialUiState, defaultCollapse: 'expanded' as const};
		const expected = flattenRows(model, ui, 80);
		let last = expected.length - 1;
		while (last > 0 && !isSelectableRow(expected[last]!)) last--;
		expect(selectedRowIndex(rowsCache()(model, ui, 80), ui)).toBe(last);
	});
});
