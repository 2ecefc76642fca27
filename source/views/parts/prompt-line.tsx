import {Text} from 'ink';
import {displayWidth} from '../../text/width/width.js';
import {useModelVersion, useUiState, useViewEnv} from '../contexts.js';
import {Line as FittedLine} from './line.js';
import {searchStatus} from '../../view-model/search/search-status.js';
import {useSearchProgress} from '../hooks/use-search.js';
import type {Line} from '../../view-model/line-editor.js';
import {lineWindow, shownStart} from '../../view-model/line-window.js';
import {palette} from '../palette.js';

/** The prompt at the bottom while `/` or `:` is open: the line typed, with what the search found or what is wrong with the filter. */
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
		prompt.kind === 'answer'
			? prompt.error
				? {text: `  ${shownStart(prompt.error, width)}`, color: palette.error, kept: true}
				: {
						text: `  ${model.runs.get(prompt.answerRunId ?? '')?.dialect === 'claude-code' ? 'your message to the session' : 'your answer'} · enter shows the command to confirm · esc cancel`,
						color: palette.muted,
						kept: false,
					}
			: prompt.kind === 'search'
				? prompt.text === ''
					? {text: '  type to search · enter keep · esc clear', color: palette.muted, kept: false}
					: {
							text: `  ${searchStatus(model, work.searches.searchFor(model, prompt.text, ui.filter), ui.search.current, 'long')}`,
							color: palette.muted,
							kept: true,
						}
				: prompt.error
					? {text: `  ${shownStart(prompt.error, width)}`, color: palette.error, kept: true}
					: {text: '  type:exec expert:NAME run:ID errors step:10-20 text · -term negates · enter apply', color: palette.muted, kept: false};
	const columns = width - displayWidth(promptMarks[prompt.kind]) - (note.kept ? Math.min(displayWidth(note.text), Math.floor(width / 2)) : 0);
	return (
		<FittedLine width={width}>
			<Text color={palette.accent}>{promptMarks[prompt.kind]}</Text>
			<PromptText line={prompt} columns={columns} />
			<Text color={note.color}>{note.text}</Text>
		</FittedLine>
	);
}

const promptMarks = {search: '/', filter: ':', answer: 'answer› '} as const;

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
