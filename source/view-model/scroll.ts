/*
 * Where a window of `height` rows sits on a longer list: the tree's, and the overlays' (a title and a footer around their lines).
 */

/**
 * Keeps the selection in sight, moving the window as little as possible. Following pins it to the end, unless
 * the followed activity is above the last screen (a delegate at work above a sibling's pane): then the window
 * keeps it in sight with a third of the screen under it, where its pane's live text goes on. With `context` (a
 * selection made by a jump), the selection has a third of the screen above it.
 */
export function scrollTop(previous: number, selected: number, total: number, height: number, follow: boolean, context = false): number {
	const maxTop = Math.max(0, total - height);
	if (follow && selected >= maxTop) return maxTop;
	// A selection the person was taken to (the timeline's enter) shows what leads up to it: a third of the screen above.
	const above = Math.floor(height / 3);
	if (context && (selected < previous + above || selected >= previous + height)) return Math.max(0, Math.min(selected - above, maxTop));
	const below = follow ? Math.floor(height / 3) : 0;
	let top = Math.min(previous, maxTop);
	if (selected < top) top = selected;
	if (selected >= top + height - below) top = selected - height + below + 1;
	return Math.max(0, Math.min(top, maxTop));
}

/** How far an overlay's lines can scroll, with its title and its footer taking two rows. */
export function maxScroll(lineCount: number, height: number): number {
	return Math.max(0, lineCount - Math.max(1, height - 2));
}
