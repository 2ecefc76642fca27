import type {Activity, Model, Run} from '../model/state.js';
import {cutOffText, depthOf, endedWhileWaiting, endedWithoutFinalEvent, type EndedWhileWaiting} from '../query/tree.js';
import {withDelegateOutcome} from '../query/delegate-outcome.js';
import {describeActivity, emptyAnswer} from '../text/describe-activity.js';
import {sanitizeLine} from '../text/sanitize.js';
import {activityJsonLine} from './activity-json.js';
import {builtinPrices, type PriceTable} from '../query/prices.js';
import {isStop, jobEndLine, jobHasEnded, jobStartLine, runStopText} from './run-marks.js';
import {RunTags} from './run-tags.js';
import {endedRunMarks} from '../query/ended-marks.js';

export type TranscriptFormat = 'text' | 'json';

/**
 * Indentation stops growing here. Real delegation trees are a few levels deep; a malformed log can chain
 * 20,000 runs, and indenting each of its lines by its depth would print gigabytes of spaces.
 */
export const maxIndentDepth = 32;

/** Indentation for a delegation depth, capped: past the cap the depth is written out instead. */
export function indentFor(depth: number): string {
	return depth > maxIndentDepth ? `${'  '.repeat(maxIndentDepth)}(depth ${depth}) ` : '  '.repeat(depth);
}

/**
 * One transcript line: `[coordinator] ⚡ exec npm test`, indented by delegation depth. `tags` names runs of one
 * expert that run at once apart (`[writer·3f9a]`, run-tags.ts).
 */
export function transcriptLine(model: Model, activity: Activity, depthFor: (run: Run) => number = run => depthOf(model, run), tags?: RunTags): string {
	const run = model.runs.get(activity.runId);
	const depth = run ? depthFor(run) : 0;
	const line = describeActivity(activity);
	// A pipe reader greps for `delegate`; the arrow reads better than a handshake in plain text.
	const icon = activity.type === 'delegate' ? '→' : line.icon;
	const detail = line.detail === '' ? '' : ` ${line.detail}`;
	const error = line.error === undefined || activity.type === 'error' ? '' : ` ✗ ${line.error}`;
	// A question's answer has a line of its own (answerLine); a result whose call is not in the log is all there is of it.
	const outcome = line.outcome === undefined || activity.type === 'interactiveTool' ? '' : ` ${line.outcome.glyph} ${line.outcome.text}`;
	const indent = indentFor(depth);
	// Where a delegation cycle was broken (docs/model-rules.md), the run's query says so.
	const cycle = activity.type === 'query' && run?.closesCycle === true ? ` ⟲ delegation cycle: delegated by ${sanitizeLine(run.parentRunId ?? '')}` : '';
	return `${indent}[${tags ? tags.label(run, activity.expertKey) : sanitizeLine(activity.expertKey)}] ${icon} ${line.verb}${detail}${error}${outcome}${cycle}`;
}

/** The line that follows a delegation or an interactive call once its answer is in: `[coordinator] ← child-expert: …`. */
export function answerLine(model: Model, activity: Activity, depthFor: (run: Run) => number = run => depthOf(model, run), tags?: RunTags): string | undefined {
	if (activity.type !== 'delegate' && activity.type !== 'interactiveTool') return undefined;
	const run = model.runs.get(activity.runId);
	const depth = run ? depthFor(run) : 0;
	const indent = indentFor(depth);
	// A delegate's answer names the run that gave it, tagged when runs of its expert ran at once.
	const child = activity.type === 'delegate' && activity.childRunIds.length === 1 ? model.runs.get(activity.childRunIds[0]!) : undefined;
	const from =
		activity.type === 'delegate'
			? tags
				? tags.label(child, activity.delegateExpertKey)
				: sanitizeLine(activity.delegateExpertKey)
			: sanitizeLine(activity.toolName);
	const asker = tags ? tags.label(run, activity.expertKey) : sanitizeLine(activity.expertKey);
	const misrouted = activity.type === 'delegate' ? undefined : activity.misroutedAnswer;
	if (activity.result === undefined && misrouted !== undefined) {
		const where = `answer attached to ${misrouted.toolName}, the question was asked again`;
		return `${indent}[${asker}] ← ${from}: ⚠ ${sanitizeLine(where)}: ${sanitizeLine(misrouted.text.split('\n', 1)[0] ?? '')}`;
	}

	const {result} = activity;
	if (result === undefined) return undefined;
	const text = (result.error ?? result.text).trim();
	const mark = result.error === undefined ? '' : '✗ ';
	const head = `${indent}[${tags ? tags.label(run, activity.expertKey) : sanitizeLine(activity.expertKey)}] ← ${from}`;
	// An empty answer says so, rather than ending the line at a colon; one that opens with blank lines shows its first words.
	if (text === '') return `${head}: ${mark}${emptyAnswer}`;
	const firstLine = text.split('\n', 1)[0] ?? '';
	const more = firstLine.length < text.length ? ' …' : '';
	return `${head}: ${mark}${sanitizeLine(firstLine)}${more}`;
}

/** Whether an activity will not change any more: whatever answer or result it waits for is in. */
export function isFinal(activity: Activity): boolean {
	return !('result' in activity) || activity.result !== undefined;
}

/**
 * Decides, after every event, which activities to write, so that the output is a function of the events
 * alone: the same bytes give the same transcript whether they came as one file, several files, a pipe or one
 * byte at a time. What is decided is kept in a buffer that `take` empties, so it can be written per read.
 *
 * - `text` (`--print`): activities in arrival order, each once its line is settled (a tool call once its
 *   result is in); everything after an unsettled one waits, so the order never changes. A delegation or an
 *   interactive call is written when it is made, and its answer as a line of its own when it arrives.
 * - `json` (`--json`): each activity once it is final (a tool call, a delegation or an interactive call once
 *   its result or answer is in) and the one before it in its pane is written, so every `previousActivityId`
 *   points to a line already written; what never becomes final is written, as it is, when the input ends.
 *   Panes do not wait for each other, so children's work is written while their parent waits for them.
 *
 * `text` also marks where each job starts (before its first line) and ends (once its coordinator completes,
 * fails, hits its step limit or waits for a person; at the end of the input for any other), and says why a
 * run stopped, on a line after the activities that came before its stop. Not under a filter, which asks for
 * the matching activities only.
 */
export class TranscriptWriter {
	#next = 0;
	#buffer = '';
	/** text: delegations and interactive calls written before their answer came. json: activities not yet final. */
	readonly #waiting = new Set<number>();
	/** json: activities that are final but wait for the activity before them in their pane, by that activity. */
	readonly #blocked = new Map<number, number[]>();
	readonly #model: Model;
	readonly #format: TranscriptFormat;
	readonly #include: (activity: Activity) => boolean;
	readonly #prices: PriceTable;
	/** text: jobs whose start is written and whose end is not (true), or whose end is written (false). */
	readonly #jobs = new Map<string, boolean>();
	/** text: marks decided but not written yet, each once the activities before it (`after`) are written. */
	readonly #marks: Array<{after: number; runId: string; line: string; endsJob: boolean}> = [];
	/** text: jobs whose end is decided and not written yet. */
	readonly #endsDecided = new Set<string>();
	/** text: the stop last reported per run (status and step), so a repeated checkpoint is not reported twice. */
	readonly #stops = new Map<string, string>();

	/** Whether only some activities are written (a filter): then no marks are, only the activities asked for. */
	readonly #filtered: boolean;
	readonly #shows: (activity: Activity) => boolean;
	/** text: the short run ids that tell runs of one expert apart while they run at once. */
	readonly #tags: RunTags | undefined;
	/** text under a filter: the job of the last line written, and the jobs a line was written for. */
	#lastJobShown: string | undefined;
	readonly #jobsShown = new Set<string>();

	/**
	 * `include`, when given, is a filter: what it leaves out is not written. `shows` is the same filter asked
	 * without being counted (`include` may count what it hides): whether a run's end line goes with what is shown.
	 */
	constructor(
		model: Model,
		format: TranscriptFormat,
		include?: (activity: Activity) => boolean,
		prices: PriceTable = builtinPrices,
		shows?: (activity: Activity) => boolean,
	) {
		this.#model = model;
		this.#format = format;
		this.#include = include ?? (() => true);
		this.#shows = shows ?? this.#include;
		this.#filtered = include !== undefined;
		this.#prices = prices;
		this.#tags = format === 'text' ? new RunTags(model) : undefined;
		model.changes = [];
		if (format === 'text' && !this.#filtered) model.statusChanges = [];
	}

	/** Call after each event. */
	collect(): void {
		if (this.#format === 'json') this.#collectJson();
		else this.#collectText();
		const {changes, statusChanges} = this.#model;
		if (changes !== undefined) changes.length = 0;
		if (statusChanges !== undefined) statusChanges.length = 0;
	}

	/** The input ended: whatever still waits is written as it is. */
	finish(): void {
		this.#tags?.flush();
		this.collect();
		const {activities} = this.#model;
		if (this.#format === 'json') {
			const rest = [...this.#waiting].sort((a, b) => a - b);
			this.#waiting.clear();
			this.#blocked.clear();
			// A delegation whose parent never resumed carries what its children ended with.
			for (const seq of rest) this.#json(withDelegateOutcome(this.#model, activities[seq]!));
			return;
		}

		while (this.#next < activities.length) {
			this.#text(activities[this.#next++]!);
			this.#writeMarks();
		}

		this.#writeMarks(true);
		// The answers a parent never took in, its job having ended first: what each delegation's children ended with.
		for (const seq of [...this.#waiting].sort((a, b) => a - b)) {
			if (activities[seq]?.type !== 'delegate') continue;
			const answer = answerLine(this.#model, withDelegateOutcome(this.#model, activities[seq]!), this.#depthFor());
			if (answer !== undefined) this.#buffer += answer + '\n';
		}

		this.#waiting.clear();
		// The runs the input ended in the middle of, told job by job, each job's lines followed by its end line: a line
		// of one job never stands between another job's lines and that job's end. A job with no line written before
		// (a Codex turn cut off before its first item) starts here.
		const endsByJob = new Map<string, Array<{run: Run; ended: EndedWhileWaiting | undefined}>>();
		for (const run of this.#model.runs.values()) {
			const ended = endedWhileWaiting(this.#model, run);
			if (!ended && !endedWithoutFinalEvent(this.#model, run)) continue;
			// Under a filter, a run's end goes with where it is seen ending (`endedRunMarks`: what `errors` shows).
			if (this.#filtered && !this.#endShown(run)) continue;
			const ends = endsByJob.get(run.jobId) ?? [];
			ends.push({run, ended});
			endsByJob.set(run.jobId, ends);
		}

		for (const [jobId, ends] of endsByJob) {
			for (const {run, ended} of ends) this.#runEnd(run, ended);
			const job = this.#model.jobs.get(jobId);
			if (this.#jobs.get(jobId) === true && job) {
				this.#buffer += jobEndLine(this.#model, job, this.#prices) + '\n';
				this.#jobs.set(jobId, false);
			}
		}

		// Jobs still going when the input ended end here, as they stand.
		for (const [jobId, open] of this.#jobs) {
			const job = this.#model.jobs.get(jobId);
			if (open && job) this.#buffer += jobEndLine(this.#model, job, this.#prices) + '\n';
		}
	}

	/** What was decided since the last call. */
	take(): string {
		const out = this.#buffer;
		this.#buffer = '';
		return out;
	}

	#collectText(): void {
		const {activities, changes} = this.#model;
		this.#tags?.update(changes);
		this.#decideMarks();
		for (const seq of changes ?? []) {
			if (!this.#waiting.has(seq)) continue;
			const activity = activities[seq]!;
			const answer = answerLine(this.#model, activity, this.#depthFor(), this.#tags);
			if (answer === undefined) continue;
			// A question whose answer went to another call is asked again: its real answer may still come.
			if (!('result' in activity) || activity.result !== undefined) this.#waiting.delete(seq);
			// The answer came with the run that resumed the job: the job takes up again before it.
			const run = this.#model.runs.get(activity.runId);
			const job = run ? this.#model.jobs.get(run.jobId) : undefined;
			const latest = job ? this.#model.runs.get(job.runIds.at(-1) ?? '') : undefined;
			if (latest ?? run) this.#startJob((latest ?? run)!);
			this.#buffer += answer + '\n';
		}

		this.#writeMarks();
		while (this.#next < activities.length) {
			const activity = activities[this.#next]!;
			// A line waits for its result, or for its run's tag to be decided (run-tags.ts).
			if (!activity.settled || this.#tags?.holds(activity)) break;
			this.#next++;
			this.#text(activity);
			this.#writeMarks();
		}
	}

	/** The runs that stopped with the event just reduced: why, and the end of their job when it ended. */
	#decideMarks(): void {
		const model = this.#model;
		const after = model.activities.length;
		for (const runId of model.statusChanges ?? []) {
			const run = model.runs.get(runId);
			if (!run || !isStop(run.status)) continue;
			const stop = `${run.status}@${run.statusStep}`;
			if (this.#stops.get(runId) === stop) continue;
			this.#stops.set(runId, stop);
			const line = `${indentFor(this.#depthFor()(run))}[${this.#label(run)}] ${runStopText(model, run)}`;
			this.#marks.push({after, runId, line, endsJob: false});

			// Only a root run's stop can end its job; asking a job with many runs after each delegate's stop would
			// make a long transcript quadratic.
			if (run.parentRunId !== null && !run.closesCycle) continue;
			const job = model.jobs.get(run.jobId);
			if (job && !this.#endsDecided.has(run.jobId) && this.#jobs.get(run.jobId) !== false && jobHasEnded(model, job)) {
				this.#endsDecided.add(run.jobId);
				this.#marks.push({after, runId, line: jobEndLine(model, job, this.#prices), endsJob: true});
			}
		}
	}

	/** Writes the marks whose activities are all written (every mark, at the end of the input). */
	#writeMarks(all = false): void {
		let written = 0;
		for (const mark of this.#marks) {
			if (!all && mark.after > this.#next) break;
			const run = this.#model.runs.get(mark.runId);
			if (run) {
				this.#startJob(run);
				if (mark.endsJob) {
					this.#jobs.set(run.jobId, false);
					this.#endsDecided.delete(run.jobId);
				}
			}

			this.#buffer += mark.line + '\n';
			written++;
		}

		if (written > 0) this.#marks.splice(0, written);
	}

	/** A run the input ended in the middle of: why it stands where it does, and what it was writing. */
	#runEnd(run: Run, ended: EndedWhileWaiting | undefined): void {
		this.#startJob(run);
		const indent = indentFor(this.#depthFor()(run));
		const label = this.#label(run);
		this.#buffer += ended
			? `${indent}[${label}] ✗ the job ended while this run waited for its delegates: ${sanitizeLine(ended.reason)}\n`
			: `${indent}[${label}] ✗ ended without a final event: the input ended while this run was running\n`;
		// What it was writing, whole: the only place a transcript has it.
		const cutOff = ended ? undefined : cutOffText(this.#model, run);
		if (cutOff?.reasoning !== undefined) this.#buffer += `${indent}[${label}] ✂ thinking cut off: ${sanitizeLine(cutOff.reasoning)}\n`;
		if (cutOff?.answer !== undefined) this.#buffer += `${indent}[${label}] ✂ answer cut off: ${sanitizeLine(cutOff.answer)}\n`;
	}

	/** Before a job's first line, and its first line after it ended (`run` is the run of that line): where it starts. */
	#startJob(run: Run): void {
		if (this.#filtered) {
			this.#filteredJobLine(run);
			return;
		}

		const state = this.#jobs.get(run.jobId);
		if (state === true) return;
		const job = this.#model.jobs.get(run.jobId);
		if (!job) return;
		this.#buffer += jobStartLine(this.#model, job, state === false ? run : undefined) + '\n';
		this.#jobs.set(run.jobId, true);
	}

	/**
	 * Under a filter no job's end is written, but with several jobs in the input a line must still say whose it
	 * is: the job's start line is written before its first line shown and wherever the lines switch to another
	 * job. Always, not only once a second job is seen: a stream cannot know that one is coming, and the same
	 * bytes must give the same lines however they arrive.
	 */
	#filteredJobLine(run: Run): void {
		if (this.#lastJobShown === run.jobId) return;
		this.#lastJobShown = run.jobId;
		const job = this.#model.jobs.get(run.jobId);
		if (!job) return;
		this.#buffer += jobStartLine(this.#model, job, this.#jobsShown.has(job.jobId) ? run : undefined) + '\n';
		this.#jobsShown.add(job.jobId);
	}

	#text(activity: Activity): void {
		if (!this.#include(activity)) return;
		const run = this.#model.runs.get(activity.runId);
		if (run) this.#startJob(run);
		const depthFor = this.#depthFor();
		this.#buffer += transcriptLine(this.#model, activity, depthFor, this.#tags) + '\n';
		if (activity.type !== 'delegate' && activity.type !== 'interactiveTool') return;
		const answer = answerLine(this.#model, activity, depthFor, this.#tags);
		if (answer === undefined) this.#waiting.add(activity.seq);
		else this.#buffer += answer + '\n';
	}

	#collectJson(): void {
		const {activities, changes} = this.#model;
		const candidates: number[] = [];
		for (const seq of changes ?? []) if (this.#waiting.has(seq)) candidates.push(seq);
		for (; this.#next < activities.length; this.#next++) {
			this.#waiting.add(this.#next);
			candidates.push(this.#next);
		}

		candidates.sort((a, b) => a - b);
		for (const seq of candidates) this.#emitFrom(seq);
	}

	/** Writes the activity if it can go now, then whatever of its pane waited only for it. */
	#emitFrom(first: number): void {
		const {activities, activityIndexById} = this.#model;
		const stack = [first];
		while (stack.length > 0) {
			const seq = stack.pop()!;
			if (!this.#waiting.has(seq)) continue;
			const activity = activities[seq]!;
			if (!isFinal(activity)) continue;
			const previous = activity.previousActivityId === null ? undefined : activityIndexById.get(activity.previousActivityId);
			if (previous !== undefined && this.#waiting.has(previous)) {
				const after = this.#blocked.get(previous);
				if (after) after.push(seq);
				else this.#blocked.set(previous, [seq]);
				continue;
			}

			this.#waiting.delete(seq);
			this.#json(activity);
			const next = this.#blocked.get(seq);
			if (next) {
				this.#blocked.delete(seq);
				for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
			}
		}
	}

	#json(activity: Activity): void {
		if (this.#include(activity)) this.#buffer += activityJsonLine(activity) + '\n';
	}

	/** Whether the filter shows an activity where the run is seen ending: then its end line is written too. */
	#endShown(run: Run): boolean {
		const {activities, activityIndexById} = this.#model;
		for (const [activityId, runId] of endedRunMarks(this.#model)) {
			if (runId !== run.runId) continue;
			const index = activityIndexById.get(activityId);
			const activity = index === undefined ? undefined : activities[index];
			if (activity && this.#shows(activity)) return true;
		}

		return false;
	}

	/** How a mark names its run: `[writer]`, or `[writer·3f9a]` while runs of one expert ran at once. */
	#label(run: Run): string {
		return this.#tags ? this.#tags.label(run, run.expertKey) : sanitizeLine(run.expertKey);
	}

	/** The reducer keeps each pane's depth as runs are linked, so a chain 200,000 runs deep costs no walk up it. */
	#depthFor(): (run: Run) => number {
		return run => depthOf(this.#model, run);
	}
}
