import {Box, Text} from 'ink';
import {useRef} from 'react';
import type {Model} from '../model/state.js';
import {sanitizeLine} from '../text/sanitize.js';
import {withDelegateOutcome} from '../query/delegate-outcome.js';
import {ActivityRow, LiveRow} from './parts/activity-row.js';
import {useModelVersion, useTreeRows, useUiState, useUiStore, useViewEnv, useViewerWork} from './contexts.js';
import type {Command} from './keymap.js';
import {priorities, useCommands} from './keypress.js';
import {PaneRow} from './parts/pane-row.js';
import {revealActivity} from '../view-model/search/reveal.js';
import {
	growLiveText,
	isSelectableRow,
	jobKey,
	nearestSelectable,
	paneKey,
	parentPaneOf,
	selectedRowIndex,
	type Row,
	type RowList,
} from '../view-model/tree/rows.js';
import {JobRow} from './parts/job-row.js';
import {jobOfKey, shownJobs} from '../view-model/jobs.js';
import {isLoading, type SourceState} from '../input/source-state.js';
import {plural} from '../text/format.js';
import {shortSourceLabel} from '../text/source-label.js';
import {Line} from './parts/line.js';
import {scrollTop} from '../view-model/scroll.js';
import type {UiAction, UiState} from '../view-model/ui-state.js';
import {assertNever} from '../model/assert-never.js';
import {palette} from './palette.js';

/**
 * The run tree as a window of `height` rows. Rows are sliced before anything is laid out, so the cost of a
 * frame depends on the screen, not on the length of the log.
 */
export function TreeView({height, width}: {height: number; width: number}) {
	const {model, sources, sourceLabel} = useViewEnv();
	useModelVersion();
	const ui = useUiState();
	const uiStore = useUiStore();
	const rowsFor = useTreeRows();
	const {searches} = useViewerWork();
	const rows = rowsFor(model, ui, width);
	const selected = selectedRowIndex(rows, ui);
	const top = useRef(0);
	top.current = scrollTop(top.current, selected, rows.length, height, ui.follow, ui.selectedWithContext);

	const numbersFor = useRef(createJobNumbers()).current;

	useCommands(priorities.tree, command => {
		// Read the state now, not as of the last render: earlier keys of the same read may have changed it.
		const current = uiStore.getState();
		const currentRows = rowsFor(model, current, width);
		const selectedIndex = selectedRowIndex(currentRows, current);
		if (command === 'search.next' || command === 'search.previous') {
			const row = currentRows.at(selectedIndex);
			const from = row?.kind === 'activity' ? row.index : current.search.current;
			const {query} = current.search;
			if (query === '') {
				uiStore.dispatch({type: 'setMessage', message: 'no search: press / to search'});
				return true;
			}

			// At once when the search has found it; while a search of a large log runs, when it gets there.
			searches.jumpWhenFound(
				model,
				query,
				current.filter,
				from,
				command === 'search.next' ? 1 : -1,
				target => {
					if (uiStore.getState().search.query !== query) return;
					uiStore.dispatch({type: 'setSearch', query, current: target});
					revealActivity(model, target, uiStore.dispatch);
				},
				() => {
					uiStore.dispatch({type: 'setMessage', message: 'no matches'});
				},
			);
			return true;
		}

		// Space toggles like enter, except during a replay (the replay takes it first).
		const mapped = command === 'replay.pause' ? 'item.activate' : command;
		const handled = navigate(mapped, {model, rows: currentRows, selected: selectedIndex, height, ui: current, dispatch: uiStore.dispatch});
		// The person's own move wins over a jump still waiting for a running search to reach its match.
		if (handled) searches.cancelJump();
		return handled;
	});

	if (rows.length === 0) {
		return (
			<Box height={height} width={width}>
				<Text color={palette.muted}>
					{sources.some(isLoading) ? 'Reading…' : model.inputEnd ? sanitizeLine(nothingShownText(model, sourceLabel, sources)) : 'Waiting for events…'}
				</Text>
			</Box>
		);
	}

	// A tree shorter than the screen gives its free rows to the live text (#32 §3.8).
	const visible =
		rows.length < height ? growLiveText(model, rows.slice(0, rows.length), height - rows.length, width) : rows.slice(top.current, top.current + height);
	// Found by key: grown live text moves the rows under it down.
	const selectedKey = rows.at(selected)?.key;
	// Job rows say which of how many they are, as the header does; only worked out when one is on screen.
	const jobNumbers = visible.some(row => row.kind === 'job') ? numbersFor(model) : undefined;
	// Under job rows, a job's panes are drawn one step in, so that they read as its own.
	const underJobs = showsJobs(rows);
	// Every row is one line already cut to the width: clipping sideways too would make Ink slice each
	// line's escape codes again on every frame.
	return (
		<Box flexDirection="column" height={height} width={width} overflowY="hidden">
			{visible.map(row => {
				// A row that cannot be selected (a filter's note, live text) never carries the mark, even when
				// nothing else is left to select.
				const isSelected = row.key === selectedKey && isSelectableRow(row);
				const indent = underJobs && row.kind !== 'job' && row.kind !== 'filtered' ? jobIndent : '';
				// The gutter marks the selection without colour too (NO_COLOR, screen captures, screen readers).
				return (
					<Line key={row.key} width={width}>
						<Text color={palette.accent}>{isSelected ? '›' : ' '}</Text>
						{indent}
						<RowView row={row} model={model} selected={isSelected} highlight={ui.search.query} width={width - 1 - indent.length} jobNumbers={jobNumbers} />
					</Line>
				);
			})}
		</Box>
	);
}

/**
 * What an empty tree says once every input has ended: no event will come to fill it, so not "waiting". `no events
 * in FILE` (`from` stdin or a command), or `no runs` when events came but none of a run (only skills, say); and how
 * many lines could not be read, which `d` lists.
 */
export function nothingShownText(model: Model, sourceLabel: string, sources: readonly SourceState[]): string {
	const where = `${sources.every(source => source.kind === 'file' || source.kind === 'job') ? 'in' : 'from'} ${shortSourceLabel(sourceLabel, sources)}`;
	const what = model.events === 0 ? `no events ${where}` : `no runs ${where} (${plural(model.events, 'event')}, none of a run)`;
	return model.diagnosticCount === 0 ? what : `${what} · ${plural(model.diagnosticCount, 'bad line')}: d`;
}

/** One row as inline text in `width` columns; the tree cuts the line it is in to the width. */
function RowView({
	row,
	model,
	selected,
	highlight,
	width,
	jobNumbers,
}: {
	row: Row;
	model: Model;
	selected: boolean;
	highlight: string;
	width: number;
	jobNumbers: ReadonlyMap<string, number> | undefined;
}) {
	switch (row.kind) {
		case 'job': {
			const job = model.jobs.get(row.jobId);
			const number = jobNumbers?.get(row.jobId);
			if (!job || number === undefined) return null;
			return <JobRow model={model} job={job} number={number} count={jobNumbers?.size ?? 0} collapsed={row.collapsed} selected={selected} />;
		}

		case 'pane': {
			const pane = model.panes.get(row.paneId);
			if (!pane) return null;
			return <PaneRow model={model} pane={pane} depth={row.depth} collapsed={row.collapsed} orphan={row.orphan} cycle={row.cycle} selected={selected} />;
		}

		case 'activity': {
			const activity = model.activities[row.index];
			if (!activity) return null;
			return (
				<ActivityRow
					activity={withDelegateOutcome(model, activity)}
					depth={row.depth}
					selected={selected}
					highlight={highlight === '' ? undefined : highlight}
					width={width}
				/>
			);
		}

		case 'filtered':
			return row.part === 'none' ? <Text bold>{row.text}</Text> : <Text dimColor>{row.text}</Text>;
		case 'live':
			return <LiveRow text={row.text} depth={row.depth} channel={row.channel} />;
		case 'notice':
			if (row.part === 'ended') {
				return (
					<Text color={palette.error}>
						{' '.repeat(row.depth * 2 + 2)}✗ job ended here · {sanitizeLine(row.text)}
					</Text>
				);
			}

			return row.part === 'question' ? (
				<Text color={palette.waiting} bold>
					{' '.repeat(row.depth * 2 + 2)}🙋 waiting for your answer · {sanitizeLine(row.text)}
				</Text>
			) : (
				<Text color={palette.muted}>
					{' '.repeat(row.depth * 2 + 5)}answer with: {sanitizeLine(row.text)}
				</Text>
			);
		default:
			return assertNever(row);
	}
}

type NavContext = {
	model: Model;
	rows: RowList;
	selected: number;
	height: number;
	ui: UiState;
	dispatch: (action: UiAction) => void;
};

function navigate(command: Command, context: NavContext): boolean {
	const {rows, selected, height, ui, dispatch} = context;
	if (rows.length === 0) return false;
	const select = (index: number, step: 1 | -1, follow = false) => {
		const target = nearestSelectable(rows, index, step);
		const row = rows.at(target);
		if (row) dispatch({type: 'select', key: row.key, index: target, follow});
	};

	const current = rows.at(selected);
	switch (command) {
		case 'nav.up':
			select(selected - 1, -1);
			return true;
		case 'nav.down':
			select(selected + 1, 1);
			return true;
		case 'nav.pageUp':
			select(selected - height, -1);
			return true;
		case 'nav.pageDown':
			select(selected + height, 1);
			return true;
		case 'nav.top':
			select(0, 1);
			return true;
		case 'nav.bottom':
			select(rows.length - 1, -1, true);
			return true;
		case 'follow.toggle':
			if (ui.follow) select(selected, -1, false);
			else dispatch({type: 'setFollow', follow: true});
			return true;
		case 'tree.expandAll':
			dispatch({type: 'expandAll'});
			return true;
		case 'tree.collapseAll': {
			dispatch({type: 'collapseAll'});
			// The selection moves to the header of the pane it was in, which stays visible; with several jobs, to
			// its job's row, as every job folds too.
			const jobRow = current && current.kind !== 'filtered' && showsJobs(rows) ? jobOfKey(context.model, current.key) : undefined;
			if (jobRow) dispatch({type: 'select', key: jobKey(jobRow.jobId), index: selected, follow: false});
			else if (current && current.kind !== 'pane' && current.kind !== 'job' && current.kind !== 'filtered')
				dispatch({type: 'select', key: paneKey(current.paneId), index: selected, follow: false});
			return true;
		}

		case 'pane.collapse':
			collapse(context, current);
			return true;
		case 'pane.expand':
			if (current?.kind === 'pane' && current.collapsed) dispatch({type: 'setCollapsed', paneId: current.paneId, collapsed: false});
			else if (current?.kind === 'job' && current.collapsed) dispatch({type: 'setJobCollapsed', jobId: current.jobId, collapsed: false});
			return true;
		case 'item.activate':
			if (current?.kind === 'pane') dispatch({type: 'setCollapsed', paneId: current.paneId, collapsed: !current.collapsed});
			else if (current?.kind === 'job') dispatch({type: 'setJobCollapsed', jobId: current.jobId, collapsed: !current.collapsed});
			else if (current?.kind === 'activity') {
				const activity = context.model.activities[current.index];
				if (activity) dispatch({type: 'openInspector', activityId: activity.id});
			}

			return true;
		default:
			return false;
	}
}

function collapse(context: NavContext, current: Row | undefined): void {
	const {model, rows, dispatch} = context;
	if (!current || current.kind === 'filtered') return;
	if (current.kind === 'job') {
		if (!current.collapsed) dispatch({type: 'setJobCollapsed', jobId: current.jobId, collapsed: true});
		return;
	}

	if (current.kind === 'pane' && !current.collapsed) {
		dispatch({type: 'setCollapsed', paneId: current.paneId, collapsed: true});
		dispatch({type: 'select', key: current.key, index: context.selected, follow: false});
		return;
	}

	// On an activity, or on a pane already folded: go to (and fold) the pane that contains it.
	const paneId = current.kind === 'pane' ? parentPaneOf(model, current.paneId) : current.paneId;
	if (paneId === undefined) {
		// A folded top pane: its job is what contains it, when the tree shows jobs.
		const job = showsJobs(rows) ? jobOfKey(model, current.key) : undefined;
		if (!job) return;
		dispatch({type: 'setJobCollapsed', jobId: job.jobId, collapsed: true});
		dispatch({type: 'select', key: jobKey(job.jobId), index: Math.max(0, rows.indexOfKey(jobKey(job.jobId))), follow: false});
		return;
	}

	const index = rows.indexOfKey(paneKey(paneId));
	dispatch({type: 'setCollapsed', paneId, collapsed: true});
	dispatch({type: 'select', key: paneKey(paneId), index: Math.max(0, index), follow: false});
}

const jobIndent = '  ';

/** Whether the tree is drawn under job rows (a log of several jobs): then a job row comes first. */
function showsJobs(rows: RowList): boolean {
	return rows.at(0)?.kind === 'job';
}

/** Each shown job's place, from 1, in the order the tree and the header count them; worked out again only when the log changes. */
function createJobNumbers(): (model: Model) => ReadonlyMap<string, number> {
	let last: {model: Model; rev: number; numbers: Map<string, number>} | undefined;
	return model => {
		if (last && last.model === model && last.rev === model.rev) return last.numbers;
		const numbers = new Map<string, number>();
		for (const [at, job] of shownJobs(model).entries()) numbers.set(job.jobId, at + 1);
		last = {model, rev: model.rev, numbers};
		return numbers;
	};
}
