import {Ingest} from '../../source/load/ingest.js';
import type {Model} from '../../source/model/state.js';
import {panesInTreeOrder, runsInTreeOrder} from '../../source/query/tree.js';
import {activityJsonLine} from '../../source/output/activity-json.js';
import {buildSummary} from '../../source/output/summary.js';
import {summaryTable} from '../../source/output/summary-table.js';
import {transcriptLine} from '../../source/output/transcript.js';
import {modelSnapshot} from '../helpers/model-snapshot.js';

/*
 * What must hold for any model, whatever the input was. Each check returns problems as sentences rather
 * than throwing at the first one, so a failing fuzz case explains everything that went wrong at once.
 */

/** C0, DEL and C1 controls; `\n` is allowed by the callers that lay out lines. */
export const controlPattern = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/u;
/** Anything a terminal could act on or that reorders text: controls, bidi overrides and isolates. */
export const unsafeForTerminal = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export function describeUnsafe(text: string): string {
	const match = unsafeForTerminal.exec(text);
	if (!match) return 'nothing unsafe';
	const at = match.index;
	return `U+${match[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${at} in ${JSON.stringify(text.slice(Math.max(0, at - 30), at + 30))}`;
}

export function modelProblems(model: Model): string[] {
	const problems: string[] = [];
	const problem = (text: string) => {
		if (problems.length < 20) problems.push(text);
	};

	for (const activity of model.activities) {
		if (!model.runs.has(activity.runId)) problem(`activity ${activity.id} belongs to run ${activity.runId}, which is not in the model`);
		if (activity.previousActivityId !== null && !model.activityIndexById.has(activity.previousActivityId)) {
			problem(`activity ${activity.id} follows ${activity.previousActivityId}, which is not an activity`);
		}
	}

	// Every activity is shown in exactly one pane, and every run in exactly one pane.
	const paneOfActivity = new Map<number, string>();
	const paneOfRun = new Map<string, string>();
	for (const pane of model.panes.values()) {
		for (const index of pane.activityIndices) {
			const other = paneOfActivity.get(index);
			if (other !== undefined) problem(`activity #${index} is in panes ${other} and ${pane.paneId}`);
			paneOfActivity.set(index, pane.paneId);
		}

		for (const runId of pane.runIds) {
			const other = paneOfRun.get(runId);
			if (other !== undefined) problem(`run ${runId} is in panes ${other} and ${pane.paneId}`);
			paneOfRun.set(runId, pane.paneId);
			const run = model.runs.get(runId);
			if (!run) problem(`pane ${pane.paneId} lists run ${runId}, which is not in the model`);
			else if (run.paneId !== pane.paneId) problem(`pane ${pane.paneId} lists run ${runId}, whose pane is ${run.paneId}`);
		}
	}

	for (let index = 0; index < model.activities.length; index++) {
		if (!paneOfActivity.has(index)) problem(`activity #${index} (${model.activities[index]!.id}) is in no pane`);
	}

	const jobOfRun = new Map<string, string>();
	for (const job of model.jobs.values()) {
		for (const runId of job.runIds) {
			const other = jobOfRun.get(runId);
			if (other !== undefined) problem(`run ${runId} is in jobs ${other} and ${job.jobId}`);
			jobOfRun.set(runId, job.jobId);
			const run = model.runs.get(runId);
			if (run && run.jobId !== job.jobId) problem(`job ${job.jobId} lists run ${runId}, whose job is ${run.jobId}`);
		}

		// Every run of the job appears exactly once in the tree, and nothing else does.
		const inTree = runsInTreeOrder(model, job).map(run => run.runId);
		const counts = new Map<string, number>();
		for (const runId of inTree) counts.set(runId, (counts.get(runId) ?? 0) + 1);
		for (const runId of job.runIds) {
			const count = counts.get(runId) ?? 0;
			if (count !== 1) problem(`run ${runId} of job ${job.jobId} appears ${count} times in the tree`);
		}

		for (const runId of inTree) if (!job.runIds.includes(runId)) problem(`run ${runId} is in the tree of job ${job.jobId} but not one of its runs`);

		// A pane whose parent is missing is shown at the top, marked as an orphan.
		for (const node of panesInTreeOrder(model, job)) {
			const first = model.runs.get(node.pane.paneId);
			if (first && first.parentRunId !== null && !model.runs.has(first.parentRunId) && !(node.orphan && node.depth === 0)) {
				problem(`pane ${node.pane.paneId} names missing parent ${first.parentRunId} but is not shown as an orphan`);
			}
		}
	}

	for (const run of model.runs.values()) {
		if (!jobOfRun.has(run.runId)) problem(`run ${run.runId} is in no job`);
		if (!paneOfRun.has(run.runId)) problem(`run ${run.runId} is in no pane`);
	}

	return problems;
}

/** The headless outputs agree with the model and carry nothing a terminal would act on. */
export function outputProblems(model: Model): string[] {
	const problems: string[] = [];
	const summary = buildSummary(model);
	const summed = summary.jobs.flatMap(job => job.runs).reduce((sum, run) => sum + run.activities, 0);
	if (summed !== model.activities.length) problems.push(`summary counts ${summed} activities, the model has ${model.activities.length}`);
	for (const job of summary.jobs) {
		const modelJob = model.jobs.get(job.jobId);
		if (!modelJob) problems.push(`summary job ${job.jobId} is not in the model`);
		else if (job.runs.length !== modelJob.runIds.length)
			problems.push(`summary job ${job.jobId} has ${job.runs.length} runs, the model ${modelJob.runIds.length}`);
	}

	const shownJobs = [...model.jobs.values()].filter(job => job.runIds.length > 0).length;
	if (summary.jobs.length !== shownJobs) problems.push(`summary has ${summary.jobs.length} jobs, the model ${shownJobs} with runs`);
	// The JSON summary must round-trip: it is what scripts read.
	const json = JSON.stringify(summary);
	if (JSON.stringify(JSON.parse(json)) !== json) problems.push('summary JSON does not round-trip');

	const table = summaryTable(model);
	if (unsafeForTerminal.test(table)) problems.push(`summary table: ${describeUnsafe(table)}`);
	for (const activity of model.activities) {
		const line = transcriptLine(model, activity);
		if (line.includes('\n') || unsafeForTerminal.test(line))
			problems.push(`transcript of ${activity.id}: ${describeUnsafe(line)}${line.includes('\n') ? ' (has a newline)' : ''}`);
		JSON.parse(activityJsonLine(activity));
		if (problems.length > 20) break;
	}

	return problems;
}

function runSnapshots(model: Model): Map<string, {rev: number; snapshot: string}> {
	return new Map([...model.runs].map(([runId, run]) => [runId, {rev: run.rev, snapshot: JSON.stringify(modelSnapshot(run))}]));
}

/**
 * Each change to a run that left its `rev` as it was, as "line N: runId", reducing `lines` one by one. Views
 * skip drawing runs whose rev is the same: such a change would show as a run frozen on screen.
 */
export function runChangesWithoutRev(lines: readonly Buffer[]): string[] {
	const ingest = new Ingest({maxLineBytes: 64 * 1024 * 1024});
	const splitter = ingest.splitter('test');
	const found: string[] = [];
	let before = runSnapshots(ingest.model);
	for (const [index, line] of lines.entries()) {
		splitter.push(line);
		splitter.push(Buffer.from('\n'));
		const after = runSnapshots(ingest.model);
		for (const [runId, seen] of after) {
			const earlier = before.get(runId);
			if (earlier && earlier.rev === seen.rev && earlier.snapshot !== seen.snapshot) found.push(`line ${index + 1}: ${runId}`);
		}

		before = after;
	}

	return found;
}
