import {displayWidth, forEachCluster} from './width/width.js';

/**
 * Hard-wraps sanitised text to a display width, never splitting a grapheme cluster, so a wide character
 * never straddles the edge. Long words are cut rather than overflowing: every returned line fits.
 */
export function wrapToWidth(text: string, width: number): string[] {
	const out: string[] = [];
	const limit = Math.max(1, width);
	for (const line of text.split('\n')) {
		if (line.length <= limit && displayWidth(line) <= limit) {
			out.push(line);
			continue;
		}

		let current = '';
		let used = 0;
		let lastSpace = -1;
		let start = 0;
		// Cluster by cluster without Intl.Segmenter over the whole line: that is quadratic in Node 20, and
		// a tool result can be one line of megabytes (the inspector froze on a 500 KB line).
		forEachCluster(line, (end, cells) => {
			const segment = line.slice(start, end);
			start = end;
			if (used + cells > limit) {
				// Prefer breaking after the last space when what moves down still fits with this character.
				const rest = lastSpace > 0 ? current.slice(lastSpace + 1) : '';
				const restWidth = displayWidth(rest);
				if (lastSpace > 0 && restWidth + cells <= limit) {
					out.push(current.slice(0, lastSpace).trimEnd());
					current = rest;
					used = restWidth;
				} else {
					out.push(current);
					current = '';
					used = 0;
				}

				lastSpace = -1;
			}

			if (segment === ' ') lastSpace = current.length;
			current += segment;
			used += cells;
			return true;
		});

		out.push(current);
	}

	return out;
}

/**
 * Wraps one line of text that may be indented (a stack trace's `    at …` frames): every piece keeps the
 * line's own indentation, and pieces after the first are indented two more columns, so a wrapped frame
 * still reads as one frame. Indentation wider than half the width is not kept, to leave room for text.
 */
export function wrapIndented(line: string, width: number, hanging = 2): string[] {
	const limit = Math.max(1, width);
	const indent = /^[ ]*/.exec(line)![0];
	const kept = indent.length + hanging <= limit / 2 ? indent : '';
	const body = line.slice(indent.length);
	// Every piece is cut to the continuation's width, so none needs wrapping twice.
	const room = Math.max(1, limit - kept.length - (kept.length + hanging < limit ? hanging : 0));
	const continuation = kept.length + hanging < limit ? `${kept}${' '.repeat(hanging)}` : kept;
	return wrapToWidth(body, room).map((piece, index) => (index === 0 ? kept : continuation) + piece);
}

/**
 * Packs short items (`📁 list`, `⚡ exec`) onto as few lines as fit in `width`, `gap` apart, never
 * breaking an item; an item wider than the width gets a line of its own (and is cut where shown).
 */
export function packItems(items: readonly string[], width: number, gap = '  '): string[] {
	const lines: string[] = [];
	let current = '';
	for (const item of items) {
		const next = current === '' ? item : `${current}${gap}${item}`;
		if (current !== '' && displayWidth(next) > width) {
			lines.push(current);
			current = item;
		} else current = next;
	}

	if (current !== '') lines.push(current);
	return lines;
}
