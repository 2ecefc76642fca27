import stripAnsi from 'strip-ansi';
import {displayWidth} from './width.js';

/*
 * string-width's answer with its default options, for Ink. Ink measures every text node it lays out and every
 * line it writes with string-width, which walks a line a grapheme cluster at a time through Intl.Segmenter and
 * three Unicode regexes whenever the line holds one character outside printable ASCII, as nearly every row of
 * the tree does (its glyphs): ~70 µs a row, and a frame of rows never shown before measures them all.
 * `displayWidth` gives string-width's columns for text that keeps its escape sequences, walking only the few
 * places where characters can share a cluster; string-width's default first strips the sequences with
 * strip-ansi, so this does the same and then measures. The views bundle gives Ink this module in place of
 * string-width (scripts/bundle-views.mjs); the test beside it holds the two equal on any text.
 */
export default function inkStringWidth(text: string): number {
	if (typeof text !== 'string' || text.length === 0) return 0;
	return displayWidth(text.includes('\u001B') || text.includes('\u009B') ? stripAnsi(text) : text);
}
