import type {InputPlan} from '../input/inputs.js';
import type {ArrivalClock} from '../parse/stream-readers.js';

/**
 * The clock of each input whose lines arrive as they happen: stdin, a command, and any input with --follow. A
 * stream whose lines carry no time (Codex's) is stamped with it as it arrives; a file's lines did not arrive as
 * they happened, and stay without.
 */
export function liveSources(plan: InputPlan): ArrivalClock {
	const live = new Set(plan.inputs.filter(input => plan.follow || input.kind === 'stdin' || input.kind === 'command').map(input => input.label));
	return source => (live.has(source) ? Date.now : undefined);
}
