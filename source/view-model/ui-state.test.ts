import {describe, expect, it} from 'vitest';
import {parseFilter} from '../query/filter.js';
import {initialUiState, uiReducer, type UiAction, type UiState} from './ui-state.js';

function after(...actions: UiAction[]): UiState {
	return actions.reduce(uiReducer, initialUiState);
}

describe('the UI state', () => {
	it('starts following the newest row, with nothing open and no filter', () => {
		expect(initialUiState).toMatchObject({follow: true, overlay: {kind: 'none'}, prompt: undefined, defaultCollapse: 'auto'});
		expect(initialUiState.filter.clauses).toEqual([]);
	});

	it('remembers the selected row, and stops following when told to', () => {
		const state = after({type: 'select', key: 'a:act-3', index: 12, follow: false});
		expect(state).toMatchObject({selectedKey: 'a:act-3', selectedIndex: 12, follow: false});
		expect(after({type: 'select', key: 'p:run-1', index: 0}).follow).toBe(true);
	});

	it('keeps a pane folded or open as chosen, until expand all or collapse all resets the choices', () => {
		const chosen = after({type: 'setCollapsed', paneId: 'run-1', collapsed: true}, {type: 'setCollapsed', paneId: 'run-2', collapsed: false});
		expect([...chosen.collapsed]).toEqual([
			['run-1', true],
			['run-2', false],
		]);
		const expanded = uiReducer(chosen, {type: 'expandAll'});
		expect(expanded.collapsed.size).toBe(0);
		expect(expanded.defaultCollapse).toBe('expanded');
		expect(uiReducer(chosen, {type: 'collapseAll'}).defaultCollapse).toBe('collapsed');
		// The earlier state is untouched: views compare states by identity.
		expect(chosen.collapsed.size).toBe(2);
	});

	it('opens the inspector and overlays at the top, and closes them', () => {
		expect(after({type: 'openInspector', activityId: 'act-7'}).overlay).toEqual({kind: 'inspector', activityId: 'act-7', scroll: 0});
		expect(after({type: 'openOverlay', overlay: 'help'}).overlay).toEqual({kind: 'help', scroll: 0});
		expect(after({type: 'openOverlay', overlay: 'confirmQuit'}).overlay).toEqual({kind: 'confirmQuit'});
		expect(after({type: 'openOverlay', overlay: 'usage'}, {type: 'closeOverlay'}).overlay).toEqual({kind: 'none'});
	});

	it('scrolls an overlay within its bounds, and returns the same state when nothing moves', () => {
		const open = after({type: 'openOverlay', overlay: 'timeline'});
		expect(uiReducer(open, {type: 'scrollOverlay', by: 5, max: 3}).overlay).toEqual({kind: 'timeline', scroll: 3});
		expect(uiReducer(open, {type: 'scrollOverlayTo', to: 2, max: 3}).overlay).toEqual({kind: 'timeline', scroll: 2});
		expect(uiReducer(open, {type: 'scrollOverlay', by: -1, max: 3})).toBe(open);
		const confirm = after({type: 'openOverlay', overlay: 'confirmQuit'});
		expect(uiReducer(confirm, {type: 'scrollOverlay', by: 1, max: 3})).toBe(confirm);
	});

	it('keeps the current match when only the search text changes', () => {
		const jumped = after({type: 'setSearch', query: 'vitest', current: 14});
		expect(uiReducer(jumped, {type: 'setSearch', query: 'vitest run'}).search).toEqual({query: 'vitest run', current: 14});
		expect(uiReducer(jumped, {type: 'setSearch', query: '', current: undefined}).search).toEqual({query: '', current: undefined});
	});

	it('edits a prompt only while one is open, and opening one clears the last note', () => {
		expect(after({type: 'editPrompt', text: 'x'}).prompt).toBeUndefined();
		const typed = after(
			{type: 'setMessage', message: 'wrote /tmp/e.json'},
			{type: 'openPrompt', kind: 'filter', text: ''},
			{type: 'editPrompt', text: 'step:x', error: 'not a step'},
		);
		expect(typed.message).toBeUndefined();
		expect(typed.prompt).toEqual({kind: 'filter', text: 'step:x', cursor: 6, selected: false, error: 'not a step', recall: undefined});
		expect(uiReducer(typed, {type: 'closePrompt'}).prompt).toBeUndefined();
	});

	it('sets the filter, and leaves the state as it is when the note does not change', () => {
		const parsed = parseFilter('errors');
		if (!parsed.ok) throw new Error(parsed.error);
		expect(after({type: 'setFilter', filter: parsed.filter}).filter).toBe(parsed.filter);
		const noted = after({type: 'setMessage', message: 'hello'});
		expect(uiReducer(noted, {type: 'setMessage', message: 'hello'})).toBe(noted);
	});

	it('opens a prompt with its last text selected when asked, the cursor at the end', () => {
		expect(after({type: 'openPrompt', kind: 'search', text: 'vitest', selected: true}).prompt).toMatchObject({text: 'vitest', cursor: 6, selected: true});
		expect(after({type: 'openPrompt', kind: 'search', text: '', selected: true}).prompt?.selected).toBe(false);
	});

	it('keeps a history per prompt', () => {
		const state = after(
			{type: 'remember', kind: 'search', text: 'npm'},
			{type: 'remember', kind: 'filter', text: 'errors'},
			{type: 'remember', kind: 'search', text: 'vitest'},
		);
		expect(state.history).toEqual({search: ['npm', 'vitest'], filter: ['errors'], answer: []});
	});

	it('clears every filter and the search in one action', () => {
		const parsed = parseFilter('errors type:exec');
		if (!parsed.ok) throw new Error(parsed.error);
		const state = after({type: 'setFilter', filter: parsed.filter}, {type: 'setSearch', query: 'npm', current: 4}, {type: 'clearFilters'});
		expect(state.filter.clauses).toEqual([]);
		expect(state.search).toEqual({query: '', current: undefined});
	});
});

describe('#32 §3.9 esc from a conversation opened from the timeline goes back to the timeline', () => {
	it('returns to the timeline with its scroll and cursor; a conversation opened from the tree closes', () => {
		const back = {kind: 'timeline' as const, scroll: 4, cursor: 's:run-1:3'};
		const opened = after({type: 'openOverlay', overlay: 'timeline'}, {type: 'openConversation', runId: 'run-1', step: 3, back});
		expect(uiReducer(opened, {type: 'closeOverlay'}).overlay).toEqual(back);
		expect(after({type: 'openConversation', runId: 'run-1', step: 3}, {type: 'closeOverlay'}).overlay).toEqual({kind: 'none'});
	});

	it('a jump is shown with context until the selection moves', () => {
		const jumped = after({type: 'select', key: 'a:act-3', index: 0, follow: false, context: true});
		expect(jumped.selectedWithContext).toBe(true);
		expect(uiReducer(jumped, {type: 'select', key: 'a:act-4', index: 5}).selectedWithContext).toBe(false);
	});
});
