import type {Model} from '../../model/state.js';
import {formatCount} from '../../text/format.js';
import {scanShare, type MatchScan} from '../../query/search.js';

/**
 * What a search has found, for the prompt (`long`) and the footer (`short`): the current match's place and the
 * count once the search is done (`3/120 matches`, or `no matches`), and while it runs, how far it has got and what it found so
 * far (`searching… 35% · 12 matches so far`), since a place among matches not all found yet would mislead.
 */
export function searchStatus(model: Model, scan: MatchScan, current: number | undefined, form: 'long' | 'short'): string {
	const count = scan.matches.length;
	if (!scan.done) {
		const percent = Math.floor(scanShare(scan, model.activities.length) * 100);
		return form === 'long'
			? `searching… ${percent}% · ${formatCount(count)} ${count === 1 ? 'match' : 'matches'} so far`
			: `searching… ${percent}% (${formatCount(count)})`;
	}

	// `0/0` read like a place among matches; the person wants to know there are none.
	if (count === 0) return 'no matches';
	const position = current === undefined ? 0 : indexIn(scan.matches, current) + 1;
	return form === 'long' ? `${position}/${count} matches` : `${position}/${count}`;
}

/** Where `index` is among ascending `matches` (a binary search: a million matches are not walked per frame), or -1. */
function indexIn(matches: readonly number[], index: number): number {
	let low = 0;
	let high = matches.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (matches[middle]! < index) low = middle + 1;
		else high = middle;
	}

	return matches[low] === index ? low : -1;
}

/**
 * A filter being worked out before it is applied (a filter's Enter on a large log), for the footer: how far it
 * has got, in the words the search's status uses. The filter itself is not repeated: the prompt showed it.
 */
export function filteringStatus(share: number): string {
	return `filtering… ${Math.floor(Math.min(1, Math.max(0, share)) * 100)}%`;
}
