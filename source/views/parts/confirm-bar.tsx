import {Box} from 'ink';
import {wrapToWidth} from '../../text/wrap.js';
import type {Confirm} from '../../view-model/ui-state.js';
import {useUiState} from '../contexts.js';
import {Line} from './line.js';
import {palette} from '../palette.js';

/*
 * The question before the cockpit acts (`a`, `R`, `K`): the exact command it will run, every word as a shell
 * reads it back, and the keys. The keys are the confirm handler's (hooks/use-confirm-keys.ts).
 */

/** The command's lines shown at most; `c` copies the whole of a longer one. */
const maxCommandLines = 6;

/** The lines the bar shows for `confirm` at `width` columns (its border takes two rows and four columns). */
export function confirmLines(confirm: Confirm, width: number): string[] {
	if (confirm.kind === 'stop') return ['Stop the running command (SIGTERM)? The view stays.  y stop · n keep it running'];
	const head = {answer: 'Answer with this command?', resume: 'Resume with this command?', message: 'Send with this command?'}[confirm.continuation.kind];
	const wrapped = wrapToWidth(confirm.continuation.line, Math.max(10, width - 4));
	const shown =
		wrapped.length > maxCommandLines
			? [...wrapped.slice(0, maxCommandLines - 1), `… ${wrapped.length - maxCommandLines + 1} more lines (c copies it whole)`]
			: wrapped;
	return [`${head}  y run · c copy · n cancel`, ...shown];
}

/** Rows the bar takes, border included; 0 with nothing to confirm. */
export function confirmBarHeight(confirm: Confirm | undefined, width: number): number {
	return confirm ? confirmLines(confirm, width).length + 2 : 0;
}

export function ConfirmBar({width}: {width: number}) {
	const {confirm} = useUiState();
	if (!confirm) return null;
	const [head = '', ...command] = confirmLines(confirm, width);
	return (
		<Box width={width} flexDirection="column" borderStyle="round" borderColor={palette.warning} paddingX={1}>
			<Line width={width - 4}>{head}</Line>
			{command.map((line, index) => (
				<Line key={index} width={width - 4} color={palette.accent}>
					{line}
				</Line>
			))}
		</Box>
	);
}
