import type {Job} from '../../model/state.js';
import {jobOfSelection} from '../../view-model/tree/selection-job.js';
import {useTreeRows, useUiState, useViewEnv} from '../contexts.js';

/**
 * The job the selection is in as the tree draws it at `width` (the screen's), from the rows the tree draws
 * (view-model/tree/selection-job.ts): asked only when `wanted` (with one job there is nothing to choose, and the
 * tree's rows need not be made for it).
 */
export function useSelectionJob(width: number, wanted = true): Job | undefined {
	const {model} = useViewEnv();
	const ui = useUiState();
	const rowsFor = useTreeRows();
	return wanted ? jobOfSelection(model, rowsFor(model, ui, width), ui) : undefined;
}
