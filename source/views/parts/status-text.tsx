import {Text} from 'ink';
import type {StatusLook} from '../../text/status.js';
import {toneColor} from '../palette.js';

/** A run's or a job's state on its row: ` ✓ completed`. Pane rows and job rows read the same way. */
export function StatusText({look}: {look: StatusLook}) {
	return (
		<Text color={toneColor(look.tone)}>
			{' '}
			{look.glyph} {look.word}
		</Text>
	);
}
