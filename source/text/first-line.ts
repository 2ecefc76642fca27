import {sanitizeLine} from './sanitize.js';

/** The first non-blank line of a text, sanitised for a row: an answer or error shown beside what asked for it. */
export function firstLine(text: string): string {
	for (const line of text.split(/\r\n?|\n|\u2028|\u2029/)) {
		const clean = sanitizeLine(line);
		if (clean !== '') return clean;
	}

	return '';
}
