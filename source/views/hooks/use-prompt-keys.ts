import {parseFilter} from '../../query/filter.js';
import {browse, editLine, type Line, type Recall} from '../../view-model/line-editor.js';
import {revealActivity} from '../../view-model/search/reveal.js';
import {useUiStore, useViewEnv} from '../contexts.js';
import {lineEditFor} from '../keymap.js';
import {useTextCapture} from '../keypress.js';

/**
 * The line typed at the bottom: `/` searches as you type (jumping to the first match from where the
 * selection was), `:` edits the filter (applied on enter, with the error shown when it does not parse).
 */
export function usePromptKeys(anchor: {current: number | undefined}, onAnswer: (text: string, runId: string) => void): void {
	const {model, store: view, work} = useViewEnv();
	const store = useUiStore();
	useTextCapture(
		(input, key) => {
			const current = store.getState();
			const open = current.prompt;
			if (!open) return;
			const {dispatch} = store;
			if (key.escape || (key.ctrl && input === 'c')) {
				work.searches.cancelJump();
				if (open.kind === 'search') dispatch({type: 'setSearch', query: '', current: undefined});
				dispatch({type: 'closePrompt'});
				return;
			}

			if (key.return) {
				if (open.kind === 'answer') {
					if (open.text.trim() === '' || open.answerRunId === undefined) {
						dispatch({type: 'editPrompt', text: open.text, cursor: open.cursor, error: 'type the answer first (esc cancels)'});
						return;
					}

					dispatch({type: 'remember', kind: 'answer', text: open.text});
					dispatch({type: 'closePrompt'});
					onAnswer(open.text, open.answerRunId);
					return;
				}

				if (open.kind === 'search') {
					dispatch({type: 'remember', kind: 'search', text: open.text});
					dispatch({type: 'closePrompt'});
					return;
				}

				const parsed = parseFilter(open.text);
				if (parsed.ok) {
					dispatch({type: 'remember', kind: 'filter', text: open.text});
					dispatch({type: 'closePrompt'});
					// Applied once worked out, in slices on a large log; at once (on this key) on a small one.
					work.filters.whenReady({
						filter: parsed.filter,
						model: () => view.model,
						current: () => store.getState().filter,
						apply(filter) {
							dispatch({type: 'setFilter', filter});
						},
						changesInPlace: view.changedInPlace,
					});
				} else {
					dispatch({type: 'editPrompt', text: open.text, cursor: open.cursor, error: parsed.error});
				}

				return;
			}

			let next: {line: Line; recall: Recall | undefined} | undefined;
			if (key.upArrow || key.downArrow) {
				next = browse(current.history[open.kind], open, open.recall, key.upArrow ? -1 : 1);
			} else {
				const edit = lineEditFor(input, key, open);
				if (edit) next = {line: editLine(open, edit), recall: undefined};
			}

			if (!next || (next.line.text === open.text && next.line.cursor === open.cursor && next.line.selected === open.selected)) return;
			const {line} = next;
			dispatch({type: 'editPrompt', text: line.text, cursor: line.cursor, selected: line.selected, error: undefined, recall: next.recall});
			if (open.kind !== 'search' || line.text === open.text) return;
			dispatch({type: 'setSearch', query: line.text});
			if (line.text === '') {
				work.searches.cancelJump();
				return;
			}

			// Incremental: the first match at or after where the selection was when the search began, now if the
			// search's first slice found it, else when the search gets there (a newer key takes its place).
			const from = anchor.current === undefined ? undefined : anchor.current - 0.5;
			work.searches.jumpWhenFound(
				model,
				line.text,
				current.filter,
				from,
				1,
				target => {
					if (store.getState().search.query !== line.text) return;
					dispatch({type: 'setSearch', query: line.text, current: target});
					revealActivity(model, target, dispatch);
				},
				() => undefined,
			);
		},
		() => store.getState().prompt !== undefined,
	);
}
