import {Text} from 'ink';
import React from 'react';
import type {StatusLook} from '../present/status.js';

/**
 * A run's or a job's state on its row: ` ✓ completed`, with the first line of a failure beside it when the row
 * is folded (`failure`, already made safe; '' for none). Pane rows and job rows read the same way.
 */
export function StatusText({look, failure}: {look: StatusLook; failure: string}) {
	return (
		<Text color={look.color}>
			{' '}
			{look.glyph} {look.word}
			{failure === '' ? '' : ` · ${failure}`}
		</Text>
	);
}
