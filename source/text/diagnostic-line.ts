import type {Diagnostic} from '../model/events.js';
import {sanitizeLine} from './sanitize.js';

/**
 * A diagnostic as one line, safe for a terminal: `source:line: reason` for a bad line, and for a source that
 * failed as a whole (line 0: a file or directory that could not be read, one that is not a regular file) no
 * line number, which would point at a line that is not there. Such a reason usually names its source already
 * (`cannot read PATH: …`); then it is not said twice. `separator` goes between the place and the reason.
 */
export function diagnosticLine(diagnostic: Diagnostic, separator = ': '): string {
	const {source, line, reason} = diagnostic;
	if (line > 0) return `${sanitizeLine(source)}:${line}${separator}${sanitizeLine(reason)}`;
	return reason.includes(source) ? sanitizeLine(reason) : `${sanitizeLine(source)}${separator}${sanitizeLine(reason)}`;
}
