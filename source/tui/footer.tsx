import {Text} from 'ink';
import React, {useRef} from 'react';
import {describeFilter, isEmptyFilter} from '../query/filter.js';
import {sanitizeLine} from '../present/sanitize.js';
import {useUiState, useViewEnv} from './contexts.js';
import {createMatchCache} from './find.js';
import {Line} from './line.js';

/** Follow state, the active search and filter, a note for the person, and the main keys. */
export function Footer({width}: {width: number}) {
	const ui = useUiState();
	const {model} = useViewEnv();
	const matchesFor = useRef(createMatchCache()).current;
	const narrow = width < 70;
	const found = ui.search.query === '' ? [] : matchesFor(model, ui.search.query, ui.filter);
	const position = ui.search.current === undefined ? 0 : found.indexOf(ui.search.current) + 1;
	return (
		<Line width={width} color="gray">
			{ui.follow ? <Text color="green">● follow</Text> : <Text>○ paused (G)</Text>}
			{ui.search.query === '' ? null : (
				<Text color="yellow">
					{'  /'}
					{sanitizeLine(ui.search.query)} {position}/{found.length}
				</Text>
			)}
			{isEmptyFilter(ui.filter) ? null : <Text color="magenta">  filter: {describeFilter(ui.filter)}</Text>}
			{ui.message === undefined ? null : <Text color="yellow">  {sanitizeLine(ui.message)}</Text>}
			{narrow ? '  ↑↓ ←→ ⏎ / ? q' : '  ↑↓ move · ←→ fold · ⏎ inspect · / search · : filter · x errors · t timeline · ? help · q quit'}
		</Line>
	);
}
