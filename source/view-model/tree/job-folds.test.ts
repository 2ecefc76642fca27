import {describe, expect, it} from 'vitest';
import {modelFromFixtures, runByExpert} from '../../../test/helpers/load.js';
import {emptyFilter, toggleErrors} from '../../query/filter.js';
import type {Model} from '../../model/state.js';
import {buildRows, type Row} from './rows.js';
import {Layouts, type TreeRows} from './layouts.js';
import {Scheduler} from '../../slices/scheduler.js';
import {initialUiState, uiReducer, type UiAction, type UiState} from '../ui-state.js';

/** A rows cache of a viewer of its own. */
function rowsCache(...args: Parameters<Layouts['rowsCache']>): TreeRows {
	return new Layouts(new Scheduler()).rowsCache(...args);
}

/** Three jobs: simple (1 run), demo (bugfix-lead, 4 runs), delegate-failure (release-coordinator, a delegate failed). */
function threeJobs(): Model {
	return modelFromFixtures('real/simple.ndjson', 'demo.ndjson', 'delegate-failure.ndjson');
}

function after(...actions: UiAction[]): UiState {
	return actions.reduce(uiReducer, initialUiState);
}

function jobId(model: Model, expertKey: string): string {
	return runByExpert(model, expertKey).jobId;
}

/** The job rows, `▸` folded or `▾` open, with the first pane row under each when there is one. */
function outline(model: Model, rows: Row[]): string[] {
	const out: string[] = [];
	for (const [at, row] of rows.entries()) {
		if (row.kind !== 'job') continue;
		const next = rows[at + 1];
		const pane = next?.kind === 'pane' ? ` ${model.runs.get(next.paneId)?.expertKey ?? '?'}` : '';
		out.push(`${row.collapsed ? '▸' : '▾'} ${model.runs.get(model.jobs.get(row.jobId)!.runIds[0]!)?.expertKey ?? '?'}${pane}`);
	}

	return out;
}

describe('job rows', () => {
	it('head each job when there are several, and not when there is one', () => {
		expect(buildRows(modelFromFixtures('demo.ndjson'), initialUiState, 100).some(row => row.kind === 'job')).toBe(false);
		expect(buildRows(threeJobs(), initialUiState, 100)[0]?.kind).toBe('job');
	});

	it('start folded when the job has finished, except the last one; a job still running or waiting for an answer stays open', () => {
		const model = threeJobs();
		expect(outline(model, buildRows(model, initialUiState, 100))).toEqual(['▸ simple-expert', '▸ bugfix-lead', '▾ release-coordinator release-coordinator']);
		const reordered = modelFromFixtures('delegate-failure.ndjson', 'real/simple.ndjson', 'demo.ndjson');
		expect(outline(reordered, buildRows(reordered, initialUiState, 100))).toEqual(['▸ release-coordinator', '▸ simple-expert', '▾ bugfix-lead bugfix-lead']);
		runByExpert(model, 'simple-expert').status = 'proceeding';
		model.rev++;
		expect(outline(model, buildRows(model, initialUiState, 100))[0]).toBe('▾ simple-expert simple-expert');
		const asking = modelFromFixtures('real/interactive-1.ndjson', 'demo.ndjson');
		expect(outline(asking, buildRows(asking, initialUiState, 100))[0]).toMatch(/^▾ /);
	});

	it('fold and unfold as chosen; e opens every job and E folds every job, the choices made before forgotten', () => {
		const model = threeJobs();
		const opened = after(
			{type: 'setJobCollapsed', jobId: jobId(model, 'simple-expert'), collapsed: false},
			{type: 'setJobCollapsed', jobId: jobId(model, 'release-coordinator'), collapsed: true},
		);
		expect(outline(model, buildRows(model, opened, 100))).toEqual(['▾ simple-expert simple-expert', '▸ bugfix-lead', '▸ release-coordinator']);
		const all = uiReducer(opened, {type: 'expandAll'});
		expect(outline(model, buildRows(model, all, 100))).toEqual([
			'▾ simple-expert simple-expert',
			'▾ bugfix-lead bugfix-lead',
			'▾ release-coordinator release-coordinator',
		]);
		const none = uiReducer(all, {type: 'collapseAll'});
		const rows = buildRows(model, none, 100);
		expect(outline(model, rows)).toEqual(['▸ simple-expert', '▸ bugfix-lead', '▸ release-coordinator']);
		// One row per job: the list of jobs.
		expect(rows).toHaveLength(3);
	});

	it('are keyed apart from panes: a run whose id is a job id does not fold with the job', () => {
		const model = threeJobs();
		const simple = jobId(model, 'simple-expert');
		const state = after({type: 'expandAll'}, {type: 'setCollapsed', paneId: simple, collapsed: true});
		expect(outline(model, buildRows(model, state, 100))[0]).toBe('▾ simple-expert simple-expert');
	});

	it('under a filter, show only the jobs holding a match, open, and keep folds made there apart from the others', () => {
		const model = threeJobs();
		const folded = after({type: 'collapseAll'}, {type: 'setFilter', filter: toggleErrors(emptyFilter)});
		// simple-expert's job has no error: it is left out.
		expect(outline(model, buildRows(model, folded, 100))).toEqual(['▾ bugfix-lead bugfix-lead', '▾ release-coordinator release-coordinator']);
		const foldedWhileFiltering = uiReducer(folded, {type: 'setJobCollapsed', jobId: jobId(model, 'release-coordinator'), collapsed: true});
		expect(outline(model, buildRows(model, foldedWhileFiltering, 100))).toEqual(['▾ bugfix-lead bugfix-lead', '▸ release-coordinator']);
		// The fold made under the filter goes with it; the person's own (all folded, from E) come back.
		const cleared = uiReducer(foldedWhileFiltering, {type: 'clearFilters'});
		expect(outline(model, buildRows(model, cleared, 100))).toEqual(['▸ simple-expert', '▸ bugfix-lead', '▸ release-coordinator']);
		expect(uiReducer(cleared, {type: 'setFilter', filter: toggleErrors(emptyFilter)}).jobFolds.filtering.size).toBe(0);
	});

	it('are rebuilt from the cache only when a job fold changes', () => {
		const model = threeJobs();
		const rowsFor = rowsCache();
		const first = rowsFor(model, initialUiState, 100);
		expect(rowsFor(model, {...initialUiState}, 100)).toBe(first);
		const unfolded = uiReducer(initialUiState, {type: 'setJobCollapsed', jobId: jobId(model, 'bugfix-lead'), collapsed: false});
		expect(rowsFor(model, unfolded, 100).length).toBeGreaterThan(first.length);
	});
});

describe('the usage overlay state', () => {
	it('starts on the job under the selection, and switches to every job and back', () => {
		const open = after({type: 'openOverlay', overlay: 'usage'});
		expect(open.overlay).toEqual({kind: 'usage', scroll: 0});
		const all = uiReducer(open, {type: 'toggleUsageJobs'});
		expect(all.overlay).toEqual({kind: 'usage', scroll: 0, allJobs: true});
		expect(uiReducer(all, {type: 'toggleUsageJobs'}).overlay).toMatchObject({allJobs: false});
		// Nothing to switch when the usage overlay is not open.
		expect(uiReducer(initialUiState, {type: 'toggleUsageJobs'})).toBe(initialUiState);
	});
});
