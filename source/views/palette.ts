import type {StatusTone} from '../text/status.js';

/*
 * The viewer's colours, by what they mean rather than by name: the views say `palette.error`, never `'red'`, so
 * what a colour means is decided here once, and a theme is a change of this file alone. The values are the 16
 * colours of the terminal, which its own theme draws: they stay readable on a dark and a light background, and
 * NO_COLOR (or a terminal without colours) leaves the text and the gutter's marks as they are.
 */

export const palette = {
	/** The program's name, headings, the prompts' `/` and `:`, the selection's mark in the gutter, a progress bar. */
	accent: 'cyan',
	/** What is said in passing: separators, figures beside a name, hints, a fold's marker, a pane's tail. */
	muted: 'gray',
	success: 'green',
	/** What wants a look without being wrong: a note, the quiet of a live run, a cut text, an open output. */
	warning: 'yellow',
	error: 'red',
	/** A state the person put the view in: a filter, a replay. */
	mode: 'magenta',
	/** A delegation and its completion, in the tree. */
	delegation: 'magenta',
	/** A run at work (its spinner and status word). */
	running: 'yellow',
	/** A run stopped until someone answers (a person, its delegates), and the question it asks. */
	waiting: 'cyan',
} as const;

export type Role = keyof typeof palette;

/** How a search match is marked in text: the current one, and the others (the inspector marks both). */
export const matchStyle = {
	current: {color: 'black', backgroundColor: 'yellow'},
	other: {color: 'black', backgroundColor: 'gray'},
} as const;

/** A status's tone (text/status.ts names them, knowing no colours) in the palette. */
export function toneColor(tone: StatusTone): string {
	return palette[tone];
}
