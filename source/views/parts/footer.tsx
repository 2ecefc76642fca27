import {Text} from 'ink';
import {filterText, isEmptyFilter} from '../../query/filter.js';
import {sanitizeLine} from '../../text/sanitize.js';
import {formatCount} from '../../text/format.js';
import type {Model} from '../../model/state.js';
import type {UiState} from '../../view-model/ui-state.js';
import {useUiState, useViewEnv} from '../contexts.js';
import {filteringStatus, searchStatus} from '../../view-model/search/search-status.js';
import {useSearchProgress} from '../hooks/use-search.js';
import {Line} from './line.js';
import {shownStart} from '../../view-model/line-window.js';
import {palette} from '../palette.js';

/** The inspector's own keys: the tree's mean nothing while it is open. */
export const inspectorKeys = {
	wide: '↑↓ scroll · / find · n/N next/prev · ⏎ unfold · e/E unfold/fold all · o save event · esc close',
	narrow: '↑↓ / n N ⏎ e E o esc',
} as const;

/**
 * The tree's keys mean something else, or nothing, while an overlay is open: each overlay's own line says its
 * keys (the inspector's are in the footer itself, above), so the footer then only says how to leave.
 */
function treeKeysShown(ui: UiState): boolean {
	return ui.overlay.kind === 'none' || ui.overlay.kind === 'confirmQuit';
}

/**
 * In a very large log the model keeps only the start of later tool results (Model.textKeep): a search or a
 * filter then cannot see the rest of them, and the person must know that a miss may not be a miss.
 */
function searchesCutText(model: Model, ui: UiState): boolean {
	return model.cutResults > 0 && (ui.search.query !== '' || !isEmptyFilter(ui.filter));
}

function cutNote(model: Model): string {
	return `${formatCount(model.cutResults)} long ${model.cutResults === 1 ? 'result' : 'results'} searched by ${model.textKeep?.limit ?? 0} chars`;
}

/** Follow state, the active search and filter, a note for the person, and the main keys. */
export function Footer({width}: {width: number}) {
	const ui = useUiState();
	const {model, work} = useViewEnv();
	useSearchProgress();
	const narrow = width < 70;
	const filtering = work.filters.progressOf();
	if (ui.overlay.kind === 'inspector') {
		return (
			<Line width={width} color={palette.muted}>
				{ui.message === undefined ? null : (
					<Text color={palette.warning}>
						{sanitizeLine(ui.message)}
						{'  '}
					</Text>
				)}
				{narrow ? inspectorKeys.narrow : inspectorKeys.wide}
			</Line>
		);
	}

	return (
		<Line width={width} color={palette.muted}>
			{ui.follow ? <Text color={palette.success}>● follow</Text> : <Text>○ paused (G)</Text>}
			{ui.search.query === '' ? null : (
				<Text color={palette.warning}>
					{'  /'}
					{shownStart(ui.search.query, Math.floor(width / 2))}{' '}
					{searchStatus(model, work.searches.searchFor(model, ui.search.query, ui.filter), ui.search.current, 'short')}
				</Text>
			)}
			{isEmptyFilter(ui.filter) ? null : (
				<Text color={palette.mode}>
					{'  filter: '}
					{shownStart(filterText(ui.filter), Math.floor(width / 2))}
				</Text>
			)}
			{filtering === undefined ? null : (
				<Text color={palette.mode}>
					{'  '}
					{filteringStatus(filtering.share)}
				</Text>
			)}
			{searchesCutText(model, ui) ? (
				<Text color={palette.warning}>
					{'  ('}
					{cutNote(model)}
					{')'}
				</Text>
			) : null}
			{ui.message === undefined ? null : (
				<Text color={palette.warning}>
					{'  '}
					{sanitizeLine(ui.message)}
				</Text>
			)}
			{treeKeysShown(ui)
				? narrow
					? '  ↑↓ ←→ ⏎ / ? q'
					: '  ↑↓ move · ←→ fold · ⏎ inspect · / search · : filter · x errors · t timeline · ? help · q quit'
				: '  esc close'}
		</Line>
	);
}
