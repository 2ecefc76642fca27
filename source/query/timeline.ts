import type {RunStatus, Usage} from '../model/events.js';
import type {Activity, Job, Model, Pane, Run, StepRecord} from '../model/state.js';
import {childPanes, endedWithoutFinalEvent, isLive, rootPanes, shownStatus} from './tree.js';

/*
 * A waterfall of a job: one row per step, child runs nested under the step that delegated them, each
 * with its time span, so a view can draw bars against the job's time span (see `barCells`). Nothing here
 * is stored; it is derived from the runs' step records and the activities' timestamps. A job whose stream
 * carries no time at all (Codex's `exec --json` read from a file) still gets bars: by the order its events came.
 */

/** Where a row's bar lies on the timeline's axis (`Timeline.axis`): from, to. */
export type BarPlace = {from: number; to: number};

export type TimelinePaneRow = {
	kind: 'pane';
	key: string;
	paneId: string;
	/** The pane's latest run (a resumed coordinator continues its pane under a new run id). */
	runId: string;
	expertKey: string;
	depth: number;
	status: RunStatus;
	/** The input ended while the pane's latest run still stood as running (`endedWithoutFinalEvent`). */
	endedWithoutFinalEvent: boolean;
	start: number | undefined;
	end: number | undefined;
	/** Its bar: its time span, or on an axis of order its own steps' places (`Timeline.axis`); undefined for none. */
	bar: BarPlace | undefined;
};

export type TimelineStepRow = {
	kind: 'step';
	key: string;
	runId: string;
	paneId: string;
	expertKey: string;
	depth: number;
	step: number;
	start: number | undefined;
	end: number | undefined;
	/** Undefined when the start or the end is unknown. */
	durationMs: number | undefined;
	/**
	 * Its bar: its time span; on an axis of order, from its first activity's place among the job's to just past its
	 * last's. Undefined for none.
	 */
	bar: BarPlace | undefined;
	/** The step's own usage, as its step-ending event reported it; undefined when none did (drover, daemon). */
	usage: Usage | undefined;
	checkpointId: string | undefined;
	status: RunStatus | undefined;
	/** The step has not ended yet: its end is the latest event so far. */
	open: boolean;
	/** Its activities (indices into `model.activities`), in arrival order. */
	activityIndices: number[];
	/** Among the slowest steps of the timeline (see `slowestCount`). */
	slow: boolean;
	/** Time between the end of the previous step of the same run and the start of this one. */
	gapBeforeMs: number | undefined;
	/** `gapBeforeMs` is over three times the median gap and over a second. */
	longGap: boolean;
	/**
	 * What the run was stopped for before this step, when the step before it (in the same pane: a resumed run
	 * continues it) stopped to wait: its delegates, or a person's answer to an interactive tool.
	 */
	waitedFor: 'delegates' | 'input' | undefined;
	/** `gapBeforeMs` is at least `longWaitMs`, however it compares to the other gaps. */
	longWait: boolean;
	/** What ran in the step, in words (see `stepDoes`); raw event text, to be sanitised before it is shown. */
	does: string;
};

export type TimelineRow = TimelinePaneRow | TimelineStepRow;

export type Timeline = {
	rows: TimelineRow[];
	/** The earliest start and the latest end of any row. */
	spanStart: number | undefined;
	spanEnd: number | undefined;
	medianGapMs: number | undefined;
	/**
	 * What the bars are drawn against: `time`, the rows' time spans; `order`, for a job with no time at all, the
	 * places of its activities in the order they came (the first is 0), so that what ran after what, and what ran
	 * beside what, still shows. Durations, gaps and the slowest steps need times: on `order` there are none.
	 */
	axis: 'time' | 'order';
	/** The bars' span on the axis: the earliest `from` and the latest `to`; undefined when no row has a bar. */
	barSpan: BarPlace | undefined;
};

/** A gap stands out when it is over this many times the median gap… */
export const longGapFactor = 3;
/** …and longer than this: short pauses between fast steps are not worth a mark. */
export const longGapMinMs = 1000;
/**
 * A gap this long is marked whatever the other gaps are: a person's answer or a slow delegate can hold a run
 * for minutes, and in a job where every run waits, no wait stands out from the median.
 */
export const longWaitMs = 60_000;

/** Every pane of the job, depth first, each with its steps and, under each step, the runs it delegated to. */
export function jobTimeline(model: Model, job: Job): Timeline {
	const builder = new Builder(model);
	for (const pane of rootPanes(model, job)) builder.addPane(pane, 0);
	// Panes unreachable from a root (a parent cycle in a malformed log) are still shown.
	for (const runId of job.runIds) {
		const run = model.runs.get(runId);
		const pane = run ? model.panes.get(run.paneId) : undefined;
		if (pane) builder.addPane(pane, 0);
	}

	return builder.finish();
}

class Builder {
	readonly #model: Model;
	readonly #rows: TimelineRow[] = [];
	readonly #visited = new Set<string>();

	constructor(model: Model) {
		this.#model = model;
	}

	/**
	 * A pane and everything it delegated to, depth first, with a stack of its own: delegations can nest deeper
	 * than the call stack goes.
	 */
	addPane(root: Pane, rootDepth: number): void {
		const model = this.#model;
		const stack: Array<{kind: 'pane'; pane: Pane; depth: number} | {kind: 'row'; row: TimelineStepRow}> = [{kind: 'pane', pane: root, depth: rootDepth}];
		while (stack.length > 0) {
			const task = stack.pop()!;
			if (task.kind === 'row') {
				this.#rows.push(task.row);
				continue;
			}

			const {pane, depth} = task;
			if (this.#visited.has(pane.paneId)) continue;
			this.#visited.add(pane.paneId);
			const runs = pane.runIds.map(runId => model.runs.get(runId)).filter(run => run !== undefined);
			const last = runs[runs.length - 1];
			if (!last) continue;
			const start = earliest(runs.map(run => run.startedAt));
			const end = latest(runs.map(run => run.endedAt ?? run.lastEventAt));
			this.#rows.push({
				kind: 'pane',
				key: `p:${pane.paneId}`,
				paneId: pane.paneId,
				runId: last.runId,
				expertKey: last.expertKey,
				depth,
				status: shownStatus(last),
				endedWithoutFinalEvent: endedWithoutFinalEvent(model, last),
				start,
				end,
				bar: timeBar(start, end),
			});

			const byStep = activitiesByStep(model, pane);
			const children = childPanes(model, pane);
			const order = new Map<string, number>();
			for (const [at, child] of children.entries()) order.set(child.paneId, at);
			const placed = new Set<string>();
			const todo: typeof stack = [];
			// A resumed run goes on from where the run before it stopped: the time between is the wait.
			const carry: Carry = {end: undefined, status: undefined};
			for (const run of runs) {
				for (const row of stepRows(model, run, pane, depth, byStep, carry)) {
					todo.push({kind: 'row', row});
					// The runs a step delegated to sit right under it.
					for (const child of delegatedInStep(model, row, children, order)) {
						if (placed.has(child.paneId)) continue;
						placed.add(child.paneId);
						todo.push({kind: 'pane', pane: child, depth: depth + 1});
					}
				}
			}

			for (const child of children) if (!placed.has(child.paneId)) todo.push({kind: 'pane', pane: child, depth: depth + 1});
			for (let i = todo.length - 1; i >= 0; i--) stack.push(todo[i]!);
		}
	}

	finish(): Timeline {
		const rows = this.#rows;
		const steps = rows.filter(row => row.kind === 'step');
		markSlowest(steps);
		const medianGapMs = median(steps.map(row => row.gapBeforeMs).filter(gap => gap !== undefined));
		if (medianGapMs !== undefined) {
			for (const row of steps) {
				row.longGap = row.gapBeforeMs !== undefined && row.gapBeforeMs > longGapFactor * medianGapMs && row.gapBeforeMs > longGapMinMs;
			}
		}

		const spanStart = earliest(rows.map(row => row.start));
		const spanEnd = latest(rows.map(row => row.end));
		const axis = spanStart === undefined && spanEnd === undefined ? 'order' : 'time';
		if (axis === 'order') placeInOrder(rows);
		return {rows, spanStart, spanEnd, medianGapMs, axis, barSpan: barSpanOf(rows)};
	}
}

/**
 * Bars for a job with no time at all: each step from its first activity's place among the job's activities (in the
 * order they came) to just past its last's, and a pane over its own steps, as its time span would be.
 */
function placeInOrder(rows: readonly TimelineRow[]): void {
	const indices: number[] = [];
	for (const row of rows) if (row.kind === 'step') for (const index of row.activityIndices) indices.push(index);
	indices.sort((a, b) => a - b);
	const placeOf = new Map<number, number>();
	for (const index of indices) if (!placeOf.has(index)) placeOf.set(index, placeOf.size);
	const panes = new Map<string, BarPlace>();
	for (const row of rows) {
		if (row.kind !== 'step' || row.activityIndices.length === 0) continue;
		let from = Number.POSITIVE_INFINITY;
		let to = 0;
		for (const index of row.activityIndices) {
			const place = placeOf.get(index)!;
			from = Math.min(from, place);
			to = Math.max(to, place + 1);
		}

		const bar = {from, to};
		row.bar = bar;
		const pane = panes.get(row.paneId);
		panes.set(row.paneId, pane ? {from: Math.min(pane.from, bar.from), to: Math.max(pane.to, bar.to)} : bar);
	}

	for (const row of rows) if (row.kind === 'pane') row.bar = panes.get(row.paneId);
}

function barSpanOf(rows: readonly TimelineRow[]): BarPlace | undefined {
	const from = earliest(rows.map(row => row.bar?.from));
	const to = latest(rows.map(row => row.bar?.to));
	return from === undefined || to === undefined ? undefined : {from, to};
}

/** A time span as a bar: undefined unless both ends are known. */
function timeBar(start: number | undefined, end: number | undefined): BarPlace | undefined {
	return start === undefined || end === undefined ? undefined : {from: start, to: end};
}

type StepActivities = Map<string, {indices: number[]; first: number | undefined; last: number | undefined}>;

function stepKey(runId: string, step: number): string {
	return `${runId}\u0000${step}`;
}

function activitiesByStep(model: Model, pane: Pane): StepActivities {
	const out: StepActivities = new Map();
	for (const index of pane.activityIndices) {
		const activity = model.activities[index];
		if (!activity || activity.step === undefined) continue;
		const key = stepKey(activity.runId, activity.step);
		let entry = out.get(key);
		if (!entry) {
			entry = {indices: [], first: undefined, last: undefined};
			out.set(key, entry);
		}

		entry.indices.push(index);
		entry.first = earliest([entry.first, activity.timestamp]);
		entry.last = latest([entry.last, activity.timestamp]);
	}

	return out;
}

/**
 * The run's steps in order. Step records give the times when the runtime reported them (Perstack's
 * `step.startedAt` / `finishedAt`); otherwise a step starts at its first activity and ends where the next
 * step starts (drover's turns), or where the run ended. A step counted without a record of its own (the
 * strategy daemon's first step) is still shown, timed by its activities.
 */
function stepRows(model: Model, run: Run, pane: Pane, depth: number, byStep: StepActivities, carry: Carry): TimelineStepRow[] {
	const records = new Map<number, StepRecord>();
	for (const record of run.steps) records.set(record.step, record);
	const numbers = new Set<number>([...records.keys(), ...run.endedSteps]);
	for (const index of pane.activityIndices) {
		const activity = model.activities[index];
		if (activity?.runId === run.runId && activity.step !== undefined) numbers.add(activity.step);
	}

	const ordered = [...numbers].sort((a, b) => a - b);
	// A run the input left open is not going on: its last step is not open, it ended with the last event.
	const live = isLive(shownStatus(run)) && !endedWithoutFinalEvent(model, run);
	const starts = ordered.map(
		(step, position) => records.get(step)?.startedAt ?? byStep.get(stepKey(run.runId, step))?.first ?? (position === 0 ? run.startedAt : undefined),
	);
	const rows: TimelineStepRow[] = [];
	ordered.forEach((step, position) => {
		const record = records.get(step);
		const activities = byStep.get(stepKey(run.runId, step));
		const start = starts[position];
		const isLast = position === ordered.length - 1;
		const finished = record?.finishedAt;
		const open = finished === undefined && isLast && live;
		const fallbackEnd = isLast ? (run.endedAt ?? run.lastEventAt) : starts.slice(position + 1).find(next => next !== undefined);
		let end = finished ?? fallbackEnd ?? activities?.last ?? start;
		if (start !== undefined && end !== undefined && end < start) end = start;
		const gap = carry.end !== undefined && start !== undefined ? Math.max(0, start - carry.end) : undefined;
		const waitedFor = waitOf(carry.status);
		carry.end = end ?? carry.end;
		carry.status = isLast && record?.status === undefined ? run.status : record?.status;
		rows.push({
			kind: 'step',
			key: `s:${run.runId}:${step}`,
			runId: run.runId,
			paneId: pane.paneId,
			expertKey: run.expertKey,
			depth,
			step,
			start,
			end,
			durationMs: start !== undefined && end !== undefined ? end - start : undefined,
			bar: timeBar(start, end),
			usage: record?.usage,
			checkpointId: record?.checkpointId,
			status: record?.status,
			open,
			activityIndices: activities?.indices ?? [],
			slow: false,
			gapBeforeMs: gap,
			longGap: false,
			waitedFor,
			longWait: gap !== undefined && gap >= longWaitMs,
			does: stepDoes(model, activities?.indices ?? []),
		});
	});

	return rows;
}

/** Where the previous step of a pane ended, and the status it ended with. */
type Carry = {end: number | undefined; status: RunStatus | undefined};

function waitOf(status: RunStatus | undefined): TimelineStepRow['waitedFor'] {
	if (status === 'stoppedByDelegate') return 'delegates';
	if (status === 'stoppedByInteractiveTool') return 'input';
	return undefined;
}

/**
 * Whether the time before a step is marked ⋯: a long gap or wait, and any wait for a person's answer (however
 * short: a step the model took only once a person answered is worth seeing as such).
 */
export function isMarkedWait(row: TimelineStepRow): boolean {
	return row.gapBeforeMs !== undefined && (row.longGap || row.longWait || row.waitedFor === 'input');
}

/**
 * Where `enter` on a step row lands in the tree: the step's own first activity, what it did (the first query of a
 * run is numbered with its first step, but is what the step was given); the query when it did nothing else.
 */
export function stepLanding(model: Model, row: TimelineStepRow): number | undefined {
	return row.activityIndices.find(index => model.activities[index]?.type !== 'query') ?? row.activityIndices[0];
}

/**
 * What ran in a step, in words: the tools it called by name, counted (`exec ×3, readTextFile`), the experts it
 * delegated to (`→ writer`), `answered` for its final answer, and its errors and retries, in the order they first
 * came. Empty for a step that did none of these (a query, thinking only).
 */
export function stepDoes(model: Model, activityIndices: readonly number[]): string {
	const counts = new Map<string, number>();
	for (const index of activityIndices) {
		const activity = model.activities[index];
		const label = activity ? activityWord(activity) : undefined;
		// A Perstack answer is an `attemptCompletion` call and then its `complete`: one answer.
		if (label === undefined || (label === 'answered' && counts.has(label))) continue;
		counts.set(label, (counts.get(label) ?? 0) + 1);
	}

	return [...counts].map(([label, count]) => (count > 1 ? `${label} ×${count}` : label)).join(', ');
}

/** What one activity did, in a word or two; undefined for the query a run was given. */
function activityWord(activity: Activity): string | undefined {
	if (activity.type === 'query') return undefined;
	if (activity.type === 'complete' || activity.type === 'attemptCompletion') return 'answered';
	if (activity.type === 'delegate') return `→ ${activity.delegateExpertKey}`;
	if (activity.type === 'delegationComplete') return 'delegates returned';
	if (activity.type === 'error') return `error ${activity.errorName}`;
	if (activity.type === 'retry') return 'retry';
	// A result whose call is not in the log names no tool.
	return activity.toolName === '' ? 'a tool' : activity.toolName;
}

/**
 * The child panes that one of the step's activities delegated to, in the order of `children`. Looked up by the
 * step's delegations (`order`: position in `children` by pane id), not child by child: one run can delegate to
 * a hundred thousand.
 */
function delegatedInStep(model: Model, row: TimelineStepRow, children: readonly Pane[], order: ReadonlyMap<string, number>): Pane[] {
	const positions = new Set<number>();
	for (const index of row.activityIndices) {
		const activity = model.activities[index];
		if (activity?.type !== 'delegate') continue;
		for (const id of activity.childRunIds) {
			const at = order.get(id);
			if (at !== undefined) positions.add(at);
		}
	}

	return [...positions].sort((a, b) => a - b).map(at => children[at]!);
}

/**
 * How many steps count as the slowest: the top tenth, at least three, but never more than half of them
 * (with four steps, marking three says nothing).
 */
export function slowestCount(steps: number): number {
	return Math.min(Math.max(3, Math.ceil(steps / 10)), Math.floor(steps / 2));
}

function markSlowest(rows: TimelineStepRow[]): void {
	const timed = rows.filter(row => row.durationMs !== undefined && row.durationMs > 0);
	timed.sort((a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0));
	for (const row of timed.slice(0, slowestCount(timed.length))) row.slow = true;
}

function median(values: number[]): number | undefined {
	if (values.length === 0) return undefined;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function earliest(values: Array<number | undefined>): number | undefined {
	let out: number | undefined;
	for (const value of values) if (value !== undefined && (out === undefined || value < out)) out = value;
	return out;
}

function latest(values: Array<number | undefined>): number | undefined {
	let out: number | undefined;
	for (const value of values) if (value !== undefined && (out === undefined || value > out)) out = value;
	return out;
}

/**
 * Where a bar for `[start, end]` falls in `width` columns spanning `[spanStart, spanEnd]`: always at least
 * one cell (an instant still shows), never past the last column. A span of no length puts every bar at
 * the start.
 */
export function barCells(start: number, end: number, spanStart: number, spanEnd: number, width: number): {offset: number; length: number} {
	const columns = Math.floor(width);
	if (!(columns >= 1)) return {offset: 0, length: 0};
	const span = spanEnd - spanStart;
	if (!(span > 0)) return {offset: 0, length: 1};
	const position = (time: number) => ((Math.min(Math.max(time, spanStart), spanEnd) - spanStart) / span) * columns;
	const offset = Math.min(columns - 1, Math.floor(position(start)));
	const stop = Math.ceil(position(Math.max(start, end)));
	return {offset, length: Math.max(1, Math.min(columns, stop) - offset)};
}
