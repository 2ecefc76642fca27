import {sanitizeLine} from '../text/sanitize.js';
import {displayWidth, forEachCluster, truncateEnd} from '../text/width/width.js';
import {offsetAfter, offsetBefore, type Line} from './line-editor.js';

/*
 * What a prompt shows of the line being typed. A line wider than the prompt is shown as a shell shows it, a
 * window that keeps the cursor in sight, `…` where it is cut; and whatever the line's length, only the
 * characters that can reach the window (a prompt's width of them either side of the cursor) are made safe and
 * measured, so a key at the end of a 40,000-character paste costs a frame of one screen line, not of the
 * whole line (issue #34).
 */

export type LineWindow = {
	/** Text before the window was left out (draw `…` first). */
	cutBefore: boolean;
	before: string;
	/** The character under the cursor (a space at the end of the line). */
	at: string;
	after: string;
	/** Text after the window was left out (`after` then ends with `…`). */
	cutAfter: boolean;
};

const ellipsis = '…';

/** Safe for the terminal, keeping the spaces at either end that sanitizeLine trims: they are part of the line. */
export function shownPart(part: string): string {
	let lead = 0;
	while (lead < part.length && part.charCodeAt(lead) === 0x20) lead++;
	if (lead === part.length) return part;
	// Counted, not matched with / *$/: that expression backtracks over every run of spaces, and 40,000 spaces
	// then a letter took seconds per frame.
	let trail = part.length;
	while (part.charCodeAt(trail - 1) === 0x20) trail--;
	return part.slice(0, lead) + sanitizeLine(part.slice(lead, trail)) + part.slice(trail);
}

/** The offset `count` characters (code points) before `from`, or the start. */
function offsetBack(text: string, from: number, count: number): number {
	let at = from;
	for (let left = count; left > 0 && at > 0; left--) at = offsetBefore(text, at);
	return at;
}

/** The start of `text` that fits in `columns`, whole grapheme clusters only. */
function keepStart(text: string, columns: number): string {
	let used = 0;
	let end = 0;
	forEachCluster(text, (clusterEnd, width) => {
		if (used + width > columns) return false;
		used += width;
		end = clusterEnd;
		return true;
	});
	return text.slice(0, end);
}

/** The end of `text` that fits in `columns`, whole grapheme clusters only. */
function keepEnd(text: string, columns: number): string {
	const ends: number[] = [];
	const widths: number[] = [];
	forEachCluster(text, (end, width) => {
		ends.push(end);
		widths.push(width);
		return true;
	});
	let used = 0;
	let start = text.length;
	for (let cluster = ends.length - 1; cluster >= 0 && used + widths[cluster]! <= columns; cluster--) {
		used += widths[cluster]!;
		start = cluster === 0 ? 0 : ends[cluster - 1]!;
	}

	return text.slice(start);
}

/**
 * The part of `line` a prompt `columns` wide shows: all of it when it fits, else a window with the cursor in
 * it. Text after the cursor gets up to a third of the room while the text before it needs more, so typing at
 * the end shows the end of the line.
 */
export function lineWindow(line: Line, columns: number): LineWindow {
	const room = Math.max(1, Math.floor(columns));
	const {text} = line;
	const cursor = offsetAfter(text, 0, Math.max(0, line.cursor));
	const atEnd = offsetAfter(text, cursor, 1);
	// A code point takes no fewer than zero columns and its safe form no fewer than its own: `room` of them
	// either side is all that can be shown of a line with visible characters.
	const from = offsetBack(text, cursor, room);
	const to = offsetAfter(text, atEnd, room);
	const before = shownPart(text.slice(from, cursor));
	const at = cursor === atEnd ? ' ' : shownPart(text.slice(cursor, atEnd)) || ' ';
	const after = shownPart(text.slice(atEnd, to));
	const beforeWidth = displayWidth(before);
	const atWidth = displayWidth(at);
	const afterWidth = displayWidth(after);
	const cutBefore = from > 0;
	const cutAfter = to < text.length;
	if (!cutBefore && !cutAfter && beforeWidth + atWidth + afterWidth <= room) return {cutBefore, before, at, after, cutAfter};

	const rest = Math.max(0, room - atWidth);
	const afterNeed = afterWidth + (cutAfter ? 1 : 0);
	const beforeNeed = beforeWidth + (cutBefore ? 1 : 0);
	const afterRoom = beforeNeed <= rest - Math.min(afterNeed, Math.floor(rest / 3)) ? rest - beforeNeed : Math.min(afterNeed, Math.floor(rest / 3));
	const beforeRoom = rest - afterRoom;
	const beforeCut = cutBefore || beforeWidth > beforeRoom;
	const afterCut = cutAfter || afterWidth > afterRoom;
	return {
		cutBefore: beforeCut,
		before: beforeCut ? keepEnd(before, Math.max(0, beforeRoom - 1)) : before,
		at,
		after: afterCut ? (afterRoom === 0 ? '' : keepStart(after, afterRoom - 1) + ellipsis) : after,
		cutAfter: afterCut,
	};
}

/**
 * The start of `text` (a query, a filter) made safe and cut to `columns`, for a line that shows it: only the
 * characters that can reach the screen are made safe and measured, however long the text.
 */
export function shownStart(text: string, columns: number): string {
	const room = Math.max(0, Math.floor(columns));
	const end = offsetAfter(text, 0, room + 1);
	const shown = sanitizeLine(text.slice(0, end));
	if (end === text.length || displayWidth(shown) > room) return truncateEnd(shown, room);
	// Narrower than the room though more follows (characters of no width): the cut is marked all the same.
	return truncateEnd(`${shown}${ellipsis}`, room);
}
