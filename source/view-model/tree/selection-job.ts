import type {Job, Model} from '../../model/state.js';
import {jobOfKey} from '../jobs.js';
import type {UiState} from '../ui-state.js';
import {isSelectableRow, selectedRowIndex, type RowList} from './rows.js';

/*
 * The job the selection is in, for the header's `job 3/40`, `t` and `u`: of the row the tree draws selected, not
 * of the selected key alone. While following there is no key (the followed row is newest activity of a running
 * pane), and a key a filter hides leaves the selection on another row, maybe of another job.
 */

/** The job of the row selected among these rows; undefined when that row is of none (a filter's note, no rows). */
export function jobOfSelection(model: Model, rows: RowList, ui: UiState): Job | undefined {
	const row = rows.at(selectedRowIndex(rows, ui));
	return row && isSelectableRow(row) ? jobOfKey(model, row.key) : undefined;
}
