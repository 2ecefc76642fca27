import {Text} from 'ink';
import React from 'react';
import {useUiState} from './contexts.js';

export function Footer({width}: {width: number}) {
	const ui = useUiState();
	const narrow = width < 70;
	return (
		<Text wrap="truncate-end" color="gray">
			{ui.follow ? <Text color="green">● follow</Text> : <Text>○ paused (G)</Text>}
			{narrow ? '  ↑↓ ←→ ⏎ ? q' : '  ↑↓ move · ←→ fold · ⏎ inspect · e/E all · f follow · d diagnostics · ? help · q quit'}
		</Text>
	);
}
