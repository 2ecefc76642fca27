import {Text} from 'ink';
import type {StatusLook} from '../../text/status.js';
import {toneColor} from '../palette.js';

/**
 * Why a folded row failed (`failure`: its first line, already made safe; '' for none), in its status's colour. It
 * goes after the row's figures, so that a long reason is what the row's end cuts, never the steps, tokens, cost
 * and time. Pane rows and job rows read the same way.
 */
export function FailureText({look, failure}: {look: StatusLook; failure: string}) {
	return failure === '' ? null : <Text color={toneColor(look.tone)}> · {failure}</Text>;
}
