/** How many of a child's most recent stderr lines are kept; older ones are only counted. */
export const maxStderrLines = 500;
/** A kept stderr line is cut at this many characters: a panel shows a line, not a core dump. */
export const maxStderrLineLength = 2000;

export type StderrTail = {stderr: string[]; stderrCount: number};

/** Keeps the latest stderr lines in a bounded ring, so a chatty child cannot grow our memory. */
export function pushStderrLine(tail: StderrTail, text: string): string {
	const kept = text.length > maxStderrLineLength ? `${text.slice(0, maxStderrLineLength)}…` : text;
	tail.stderr.push(kept);
	if (tail.stderr.length > maxStderrLines) tail.stderr.shift();
	tail.stderrCount++;
	return kept;
}
