import {displayWidth} from '../text/width/width.js';

/**
 * The width of each column: its widest cell or its title. A loop, not `Math.max(...cells)`: spreading one
 * argument per row overflows the call stack at a hundred thousand rows.
 */
export function columnWidths(header: readonly string[], rows: ReadonlyArray<readonly string[]>): number[] {
	const widths = header.map(title => displayWidth(title));
	for (const row of rows) {
		for (let column = 0; column < widths.length; column++) {
			const width = displayWidth(row[column] ?? '');
			if (width > widths[column]!) widths[column] = width;
		}
	}

	return widths;
}
