import {lineOf, remember, type Line, type Recall} from './line-editor.js';
import {emptyFilter, isEmptyFilter, type Filter} from '../query/filter.js';
import {assertNever} from '../model/assert-never.js';
import type {Continuation} from '../query/continuation.js';

/*
 * What the person is doing with the viewer — selection, collapsed panes, follow, overlays — kept apart
 * from the model of the run. Pure: (state, action) → state.
 */

export type Overlay =
	| {kind: 'none'}
	| {kind: 'inspector'; activityId: string; scroll: number}
	| {kind: 'help'; scroll: number}
	| {kind: 'diagnostics'; scroll: number}
	| {kind: 'stderr'; scroll: number}
	| {kind: 'skills'; scroll: number}
	/** `allJobs`: with several jobs, every job rather than the one the selection is in (`u` switches). */
	| {kind: 'usage'; scroll: number; allJobs?: boolean}
	/** `cursor`: the key of the row the cursor is on, when the timeline is come back to. */
	| {kind: 'timeline'; scroll: number; cursor?: string}
	/**
	 * What the model was given and answered at a step of a run (conversation-view.tsx). `back`: the timeline it was
	 * opened from, which closing it returns to.
	 */
	| {kind: 'conversation'; runId: string; step: number; scroll: number; back?: {kind: 'timeline'; scroll: number; cursor?: string}}
	| {kind: 'confirmQuit'};

export type UiState = {
	/** Key of the selected row (`p:<paneId>`, `a:<activityId>`); stable while rows are added around it. */
	selectedKey: string | undefined;
	/** Where the selection was, used when its row disappears (its pane was collapsed). */
	selectedIndex: number;
	/** The selection was jumped to (the timeline's enter): the tree shows the rows above it too, until it moves. */
	selectedWithContext: boolean;
	/** Explicit choices; panes not in here use the default (finished children collapsed, the rest open). */
	collapsed: ReadonlyMap<string, boolean>;
	/**
	 * Folds chosen while a filter is on (`all`: after `E`). A filter opens every pane it shows; these keep
	 * the person's folds from before it (`collapsed`, `defaultCollapse`) untouched, to come back when it goes.
	 */
	filterFolds: FilterFolds;
	/** Folds of job rows (shown when there are several jobs); `defaultCollapse` covers the untouched ones too. */
	jobFolds: JobFolds;
	/** Default for panes and jobs the person has not touched, after `e` / `E`. */
	defaultCollapse: 'auto' | 'expanded' | 'collapsed';
	/** Keep the newest row in sight. */
	follow: boolean;
	overlay: Overlay;
	/** Activities the filter does not match are hidden (and counted in the header). */
	filter: Filter;
	/** The search: matches are highlighted; `current` is the activity index `n`/`N` last jumped to. */
	search: {query: string; current: number | undefined};
	/** A line being typed at the bottom: `/` search or `:` filter, edited as a shell edits (line-editor.ts). */
	prompt: Prompt | undefined;
	/** The lines entered at each prompt, newest last, for ↑/↓: kept for as long as the viewer runs. */
	history: Readonly<Record<PromptKind, readonly string[]>>;
	/** A short note for the person (where an export was written, …), shown in the footer until the next key. */
	message: string | undefined;
	/** What waits for a yes before it is done (the cockpit's `a`, `R` and `K`), shown above the footer. */
	confirm: Confirm | undefined;
	/** A command copied with `y` is shown on the terminal's own screen: the next key brings the viewer back. */
	showingCommand: boolean;
};

/** Run a command that carries a job on (an answer, a resume), or stop the commands that run. */
export type Confirm = {kind: 'continue'; continuation: Continuation} | {kind: 'stop'};

export type FilterFolds = {folds: ReadonlyMap<string, boolean>; all: boolean};

/**
 * Job ids are not pane ids (a hostile log can give a run a job's id), so job folds have their own maps: `folds`
 * the person's, `filtering` those made while a filter is on, like `filterFolds`.
 */
export type JobFolds = {folds: ReadonlyMap<string, boolean>; filtering: ReadonlyMap<string, boolean>};

const noJobFolds: JobFolds = {folds: new Map(), filtering: new Map()};

const noFilterFolds: FilterFolds = {folds: new Map(), all: false};

/** `/` search, `:` filter, `a` an answer to the question the run `answerRunId` waits on. */
export type PromptKind = 'search' | 'filter' | 'answer';

export type Prompt = Line & {
	kind: PromptKind;
	/** With `answer`: the run whose question it answers. */
	answerRunId?: string | undefined;
	error: string | undefined;
	/** Where ↑/↓ have got to in the history, while browsing it. */
	recall: Recall | undefined;
};

export type UiAction =
	/** `context`: a jump, shown with the rows above it. */
	| {type: 'select'; key: string; index: number; follow?: boolean; context?: boolean}
	| {type: 'setCollapsed'; paneId: string; collapsed: boolean}
	| {type: 'setJobCollapsed'; jobId: string; collapsed: boolean}
	/** In the usage overlay: the job under the selection or every job. */
	| {type: 'toggleUsageJobs'}
	/** Unfolds many panes in one change (the panes above a search match: a chain can be 100,000 deep). */
	| {type: 'expandPanes'; paneIds: readonly string[]}
	| {type: 'expandAll'}
	| {type: 'collapseAll'}
	| {type: 'setFollow'; follow: boolean}
	| {type: 'openInspector'; activityId: string}
	| {type: 'openOverlay'; overlay: 'help' | 'diagnostics' | 'stderr' | 'skills' | 'usage' | 'timeline' | 'confirmQuit'}
	| {type: 'setFilter'; filter: Filter}
	| {type: 'setSearch'; query: string; current?: number | undefined}
	/** `selected`: the text is offered for replacement (a prompt reopened with its last text). */
	| {type: 'openPrompt'; kind: PromptKind; text: string; selected?: boolean; answerRunId?: string}
	/** Without a cursor, the cursor goes to the end of `text`. */
	| {type: 'editPrompt'; text: string; cursor?: number; selected?: boolean; error?: string | undefined; recall?: Recall | undefined}
	/** Adds a line to a prompt's history. */
	| {type: 'remember'; kind: PromptKind; text: string}
	| {type: 'closePrompt'}
	/** Every filter (including `--filter` and errors-only) and the search, gone in one key. */
	| {type: 'clearFilters'}
	| {type: 'setMessage'; message: string | undefined}
	| {type: 'setConfirm'; confirm: Confirm | undefined}
	| {type: 'setShowingCommand'; showing: boolean}
	/** `c`: the conversation of a step of a run. */
	| {type: 'openConversation'; runId: string; step: number; back?: {kind: 'timeline'; scroll: number; cursor?: string}}
	| {type: 'scrollOverlay'; by: number; max: number}
	| {type: 'scrollOverlayTo'; to: number; max: number}
	| {type: 'closeOverlay'};

export const initialUiState: UiState = {
	selectedKey: undefined,
	selectedIndex: 0,
	selectedWithContext: false,
	collapsed: new Map(),
	filterFolds: noFilterFolds,
	jobFolds: noJobFolds,
	defaultCollapse: 'auto',
	follow: true,
	overlay: {kind: 'none'},
	filter: emptyFilter,
	search: {query: '', current: undefined},
	prompt: undefined,
	history: {search: [], filter: [], answer: []},
	message: undefined,
	confirm: undefined,
	showingCommand: false,
};

export function uiReducer(state: UiState, action: UiAction): UiState {
	switch (action.type) {
		case 'select':
			return {
				...state,
				selectedKey: action.key,
				selectedIndex: action.index,
				follow: action.follow ?? state.follow,
				selectedWithContext: action.context ?? false,
			};
		case 'setCollapsed': {
			if (!isEmptyFilter(state.filter)) {
				const folds = new Map(state.filterFolds.folds);
				folds.set(action.paneId, action.collapsed);
				return {...state, filterFolds: {...state.filterFolds, folds}};
			}

			const collapsed = new Map(state.collapsed);
			collapsed.set(action.paneId, action.collapsed);
			return {...state, collapsed};
		}

		case 'setJobCollapsed': {
			const filtering = !isEmptyFilter(state.filter);
			const folds = new Map(filtering ? state.jobFolds.filtering : state.jobFolds.folds);
			folds.set(action.jobId, action.collapsed);
			return {...state, jobFolds: filtering ? {...state.jobFolds, filtering: folds} : {...state.jobFolds, folds}};
		}

		case 'toggleUsageJobs':
			return state.overlay.kind === 'usage' ? {...state, overlay: {...state.overlay, allJobs: !(state.overlay.allJobs ?? false), scroll: 0}} : state;
		case 'expandPanes': {
			// Under a filter only the folds made while filtering open: the person's own come back as they were.
			const filtering = !isEmptyFilter(state.filter);
			const opened = new Map(filtering ? state.filterFolds.folds : state.collapsed);
			for (const paneId of action.paneIds) opened.set(paneId, false);
			return filtering ? {...state, filterFolds: {...state.filterFolds, folds: opened}} : {...state, collapsed: opened};
		}

		// Jobs fold and unfold with the panes: `E` on a 40-job log leaves one row per job, a list to pick from.
		case 'expandAll':
			if (!isEmptyFilter(state.filter)) return {...state, filterFolds: noFilterFolds, jobFolds: {...state.jobFolds, filtering: new Map()}};
			return {...state, collapsed: new Map(), jobFolds: {...state.jobFolds, folds: new Map()}, defaultCollapse: 'expanded'};
		case 'collapseAll':
			if (!isEmptyFilter(state.filter)) return {...state, filterFolds: {folds: new Map(), all: true}, jobFolds: {...state.jobFolds, filtering: new Map()}};
			return {...state, collapsed: new Map(), jobFolds: {...state.jobFolds, folds: new Map()}, defaultCollapse: 'collapsed'};
		case 'setFollow':
			return {...state, follow: action.follow};
		case 'openInspector':
			return {...state, overlay: {kind: 'inspector', activityId: action.activityId, scroll: 0}};
		case 'openConversation':
			return {...state, overlay: {kind: 'conversation', runId: action.runId, step: action.step, scroll: 0, ...(action.back ? {back: action.back} : {})}};
		case 'openOverlay':
			return {...state, overlay: action.overlay === 'confirmQuit' ? {kind: 'confirmQuit'} : {kind: action.overlay, scroll: 0}};
		case 'scrollOverlay':
		case 'scrollOverlayTo': {
			const {overlay} = state;
			if (overlay.kind === 'none' || overlay.kind === 'confirmQuit') return state;
			const target = action.type === 'scrollOverlay' ? overlay.scroll + action.by : action.to;
			const scroll = Math.max(0, Math.min(action.max, target));
			return scroll === overlay.scroll ? state : {...state, overlay: {...overlay, scroll}};
		}

		case 'closeOverlay':
			// A conversation opened from the timeline goes back to it, where its cursor was.
			return {...state, overlay: state.overlay.kind === 'conversation' && state.overlay.back ? state.overlay.back : {kind: 'none'}};
		case 'setFilter':
			// A new filter shows other panes: it opens them all again.
			return {...state, filter: action.filter, filterFolds: noFilterFolds, jobFolds: {...state.jobFolds, filtering: new Map()}};
		case 'setSearch':
			return {...state, search: {query: action.query, current: 'current' in action ? action.current : state.search.current}};
		case 'openPrompt':
			return {
				...state,
				prompt: {kind: action.kind, ...lineOf(action.text, action.selected), error: undefined, recall: undefined, answerRunId: action.answerRunId},
				message: undefined,
			};
		case 'editPrompt': {
			if (!state.prompt) return state;
			const line = action.cursor === undefined ? lineOf(action.text) : {text: action.text, cursor: action.cursor, selected: false};
			return {...state, prompt: {...state.prompt, ...line, selected: action.selected ?? false, error: action.error, recall: action.recall}};
		}

		case 'remember': {
			const entries = remember(state.history[action.kind], action.text);
			return entries === state.history[action.kind] ? state : {...state, history: {...state.history, [action.kind]: entries}};
		}

		case 'closePrompt':
			return {...state, prompt: undefined};
		case 'clearFilters':
			return {
				...state,
				filter: emptyFilter,
				filterFolds: noFilterFolds,
				jobFolds: {...state.jobFolds, filtering: new Map()},
				search: {query: '', current: undefined},
			};
		case 'setMessage':
			return state.message === action.message ? state : {...state, message: action.message};
		case 'setConfirm':
			return {...state, confirm: action.confirm, prompt: undefined};
		case 'setShowingCommand':
			return state.showingCommand === action.showing ? state : {...state, showingCommand: action.showing};
		default:
			return assertNever(action);
	}
}
