import {isMarkedWait, type TimelineStepRow} from '../../query/timeline.js';
import {formatDuration} from '../../text/format.js';
import {sanitizeLine} from '../../text/sanitize.js';

/** What a step row says after its number: a long wait or gap before it, then what ran in it. */
export function stepText(row: TimelineStepRow): string {
	const gap = row.gapBeforeMs;
	const marked = gap !== undefined && isMarkedWait(row);
	const waited = !marked
		? ''
		: row.waitedFor === 'input'
			? `waited ${formatDuration(gap)} for an answer`
			: row.waitedFor === 'delegates'
				? `waited ${formatDuration(gap)} for delegates`
				: `${formatDuration(gap)} gap`;
	const does = sanitizeLine(row.does);
	return waited === '' ? does : does === '' ? waited : `${waited} · ${does}`;
}
