import {displayWidth, forEachCluster} from './width.js';

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
