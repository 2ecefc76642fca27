/**
 * A long block reduced to its first `head` and last `tail` lines with, between them, a line saying how many
 * were left out. A block that would lose fewer lines than the marker costs is kept whole: hiding one line
 * behind a line that says so saves nothing.
 */
export function foldHeadTail(lines: readonly string[], head: number, tail: number): string[] {
	if (lines.length <= head + tail + 1) return [...lines];
	const omitted = lines.length - head - tail;
	return [...lines.slice(0, head), foldMarker(omitted), ...lines.slice(lines.length - tail)];
}

export function foldMarker(omitted: number): string {
	return `… ${omitted} ${omitted === 1 ? 'line' : 'lines'} left out …`;
}

/** Whether a line is the marker `foldHeadTail` put in, so a view can dim it. */
export function isFoldMarker(line: string): boolean {
	return /^… \d+ lines? left out …$/.test(line);
}
