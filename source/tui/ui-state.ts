import {emptyFilter, type Filter} from '../query/filter.js';
import {assertNever} from '../model/assert-never.js';

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
	| {kind: 'usage'; scroll: number}
	| {kind: 'timeline'; scroll: number}
	| {kind: 'confirmQuit'};

export type UiState = {
	/** Key of the selected row (`p:<paneId>`, `a:<activityId>`); stable while rows are added around it. */
	selectedKey: string | undefined;
	/** Where the selection was, used when its row disappears (its pane was collapsed). */
	selectedIndex: number;
	/** Explicit choices; panes not in here use the default (finished children collapsed, the rest open). */
	collapsed: ReadonlyMap<string, boolean>;
	/** Default for panes the person has not touched, after `e` / `E`. */
	defaultCollapse: 'auto' | 'expanded' | 'collapsed';
	/** Keep the newest row in sight. */
	follow: boolean;
	overlay: Overlay;
	/** Activities the filter does not match are hidden (and counted in the header). */
	filter: Filter;
	/** The search: matches are highlighted; `current` is the activity index `n`/`N` last jumped to. */
	search: {query: string; current: number | undefined};
	/** A line being typed at the bottom: `/` search or `:` filter. */
	prompt: {kind: 'search' | 'filter'; text: string; error: string | undefined} | undefined;
	/** A short note for the person (where an export was written, …), shown in the footer until the next key. */
	message: string | undefined;
};

export type UiAction =
	| {type: 'select'; key: string; index: number; follow?: boolean}
	| {type: 'setCollapsed'; paneId: string; collapsed: boolean}
	/** Unfolds many panes in one change (the panes above a search match: a chain can be 100,000 deep). */
	| {type: 'expandPanes'; paneIds: readonly string[]}
	| {type: 'expandAll'}
	| {type: 'collapseAll'}
	| {type: 'setFollow'; follow: boolean}
	| {type: 'openInspector'; activityId: string}
	| {type: 'openOverlay'; overlay: 'help' | 'diagnostics' | 'stderr' | 'usage' | 'timeline' | 'confirmQuit'}
	| {type: 'setFilter'; filter: Filter}
	| {type: 'setSearch'; query: string; current?: number | undefined}
	| {type: 'openPrompt'; kind: 'search' | 'filter'; text: string}
	| {type: 'editPrompt'; text: string; error?: string | undefined}
	| {type: 'closePrompt'}
	| {type: 'setMessage'; message: string | undefined}
	| {type: 'scrollOverlay'; by: number; max: number}
	| {type: 'scrollOverlayTo'; to: number; max: number}
	| {type: 'closeOverlay'};

export const initialUiState: UiState = {
	selectedKey: undefined,
	selectedIndex: 0,
	collapsed: new Map(),
	defaultCollapse: 'auto',
	follow: true,
	overlay: {kind: 'none'},
	filter: emptyFilter,
	search: {query: '', current: undefined},
	prompt: undefined,
	message: undefined,
};

export function uiReducer(state: UiState, action: UiAction): UiState {
	switch (action.type) {
		case 'select':
			return {...state, selectedKey: action.key, selectedIndex: action.index, follow: action.follow ?? state.follow};
		case 'setCollapsed': {
			const collapsed = new Map(state.collapsed);
			collapsed.set(action.paneId, action.collapsed);
			return {...state, collapsed};
		}

		case 'expandPanes': {
			const collapsed = new Map(state.collapsed);
			for (const paneId of action.paneIds) collapsed.set(paneId, false);
			return {...state, collapsed};
		}

		case 'expandAll':
			return {...state, collapsed: new Map(), defaultCollapse: 'expanded'};
		case 'collapseAll':
			return {...state, collapsed: new Map(), defaultCollapse: 'collapsed'};
		case 'setFollow':
			return {...state, follow: action.follow};
		case 'openInspector':
			return {...state, overlay: {kind: 'inspector', activityId: action.activityId, scroll: 0}};
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
			return {...state, overlay: {kind: 'none'}};
		case 'setFilter':
			return {...state, filter: action.filter};
		case 'setSearch':
			return {...state, search: {query: action.query, current: 'current' in action ? action.current : state.search.current}};
		case 'openPrompt':
			return {...state, prompt: {kind: action.kind, text: action.text, error: undefined}, message: undefined};
		case 'editPrompt':
			return state.prompt ? {...state, prompt: {...state.prompt, text: action.text, error: action.error}} : state;
		case 'closePrompt':
			return {...state, prompt: undefined};
		case 'setMessage':
			return state.message === action.message ? state : {...state, message: action.message};
		default:
			return assertNever(action);
	}
}
