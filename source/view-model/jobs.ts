import type {Job, Model} from '../model/state.js';
import {jobTotals} from '../query/tree.js';

/*
 * The jobs as the viewer speaks of them: which it shows, which the selection is in (for the header's `job 3/40`,
 * found from the selected row's key, tree/row-types.ts: `j:<jobId>`, `p:<paneId>`, `a:<activityId>`,
 * `l:<paneId>:…`, `n:<paneId>:…`), which is current when the selection is in none, and who coordinates one.
 */

/** The jobs the tree shows (those with runs), in the model's order. */
export function shownJobs(model: Model): Job[] {
	const jobs: Job[] = [];
	for (const job of model.jobs.values()) if (job.runIds.length > 0) jobs.push(job);
	return jobs;
}

export function jobOfKey(model: Model, key: string | undefined): Job | undefined {
	if (key === undefined || key.length < 2 || key[1] !== ':') return undefined;
	const rest = key.slice(2);
	switch (key.charAt(0)) {
		case 'j':
			return model.jobs.get(rest);
		case 'p':
			return jobOfPane(model, rest);
		case 'a': {
			const index = model.activityIndexById.get(rest);
			const activity = index === undefined ? undefined : model.activities[index];
			const run = activity ? model.runs.get(activity.runId) : undefined;
			return run ? model.jobs.get(run.jobId) : undefined;
		}

		case 'l':
			// `l:<paneId>:<channel>:<n>` and `n:<paneId>:<part>`: the parts after the pane id hold no colon.
			return jobOfPane(model, withoutLastParts(rest, 2));
		case 'n':
			return jobOfPane(model, withoutLastParts(rest, 1));
		default:
			return undefined;
	}
}

function jobOfPane(model: Model, paneId: string): Job | undefined {
	const pane = model.panes.get(paneId);
	return pane ? model.jobs.get(pane.jobId) : undefined;
}

function withoutLastParts(text: string, count: number): string {
	let end = text.length;
	for (let i = 0; i < count && end > 0; i++) end = text.lastIndexOf(':', end - 1);
	return end <= 0 ? '' : text.slice(0, end);
}

/** The job spoken of when the selection is in none (no row drawn yet, a filter showing nothing): the one that saw an event last. */
export function currentJob(model: Model): Job | undefined {
	let current: Job | undefined;
	for (const job of model.jobs.values()) {
		if (job.runIds.length === 0) continue;
		if (!current || (job.lastEventAt ?? 0) >= (current.lastEventAt ?? 0)) current = job;
	}

	return current;
}

/** The expert that coordinates the job (its first run's when no run is the root), unsanitised. */
export function coordinatorName(model: Model, job: Job, coordinator = jobTotals(model, job).coordinator): string {
	return coordinator?.expertKey ?? model.runs.get(job.runIds[0] ?? '')?.expertKey ?? '?';
}
