import {Text, type Key} from 'ink';
import React from 'react';
import {parseFilter} from '../../query/filter.js';
import {displayWidth} from '../../text/width/width.js';
import {useModelVersion, useUiState, useUiStore, useViewEnv} from '../contexts.js';
import {Line as FittedLine} from './line.js';
import {revealActivity} from '../../view-model/search/reveal.js';
import {searchStatus} from '../../view-model/search/search-status.js';
import {useSearchProgress} from '../hooks/use-search.js';
import {useTextCapture} from '../keypress.js';
import {browse, editLine, type Line, type LineEdit, type Recall} from '../../view-model/line-editor.js';
import {lineWindow, shownStart} from '../../view-model/line-window.js';
import {palette} from '../palette.js';

/**
 * The line typed at the bottom: `/` searches as you type (jumping to the first match from where the
 * selection was), `:` edits the filter (applied on enter, with the error shown when it does not parse).
 */
export function usePromptKeys(anchor: {current: number | undefined}): void {
	const {model, store: view, work} = useViewEnv();
	const store = useUiStore();
	useTextCapture((input, key) => {
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
	}, () => store.getState().prompt !== undefined);
}

/** The shell's editing keys (readline's emacs bindings), as far as a terminal tells them apart. */
export function lineEditFor(input: string, key: Key, line: Line): LineEdit | undefined {
	if (key.leftArrow) return key.ctrl || key.meta ? {type: 'wordLeft'} : {type: 'left'};
	if (key.rightArrow) return key.ctrl || key.meta ? {type: 'wordRight'} : {type: 'right'};
	if (key.home) return {type: 'home'};
	if (key.end) return {type: 'end'};
	if (key.backspace) return {type: 'backspace'};
	if (key.delete) return {type: 'delete'};
	if (key.ctrl) {
		switch (input) {
			case 'a':
				return {type: 'home'};
			case 'e':
				return {type: 'end'};
			case 'b':
				return {type: 'left'};
			case 'f':
				return {type: 'right'};
			case 'u':
				return {type: 'killToStart'};
			case 'k':
				return {type: 'killToEnd'};
			case 'w':
				return {type: 'killWordBack'};
			case 'h':
				return {type: 'backspace'};
			case 'd':
				return line.text === '' ? undefined : {type: 'delete'};
			default:
				return undefined;
		}
	}

	if (key.meta || key.tab) return undefined;
	return {type: 'insert', text: input};
}

export function PromptLine({width}: {width: number}) {
	const {model, work} = useViewEnv();
	useModelVersion();
	useSearchProgress();
	const ui = useUiState();
	const {prompt} = ui;
	if (!prompt) return null;
	// What follows the text: a hint gives way to a long line; the search's count and a filter's error keep up
	// to half the width, so a line longer than the screen does not push them out of sight.
	const note =
		prompt.kind === 'search'
			? prompt.text === ''
				? {text: '  type to search · enter keep · esc clear', color: palette.muted, kept: false}
				: {text: `  ${searchStatus(model, work.searches.searchFor(model, prompt.text, ui.filter), ui.search.current, 'long')}`, color: palette.muted, kept: true}
			: prompt.error
				? {text: `  ${shownStart(prompt.error, width)}`, color: palette.error, kept: true}
				: {text: '  type:exec expert:NAME run:ID errors step:10-20 text · -term negates · enter apply', color: palette.muted, kept: false};
	const columns = width - 1 - (note.kept ? Math.min(displayWidth(note.text), Math.floor(width / 2)) : 0);
	return (
		<FittedLine width={width}>
			<Text color={palette.accent}>{prompt.kind === 'search' ? '/' : ':'}</Text>
			<PromptText line={prompt} columns={columns} />
			<Text color={note.color}>{note.text}</Text>
		</FittedLine>
	);
}

/**
 * The text with its cursor, or all of it marked when it is selected (the next key typed replaces it), in at
 * most `columns` columns: a longer line shows the window around its cursor (`lineWindow`).
 */
export function PromptText({line, columns}: {line: Line; columns: number}) {
	const shown = lineWindow(line.selected ? {...line, cursor: Number.MAX_SAFE_INTEGER} : line, columns);
	const lead = shown.cutBefore ? <Text dimColor>…</Text> : null;
	if (line.selected) {
		return (
			<>
				{lead}
				<Text inverse>{shown.before}</Text>
				<Text> </Text>
			</>
		);
	}

	return (
		<>
			{lead}
			{shown.before}
			<Text inverse>{shown.at}</Text>
			{shown.after}
		</>
	);
}
