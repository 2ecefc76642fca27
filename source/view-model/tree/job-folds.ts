import {isEmptyFilter} from '../../query/filter.js';
import type {Job, Model} from '../../model/state.js';
import {isLive, shownStatus} from '../../query/tree.js';
import {shownJobs} from '../jobs.js';
import type {UiState} from '../ui-state.js';

/*
 * Whether a job row is folded. With forty jobs, forty open trees bury the one that failed: a finished job
 * starts folded to its one-line summary (status, cost, the first line of its error), and the jobs still going
 * stay open, as does the last one (where following the log lands). The person's own folds win, and `e` / `E`
 * open or fold them all, as they do panes.
 */

/** A check for each job of one build of the rows: what it needs of the whole log is worked out once. */
export function jobFoldCheck(model: Model, ui: Pick<UiState, 'filter' | 'jobFolds' | 'filterFolds' | 'defaultCollapse'>): (job: Job) => boolean {
	if (!isEmptyFilter(ui.filter)) {
		// Under a filter every job shown holds a match: it is open unless folded while filtering.
		return job => ui.jobFolds.filtering.get(job.jobId) ?? ui.filterFolds.all;
	}

	let last: Job | undefined | null = null;
	return job => {
		const explicit = ui.jobFolds.folds.get(job.jobId);
		if (explicit !== undefined) return explicit;
		if (ui.defaultCollapse === 'expanded') return false;
		if (ui.defaultCollapse === 'collapsed') return true;
		last ??= shownJobs(model).at(-1);
		return job !== last && !jobNeedsEyes(model, job);
	};
}

/** A job with a run still going, or one waiting for a person's answer: what would be missed folded. */
export function jobNeedsEyes(model: Model, job: Job): boolean {
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		if (!run) continue;
		const status = shownStatus(run);
		// An earlier question was answered if a later run took the job up again.
		if (isLive(status) || (status === 'stoppedByInteractiveTool' && runId === job.runIds.at(-1))) return true;
	}

	return false;
}
