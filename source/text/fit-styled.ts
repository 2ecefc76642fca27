import {displayWidth, forEachCluster} from './width/width.js';

/*
 * Ink cuts a line that is too wide with cli-truncate, which keeps a double-width character that
 * straddles the edge: the line comes out one column too wide, the terminal wraps it, and everything
 * below moves down a line (the header's first line scrolls off). So lines are cut here first, after
 * Ink has put their colours in, and Ink then never needs to cut them.
 *
 * Escape sequences take no columns and are all kept, even those after the cut, so every colour that
 * is switched on is switched off again.
 */
const escapeSequence = /\u001B\[[\d;:]*[A-Za-z]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)/g;

const ellipsis = '…';

/** The printable text of a styled line. */
export function stripStyles(text: string): string {
	return text.includes('\u001B') ? text.replaceAll(escapeSequence, '') : text;
}

/**
 * Cuts a styled line (text with SGR escape sequences) to at most `width` columns. When cut it ends
 * with `…` in the style of the text it replaces and is exactly `width` columns: a wide character
 * that would straddle the edge gives way to a space. Grapheme clusters are never split.
 */
export function fitStyledLine(text: string, width: number): string {
	const columns = width > 0 ? Math.floor(width) : 0;
	// No cluster is wider than two columns per code unit, so a short line fits without measuring.
	if (text.length * 2 <= columns) return text;
	if (columns === 0) return stripStyles(text) === '' ? text : '';
	if (displayWidth(stripStyles(text)) <= columns) return text;

	const room = columns - 1;
	let used = 0;
	let full = false;
	let cutDone = false;
	let out = '';
	const cut = () => {
		if (cutDone) return;
		cutDone = true;
		out += ' '.repeat(room - used) + ellipsis;
	};

	let position = 0;
	const keepPlain = (plain: string) => {
		if (full) return;
		let start = 0;
		forEachCluster(plain, (end, clusterColumns) => {
			if (used + clusterColumns > room) {
				full = true;
				return false;
			}

			used += clusterColumns;
			out += plain.slice(start, end);
			start = end;
			return true;
		});
		if (full) cut();
	};

	for (const match of text.matchAll(escapeSequence)) {
		keepPlain(text.slice(position, match.index));
		out += match[0];
		position = match.index + match[0].length;
	}

	keepPlain(text.slice(position));
	cut();
	return out;
}
