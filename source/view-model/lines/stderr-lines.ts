import {sanitizeBlock} from '../../text/sanitize.js';
import {wrapIndented} from '../../text/wrap.js';

/**
 * Lines something wrote to stderr, made safe and fitted to `width` columns under an `indent`: a stack trace
 * reads by its indentation, so each line keeps its own and its long lines wrap under themselves, not cut.
 */
export function stderrDisplayLines(lines: readonly string[], width: number, indent = ''): string[] {
	const room = Math.max(10, width - 1 - indent.length);
	const shown: string[] = [];
	for (const line of lines) for (const block of sanitizeBlock(line).split('\n')) for (const text of wrapIndented(block, room)) shown.push(`${indent}${text}`);
	return shown;
}
