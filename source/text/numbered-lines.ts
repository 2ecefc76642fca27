/**
 * Text with a right-aligned line number before each line, for file content a tool wrote. A trailing newline
 * ends the last line rather than starting an empty one, as an editor counts lines.
 */
export function numberedLines(text: string, firstLine = 1): string[] {
	const lines = splitLines(text);
	const width = String(firstLine + lines.length - 1).length;
	return lines.map((line, index) => `${String(firstLine + index).padStart(width)} │ ${line}`);
}

/**
 * Lines of `text`, split at \n, \r\n or a lone \r (a progress bar redrawing itself); a final line break
 * does not make an extra empty line, and empty text is no lines.
 */
export function splitLines(text: string): string[] {
	if (text === '') return [];
	const lines = text.split(/\r\n?|\n/);
	if (lines.at(-1) === '') lines.pop();
	return lines;
}
