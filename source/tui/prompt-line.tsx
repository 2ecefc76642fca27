import {Text} from 'ink';
import React, {useRef} from 'react';
import {parseFilter} from '../query/filter.js';
import {stepMatch} from '../query/search.js';
import {sanitizeLine} from '../present/sanitize.js';
import {useModelVersion, useUiState, useUiStore, useViewEnv} from './contexts.js';
import {createMatchCache, revealActivity} from './find.js';
import {useTextCapture} from './keypress.js';

/**
 * The line typed at the bottom: `/` searches as you type (jumping to the first match from where the
 * selection was), `:` edits the filter (applied on enter, with the error shown when it does not parse).
 */
export function usePromptKeys(anchor: {current: number | undefined}): void {
	const {model} = useViewEnv();
	const store = useUiStore();
	const matchesFor = useRef(createMatchCache()).current;
	useTextCapture((input, key) => {
		const current = store.getState();
		const open = current.prompt;
		if (!open) return;
		const {dispatch} = store;
		if (key.escape) {
			if (open.kind === 'search') dispatch({type: 'setSearch', query: '', current: undefined});
			dispatch({type: 'closePrompt'});
			return;
		}

		if (key.return) {
			if (open.kind === 'search') {
				dispatch({type: 'closePrompt'});
				return;
			}

			const parsed = parseFilter(open.text);
			if (parsed.ok) {
				dispatch({type: 'setFilter', filter: parsed.filter});
				dispatch({type: 'closePrompt'});
			} else {
				dispatch({type: 'editPrompt', text: open.text, error: parsed.error});
			}

			return;
		}

		let text = open.text;
		if (key.backspace || key.delete) text = [...text].slice(0, -1).join('');
		else if (!key.ctrl && !key.meta) text += [...input].filter(character => character >= ' ' && character !== '\u007F').join('');
		if (text === open.text) return;
		dispatch({type: 'editPrompt', text, error: undefined});
		if (open.kind !== 'search') return;
		dispatch({type: 'setSearch', query: text});
		const found = matchesFor(model, text, current.filter);
		// Incremental: the first match at or after where the selection was when the search began.
		const target = stepMatch(found, anchor.current === undefined ? undefined : anchor.current - 0.5, 1);
		if (target !== undefined) {
			dispatch({type: 'setSearch', query: text, current: target});
			revealActivity(model, target, dispatch);
		}
	}, () => store.getState().prompt !== undefined);
}

export function PromptLine({width}: {width: number}) {
	const {model} = useViewEnv();
	useModelVersion();
	const ui = useUiState();
	const matchesFor = useRef(createMatchCache()).current;
	const {prompt} = ui;
	if (!prompt) return null;
	const found = prompt.kind === 'search' ? matchesFor(model, prompt.text, ui.filter) : [];
	const position = ui.search.current === undefined ? 0 : found.indexOf(ui.search.current) + 1;
	return (
		<Text wrap="truncate-end">
			<Text color="cyan">{prompt.kind === 'search' ? '/' : ':'}</Text>
			{sanitizeLine(prompt.text)}
			<Text inverse> </Text>
			{prompt.kind === 'search' ? (
				<Text color="gray">{prompt.text === '' ? '  type to search · enter keep · esc clear' : `  ${position}/${found.length} matches`}</Text>
			) : prompt.error ? (
				<Text color="red">  {sanitizeLine(prompt.error)}</Text>
			) : (
				<Text color="gray">  type:exec expert:NAME run:ID errors step:10-20 text · -term negates · enter apply</Text>
			)}
		</Text>
	);
}
