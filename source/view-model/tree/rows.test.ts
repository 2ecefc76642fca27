import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {endInput, type Model} from '../../model/state.js';
import {sanitizeBlock} from '../../text/sanitize.js';
import {wrapToWidth} from '../../text/wrap.js';
import {fixturePath, modelFromFixtures, modelFromText} from '../../../test/helpers/load.js';
import {parseFilter, toggleErrors, emptyFilter, type Filter} from '../../query/filter.js';
import {shapeLines} from '../../../tools/shape-log.js';
import {buildRows, liveTail, maxShownDepth, selectedRowIndex, type Row} from './rows.js';
import {Layouts, type TreeRows} from './layouts.js';
import {Scheduler} from '../../slices/scheduler.js';
import {initialUiState, uiReducer, type UiState} from '../ui-state.js';

/** A rows cache of a viewer of its own. */
function rowsCache(...args: Parameters<Layouts['rowsCache']>): TreeRows {
	return new Layouts(new Scheduler()).rowsCache(...args);
}

/*
 * Under a running pane the tree shows the last few wrapped lines of what the model is streaming. Only the
 * end of the text is wrapped each frame; what the person sees must not change for it.
 */

const words = 'the parser reads each line once and the viewer keeps only what it shows while the run goes on'.split(' ');

function lastLines(text: string, keep: number, width: number): string[] {
	return wrapToWidth(sanitizeBlock(text), width).slice(-keep);
}

/** A stream of `size` characters whose lines are about `lineLength` long (some blank, some tabbed). */
function stream(size: number, lineLength: number): string {
	let text = '';
	for (let i = 0; text.length < size; i++) {
		const word = words[i % words.length]!;
		text += i % 97 === 0 ? `\t${word}` : word;
		text += (i * 7) % lineLength < 7 ? (i % 5 === 0 ? '\n\n' : '\n') : ' ';
	}

	return text;
}

describe('the live lines of a long stream', () => {
	for (const lineLength of [40, 300, 2000, 20_000]) {
		for (const ending of ['', '\n', ' half a word']) {
			it(`are the last lines of the whole text, wrapped (lines of about ${lineLength} characters, ending ${JSON.stringify(ending)})`, () => {
				const text = stream(200_000, lineLength) + ending;
				for (const [keep, width] of [
					[3, 80],
					[6, 150],
					[6, 20],
				] as const) {
					const tail = liveTail(text, keep, width);
					expect(text.endsWith(tail)).toBe(true);
					// Only a few kilobytes are wrapped each frame.
					expect(tail.length).toBeLessThan(lineLength >= 20_000 ? 20 * 1024 : Math.max(8 * keep * width, keep * (lineLength + 200)) + 1);
					if (lineLength < 20_000) expect(lastLines(tail, keep, width)).toEqual(lastLines(text, keep, width));
				}
			});
		}
	}

	it('of one very long line end with its last characters, and do not move about as the line grows', () => {
		let text = '';
		for (let i = 0; text.length < 300_000; i++) text += `${words[i % words.length]!} `;
		const first = text.length - liveTail(text, 6, 150).length;
		const shown = lastLines(liveTail(text, 6, 150), 6, 150);
		expect(shown).toHaveLength(6);
		expect(text.slice(-2000).replaceAll(' ', '').endsWith(shown.join('').replaceAll(' ', ''))).toBe(true);
		// A few more deltas: the tail still starts where it did, so the lines already shown wrap the same.
		for (let i = 0; i < 20; i++) {
			text += `${words[i % words.length]!} `;
			expect(text.length - liveTail(text, 6, 150).length).toBe(first);
		}
	});

	it('of a short stream are all of it', () => {
		const text = stream(2000, 60);
		expect(liveTail(text, 6, 150)).toBe(text);
	});
});

// 20,000 runs are deeper than the call stack: placement walking the panes recursively fails here with "Maximum call
// stack size exceeded" (checked), as at 100,000, which this took five times as long to build (#35).
describe('the rows of a chain 20,000 runs deep', () => {
	const model = modelFromText([...shapeLines({shape: 'chain', runs: 20_000, seed: 1})].join('\n') + '\n');
	const width = 100;

	it('are built with a stack of their own, not the call stack: all expanded, all folded, one pane unfolded', () => {
		const expanded = buildRows(model, {...initialUiState, defaultCollapse: 'expanded'}, width);
		// Each run: its pane, its query and its completion.
		expect(expanded).toHaveLength(60_000);
		const last = expanded.at(-3);
		expect(last?.kind === 'pane' && last.paneId).toBe('run-19999');
		// Deep panes are drawn at a capped indent.
		expect(expanded.slice(-10).map(row => ('depth' in row ? row.depth : 0))).toEqual(Array.from({length: 10}, () => maxShownDepth));

		const folded = buildRows(model, {...initialUiState, defaultCollapse: 'collapsed'}, width);
		expect(folded.map(row => row.key)).toEqual(['p:run-0']);

		const collapsed = new Map([['run-0', false]]);
		const oneOpen = buildRows(model, {...initialUiState, defaultCollapse: 'collapsed', collapsed}, width);
		expect(oneOpen.map(row => row.key)).toEqual(['p:run-0', expect.stringMatching(/^a:/), expect.stringMatching(/^a:/), 'p:run-1']);

		// A filter matching only the deepest run opens every pane down to it, folded or not.
		const deepest = parseFilter('run:run-19999');
		if (!deepest.ok) throw new Error(deepest.error);
		const filtered = buildRows(model, {...initialUiState, defaultCollapse: 'collapsed', filter: deepest.filter}, width);
		expect(filtered).toHaveLength(20_002);
		expect(filtered.slice(-3).map(row => row.kind)).toEqual(['pane', 'activity', 'activity']);
	}, 60_000);
});

describe('the rows under a filter', () => {
	const model = modelFromFixtures('delegate-failure.ndjson');
	const [coordinator, writer, checker] = [...model.panes.keys()];
	const errorsOnly: Filter = toggleErrors(emptyFilter);
	const texts = (rows: Row[]) => rows.flatMap(row => (row.kind === 'filtered' ? [row.text] : []));
	const panes = (rows: Row[]) => rows.flatMap(row => (row.kind === 'pane' ? [`${row.paneId}${row.collapsed ? ' folded' : ''}`] : []));
	const errorRows = (rows: Row[]) => rows.filter(row => row.kind === 'activity' && model.activities[row.index]?.type === 'error');

	it('unfold the panes holding matches, even the ones the person folded', () => {
		// By default the failed child is folded to its header, and its error is out of sight.
		expect(panes(buildRows(model, initialUiState, 100))).toEqual([coordinator, `${writer} folded`, `${checker} folded`]);
		expect(errorRows(buildRows(model, initialUiState, 100))).toHaveLength(0);
		const folded = new Map([[coordinator!, true]]);
		const rows = buildRows(model, {...initialUiState, collapsed: folded, filter: errorsOnly}, 100);
		expect(panes(rows)).toEqual([coordinator, writer]);
		expect(errorRows(rows)).toHaveLength(1);
	});

	it('hide the panes without a match anywhere under them, and say how many', () => {
		const rows = buildRows(model, {...initialUiState, filter: errorsOnly}, 100);
		expect(panes(rows)).not.toContain(checker);
		expect(texts(rows)).toEqual(['1 pane without matches hidden']);
		const all = parseFilter('type:query');
		if (!all.ok) throw new Error(all.error);
		expect(texts(buildRows(model, {...initialUiState, filter: all.filter}, 100))).toEqual([]);
	});

	it('give back the folds the person made once the filter is cleared, and keep folds made under the filter apart', () => {
		let ui: UiState = {...initialUiState, collapsed: new Map([[coordinator!, true]])};
		ui = uiReducer(ui, {type: 'setFilter', filter: errorsOnly});
		ui = uiReducer(ui, {type: 'setCollapsed', paneId: writer!, collapsed: true});
		expect(panes(buildRows(model, ui, 100))).toEqual([coordinator, `${writer} folded`]);
		// A search revealing a match under the filter opens it there only.
		ui = uiReducer(ui, {type: 'expandPanes', paneIds: [writer!]});
		expect(panes(buildRows(model, ui, 100))).toEqual([coordinator, writer]);
		ui = uiReducer(ui, {type: 'clearFilters'});
		expect(panes(buildRows(model, ui, 100))).toEqual([`${coordinator} folded`]);
		// Filtering again opens everything again.
		ui = uiReducer(ui, {type: 'setFilter', filter: errorsOnly});
		expect(panes(buildRows(model, ui, 100))).toEqual([coordinator, writer]);
	});

	it('say "no errors" when errors-only matches nothing, and name any other filter that matches nothing', () => {
		const simple = modelFromFixtures('real/simple.ndjson');
		expect(texts(buildRows(simple, {...initialUiState, filter: errorsOnly}, 100))).toEqual(['no errors', '1 pane without matches hidden']);
		const nothing = parseFilter('type:exec vitest');
		if (!nothing.ok) throw new Error(nothing.error);
		expect(texts(buildRows(simple, {...initialUiState, filter: nothing.filter}, 100))[0]).toBe('nothing matches type:exec vitest');
		expect(buildRows(simple, {...initialUiState, filter: nothing.filter}, 100).filter(row => row.kind === 'pane')).toEqual([]);
	});

	it('are rebuilt when folds made under the filter change, from the cache otherwise', () => {
		const rowsFor = rowsCache();
		let ui = uiReducer(initialUiState, {type: 'setFilter', filter: errorsOnly});
		const first = rowsFor(model, ui, 100);
		expect(rowsFor(model, ui, 100)).toBe(first);
		ui = uiReducer(ui, {type: 'setCollapsed', paneId: writer!, collapsed: true});
		const list = rowsFor(model, ui, 100);
		expect(panes(list.slice(0, list.length))).toEqual([coordinator, `${writer} folded`]);
	});
});

describe('a pane with a live run under it', () => {
	// boss → manager → writer ∥ checker, recorded from the runtime, cut while writer and checker both run.
	const lines = readFileSync(fixturePath('real/boss-nested-parallel.ndjson'), 'utf8')
		.split('\n')
		.filter(line => line !== '');
	const upTo = (count: number) => modelFromText(lines.slice(0, count).join('\n') + '\n');
	const panes = (model: Model, rows: Row[]) =>
		rows.flatMap(row => (row.kind === 'pane' ? [`${model.runs.get(row.paneId)?.expertKey}${row.collapsed ? ' folded' : ''}`] : []));

	it('stays open: manager, waiting for its delegates, shows writer and checker while they run', () => {
		const model = upTo(55);
		expect(panes(model, buildRows(model, initialUiState, 100))).toEqual(['boss', 'manager', 'writer', 'checker']);
	});

	it('follow mode selects the newest activity of a running pane, not the last row (a finished sibling folded below it)', () => {
		// 72 lines in: checker has completed (folded, below writer), writer has just written draft.md.
		const model = upTo(72);
		const ui = {...initialUiState, follow: true};
		const list = rowsCache()(model, ui, 100);
		const rows = list.slice(0, list.length);
		const selected = rows[selectedRowIndex(list, ui)];
		expect(selected?.kind === 'activity' ? model.activities[selected.index]?.type : selected?.kind).toBe('writeTextFile');
		const last = rows.at(-1);
		expect(last?.kind === 'pane' ? model.runs.get(last.paneId)?.expertKey : last?.kind).toBe('checker');
		// Once the input has ended nothing runs: following goes back to the last row.
		endInput(model, {exitCode: undefined, lastStderr: undefined});
		const ended = rowsCache()(model, ui, 100);
		const endedRows = ended.slice(0, ended.length);
		expect(selectedRowIndex(ended, ui)).toBe(endedRows.findLastIndex(row => row.kind !== 'live' && row.kind !== 'notice'));
	});

	it('folds once nothing under it runs any more, as a finished child does', () => {
		const model = upTo(lines.length);
		expect(panes(model, buildRows(model, initialUiState, 100))).toEqual(['boss', 'manager folded']);
	});
});
