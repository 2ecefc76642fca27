import {Box, useStdout} from 'ink';
import {useEffect, useRef, useState} from 'react';
import {filterText, toggleErrors, type Filter} from '../query/filter.js';
import {nextSpeed} from '../query/replay-speed.js';
import {TreeRowsContext, UiStoreContext, ViewEnvContext, useModelVersion, useUiState, type ViewEnv} from './contexts.js';
import {ConversationView} from './conversation-view.js';
import {Footer} from './parts/footer.js';
import {activityConversation, paneConversation} from '../query/conversation-target.js';
import {sanitizeLine} from '../text/sanitize.js';
import {PromptLine} from './parts/prompt-line.js';
import {usePromptKeys} from './hooks/use-prompt-keys.js';
import {TimelineView} from './timeline-view.js';
import {selectedRowIndex} from '../view-model/tree/rows.js';
import {Header} from './parts/header.js';
import {priorities, KeypressProvider, useCommands, useHandOff, type TypedAhead} from './keypress.js';
import {ConfirmQuit, DiagnosticsOverlay, HelpOverlay, StderrOverlay, UsageOverlay} from './overlays.js';
import {Inspector} from './inspector-view.js';
import {SkillsBar} from './parts/skills-bar.js';
import {hasStatusBar} from '../view-model/lines/skills-lines.js';
import {SkillsOverlay} from './skills-view.js';
import {SourceStrip, sourceStripHeight} from './parts/source-strip.js';
import {TreeView} from './tree-view.js';
import {initialUiState, type UiAction, type UiState} from '../view-model/ui-state.js';
import {UiStore} from '../view-model/ui-store.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {useSearchAhead} from './hooks/use-search.js';
import {useCockpitKeys} from './hooks/use-cockpit-keys.js';
import {ConfirmBar, confirmBarHeight} from './parts/confirm-bar.js';

/** The interactive viewer. Holds only the UI state; the model lives outside React and is read per frame. */
export function App({
	env,
	initialUi = initialUiState,
	filter,
	onHistory,
	typedAhead,
}: {
	env: ViewEnv;
	initialUi?: UiState;
	filter?: Filter;
	onHistory?: (history: UiState['history']) => void;
	/** Where keys typed after backspace (back to the job list) go, for the list. */
	typedAhead?: TypedAhead | undefined;
}) {
	const [uiStore] = useState(() => new UiStore(filter ? {...initialUi, filter} : initialUi));
	// The prompts' history outlives this view: a job opened again from the chooser gets it back.
	useEffect(() => {
		if (!onHistory) return;
		let last = uiStore.getState().history;
		return uiStore.subscribe(() => {
			const {history} = uiStore.getState();
			if (history === last) return;
			last = history;
			onHistory(history);
		});
	}, [uiStore, onHistory]);
	return (
		<ViewEnvContext.Provider value={env}>
			<UiStoreContext.Provider value={uiStore}>
				<KeypressProvider typedAhead={typedAhead}>
					<Screen dispatch={uiStore.dispatch} getUi={uiStore.getState} env={env} />
				</KeypressProvider>
			</UiStoreContext.Provider>
		</ViewEnvContext.Provider>
	);
}

function Screen({dispatch, getUi, env}: {dispatch: (action: UiAction) => void; getUi: () => UiState; env: ViewEnv}) {
	useModelVersion();
	const handOff = useHandOff();
	// The screen is drawn for every model the view is given, so it is where each one's texts start being made ahead.
	useSearchAhead();
	const ui = useUiState();
	const {columns, rows} = useTerminalSize();
	// Ink clears the whole screen on every frame once output reaches the last row: stay one short of it.
	const height = Math.max(3, rows - 1);
	const width = Math.max(10, columns);
	const statusBar = hasStatusBar(env.store.model) ? 1 : 0;
	const confirm = (ui.overlay.kind === 'confirmQuit' ? 3 : 0) + confirmBarHeight(ui.confirm, width);
	const strip = sourceStripHeight(env.sources);
	const body = Math.max(1, height - 2 - statusBar - strip - 1 - confirm);

	// Any key clears the last note; the key itself goes on to whoever handles it.
	useCommands(priorities.confirm + 1, () => {
		if (getUi().message !== undefined) dispatch({type: 'setMessage', message: undefined});
		return false;
	});

	// Where the search starts from: the activity selected when `/` was pressed.
	const anchor = useRef<number | undefined>(undefined);
	// The tree's rows, shared with the header and the overlays that speak of the selection's job. While a load posts
	// new models, the rows of the last layout made stay on screen (and answer keys) while the next is made in
	// slices; once it is, the screen draws again. The keys that act on the selection (`/`, `c`, the cockpit's) read
	// these rows too: the selection is the row on screen, and rows of their own for the newest model meant laying out
	// the whole tree at once in the key (591 ms for `/` after a load of 200,000 runs).
	const [, setLayoutsMade] = useState(0);
	const treeRows = useRef(
		env.work.layouts.rowsCache(ms => env.store.noteRowsCost(ms), {
			onReady() {
				setLayoutsMade(made => made + 1);
			},
		}),
	).current;
	const {onAnswer} = useCockpitKeys(() => {
		const current = getUi();
		const rows = treeRows(env.store.model, current, width);
		const row = rows.at(selectedRowIndex(rows, current));
		const activity = row?.kind === 'activity' ? env.store.model.activities[row.index] : undefined;
		if (activity) return {activity};
		// A pane (or a notice or live text under it): its latest run; a job row: the job's first run.
		const pane = row && 'paneId' in row ? env.store.model.panes.get(row.paneId) : undefined;
		const runId = row?.kind === 'job' ? env.store.model.jobs.get(row.jobId)?.runIds[0] : pane?.runIds.at(-1);
		return runId === undefined ? undefined : {runId};
	});
	usePromptKeys(anchor, onAnswer);
	// Writing nothing through Ink makes it draw its last frame again in full: the repaint after `fg`.
	const {write} = useStdout();

	// During a replay, space pauses and +/- change the speed; they come before the tree's use of space.
	useCommands(
		priorities.overlay - 1,
		command => {
			const {replay} = env;
			if (!replay) return false;
			switch (command) {
				case 'replay.pause':
					replay.togglePause();
					return true;
				case 'replay.faster':
					replay.setSpeed(nextSpeed(replay.speed, 1));
					return true;
				case 'replay.slower':
					replay.setSpeed(nextSpeed(replay.speed, -1));
					return true;
				default:
					return false;
			}
		},
		env.replay !== undefined,
	);

	useCommands(priorities.app, command => {
		switch (command) {
			case 'search.open': {
				const current = getUi();
				const rows = treeRows(env.store.model, current, width);
				const row = rows.at(selectedRowIndex(rows, current));
				anchor.current = row?.kind === 'activity' ? row.index : undefined;
				// The last query comes back selected: typing replaces it, ←/→ edit it.
				dispatch({type: 'openPrompt', kind: 'search', text: current.search.query, selected: true});
				return true;
			}

			case 'filter.open':
				dispatch({type: 'openPrompt', kind: 'filter', text: filterText(getUi().filter), selected: true});
				return true;
			case 'filter.clearAll': {
				env.work.filters.cancel();
				const current = getUi();
				if (current.filter.clauses.length === 0 && current.search.query === '') return true;
				dispatch({type: 'clearFilters'});
				dispatch({type: 'setMessage', message: 'filter and search cleared'});
				return true;
			}

			case 'conversation.open': {
				const current = getUi();
				const model = env.store.model;
				const rows = treeRows(model, current, width);
				const row = rows.at(selectedRowIndex(rows, current));
				const activity = row?.kind === 'activity' ? model.activities[row.index] : undefined;
				const found = activity ? activityConversation(model, activity) : row?.kind === 'pane' ? paneConversation(model, row.paneId) : undefined;
				if (!found) dispatch({type: 'setMessage', message: 'c shows the conversation of an activity or a run: select one'});
				else if (found.ok) dispatch({type: 'openConversation', runId: found.target.run.runId, step: found.target.line.step});
				else dispatch({type: 'setMessage', message: sanitizeLine(found.brief)});
				return true;
			}

			case 'app.suspend':
				env.suspend?.(() => write(''));
				return true;
			case 'app.back':
				// Only for a job opened through the chooser, and from the tree (not from inside an overlay).
				if (getUi().overlay.kind === 'none' && env.back) {
					handOff();
					env.back();
				}
				return true;
			case 'filter.errors':
				env.work.filters.cancel();
				dispatch({type: 'setFilter', filter: toggleErrors(getUi().filter)});
				return true;
			case 'timeline.toggle':
				if (getUi().overlay.kind === 'timeline') dispatch({type: 'closeOverlay'});
				else dispatch({type: 'openOverlay', overlay: 'timeline'});
				return true;
			case 'usage.open':
				dispatch({type: 'openOverlay', overlay: 'usage'});
				return true;
			case 'app.quit':
				if (env.childRunning()) dispatch({type: 'openOverlay', overlay: 'confirmQuit'});
				else env.quit();
				return true;
			case 'app.interrupt':
				// First Ctrl-C stops the child; the viewer follows when it exits (or on a second Ctrl-C).
				if (!env.interrupt()) env.quit();
				return true;
			case 'help.toggle':
				if (getUi().overlay.kind === 'help') dispatch({type: 'closeOverlay'});
				else dispatch({type: 'openOverlay', overlay: 'help'});
				return true;
			case 'diagnostics.open':
				dispatch({type: 'openOverlay', overlay: 'diagnostics'});
				return true;
			case 'stderr.open':
				dispatch({type: 'openOverlay', overlay: 'stderr'});
				return true;
			case 'skills.open':
				dispatch({type: 'openOverlay', overlay: 'skills'});
				return true;
			case 'overlay.close':
				// With nothing open, esc clears the search.
				if (getUi().overlay.kind === 'none' && getUi().search.query !== '') dispatch({type: 'setSearch', query: '', current: undefined});
				else dispatch({type: 'closeOverlay'});
				return true;
			default:
				return false;
		}
	});

	const {overlay} = ui;
	return (
		<TreeRowsContext.Provider value={treeRows}>
			<Box flexDirection="column" width={width} height={height}>
				<Header width={width} />
				{statusBar ? <SkillsBar width={width} /> : null}
				{overlay.kind === 'inspector' ? (
					<Inspector activityId={overlay.activityId} scroll={overlay.scroll} height={body} width={width} />
				) : overlay.kind === 'help' ? (
					<HelpOverlay scroll={overlay.scroll} height={body} width={width} />
				) : overlay.kind === 'diagnostics' ? (
					<DiagnosticsOverlay scroll={overlay.scroll} height={body} width={width} />
				) : overlay.kind === 'stderr' ? (
					<StderrOverlay scroll={overlay.scroll} height={body} width={width} />
				) : overlay.kind === 'skills' ? (
					<SkillsOverlay scroll={overlay.scroll} height={body} width={width} />
				) : overlay.kind === 'usage' ? (
					<UsageOverlay scroll={overlay.scroll} height={body} width={width} />
				) : overlay.kind === 'conversation' ? (
					<ConversationView runId={overlay.runId} step={overlay.step} scroll={overlay.scroll} height={body} width={width} />
				) : overlay.kind === 'timeline' ? (
					<TimelineView scroll={overlay.scroll} height={body} width={width} />
				) : (
					<TreeView height={body} width={width} />
				)}
				{strip > 0 ? <SourceStrip width={width} /> : null}
				{overlay.kind === 'confirmQuit' ? <ConfirmQuit width={width} /> : null}
				{ui.confirm ? <ConfirmBar width={width} /> : null}
				{ui.prompt ? <PromptLine width={width} /> : <Footer width={width} />}
			</Box>
		</TreeRowsContext.Provider>
	);
}
