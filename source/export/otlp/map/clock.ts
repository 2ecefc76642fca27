import type {Model, Pane, Run} from '../../../model/state.js';
import {isOtlpTime, type SpanTimes} from './times.js';

/** The earliest and latest times among some of a log's, those OTLP can carry; `replaced`: some it cannot were met. */
export type Bounds = {earliest: number | undefined; latest: number | undefined; replaced: boolean};

/**
 * The least and greatest of values noted one at a time: a pane's runs, steps and calls have no bound in a hostile
 * log, and `Math.min(...values)` passes every value as an argument and overflows the stack (#22).
 */
class BoundsBuilder {
	earliest = Number.POSITIVE_INFINITY;
	latest = Number.NEGATIVE_INFINITY;
	replaced = false;

	note(ms: number | undefined): void {
		if (ms === undefined) return;
		if (!isOtlpTime(ms)) {
			this.replaced = true;
			return;
		}

		if (ms < this.earliest) this.earliest = ms;
		if (ms > this.latest) this.latest = ms;
	}

	add(bounds: Bounds): void {
		this.note(bounds.earliest);
		this.note(bounds.latest);
		if (bounds.replaced) this.replaced = true;
	}

	done(): Bounds {
		return this.earliest === Number.POSITIVE_INFINITY
			? {earliest: undefined, latest: undefined, replaced: this.replaced}
			: {earliest: this.earliest, latest: this.latest, replaced: this.replaced};
	}
}

/**
 * The times a mapping of the model reads beyond one event's own, each worked out once per mapping (live export
 * maps the model every second, and a hostile log has panes of any number of runs, steps and calls):
 *
 * - a run's bounds: its start and end, its steps' starts and ends, its activities' times. A run's start and end
 *   are the least and greatest of its events' times, so one event outside OTLP's range (times.ts) takes the
 *   run's start or end with it; its bounds stand in for it.
 * - a pane's bounds: its runs' together;
 * - a pane's cover: its bounds and its delegates' covers. An agent span spans its pane's cover, and a delegation
 *   its delegates' covers, so that every span starts and ends inside its parent, even where the log's own
 *   times (a step that ended after its run, a delegate still writing after its parent ended) say otherwise.
 */
export class Clock {
	readonly #model: Model;
	readonly #runs = new Map<string, Bounds>();
	readonly #panes = new Map<string, Bounds>();
	readonly #covers = new Map<string, Bounds>();

	constructor(model: Model) {
		this.#model = model;
	}

	/** Where a run started: its own start, or (when OTLP cannot carry that) the earliest of its bounds. */
	runStart(run: Run, times: SpanTimes): number | undefined {
		const start = times.of(run.startedAt);
		if (start !== undefined || run.startedAt === undefined) return start;
		return this.run(run).earliest;
	}

	/**
	 * Where a run ended (or, still going, its last event): its own end, or (when OTLP cannot carry that) the
	 * latest of its bounds, else where it started.
	 */
	runEnd(run: Run, times: SpanTimes): number | undefined {
		const ended = times.of(run.endedAt);
		if (ended !== undefined) return ended;
		const last = times.of(run.lastEventAt);
		if (run.endedAt === undefined && (last !== undefined || run.lastEventAt === undefined)) return last;
		return this.run(run).latest ?? this.runStart(run, times);
	}

	run(run: Run): Bounds {
		let bounds = this.#runs.get(run.runId);
		if (bounds === undefined) {
			this.#scanPane(run.paneId);
			bounds = this.#runs.get(run.runId) ?? this.#runBounds(run, undefined);
		}

		return bounds;
	}

	pane(pane: Pane): Bounds {
		let bounds = this.#panes.get(pane.paneId);
		if (bounds === undefined) {
			this.#scanPane(pane.paneId);
			bounds = this.#panes.get(pane.paneId) ?? {earliest: undefined, latest: undefined, replaced: false};
		}

		return bounds;
	}

	/**
	 * What a pane's agent span covers: its own bounds and the covers of the panes it delegated to, so every span
	 * under it, however deep, starts and ends inside it. Worked out from the deepest panes up with a stack of
	 * its own, not by recursion: a delegation chain may be 20,000 runs deep (#22).
	 */
	cover(root: Pane): Bounds {
		const started = new Set<string>();
		const stack: Pane[] = [root];
		while (stack.length > 0) {
			const pane = stack.at(-1)!;
			if (this.#covers.has(pane.paneId)) {
				stack.pop();
				continue;
			}

			const children = this.#childPanes(pane);
			if (!started.has(pane.paneId)) {
				started.add(pane.paneId);
				// A pane already started is an ancestor (a cycle the reducer did not break): not waited for.
				for (const child of children) if (!this.#covers.has(child.paneId) && !started.has(child.paneId)) stack.push(child);
				continue;
			}

			const own = this.pane(pane);
			const builder = new BoundsBuilder();
			builder.add(own);
			for (const child of children) {
				const cover = this.#covers.get(child.paneId);
				builder.note(cover?.earliest);
				builder.note(cover?.latest);
			}

			// Replaced times of the panes under it are marked on their own spans, not on this one.
			this.#covers.set(pane.paneId, {...builder.done(), replaced: own.replaced});
			stack.pop();
		}

		return this.#covers.get(root.paneId) ?? this.pane(root);
	}

	/** The covers of the panes of these runs (a delegation's children), together. */
	coverOfRuns(runIds: readonly string[]): Bounds {
		const builder = new BoundsBuilder();
		const seen = new Set<string>();
		for (const id of runIds) {
			const run = this.#model.runs.get(id);
			const pane = run && !run.closesCycle && !seen.has(run.paneId) ? this.#model.panes.get(run.paneId) : undefined;
			if (!run || !pane) continue;
			seen.add(run.paneId);
			const cover = this.cover(pane);
			builder.note(cover.earliest);
			builder.note(cover.latest);
		}

		return builder.done();
	}

	/** The panes a pane's runs delegated to; a run whose parent link would close a cycle is a root, not under it. */
	#childPanes(pane: Pane): Pane[] {
		const panes: Pane[] = [];
		const seen = new Set<string>([pane.paneId]);
		for (const runId of pane.runIds) {
			for (const childId of this.#model.runs.get(runId)?.childRunIds ?? []) {
				const child = this.#model.runs.get(childId);
				if (!child || child.closesCycle || seen.has(child.paneId)) continue;
				seen.add(child.paneId);
				const childPane = this.#model.panes.get(child.paneId);
				if (childPane) panes.push(childPane);
			}
		}

		return panes;
	}

	/** One pass over a pane's activities gives every one of its runs its bounds, and the pane its own. */
	#scanPane(paneId: string): void {
		const pane = this.#model.panes.get(paneId);
		if (!pane) return;
		const activities = new Map<string, BoundsBuilder>();
		for (const index of pane.activityIndices) {
			const activity = this.#model.activities[index];
			if (activity === undefined) continue;
			let builder = activities.get(activity.runId);
			if (builder === undefined) {
				builder = new BoundsBuilder();
				activities.set(activity.runId, builder);
			}

			builder.note(activity.timestamp);
		}

		const paneBounds = new BoundsBuilder();
		for (const runId of pane.runIds) {
			const run = this.#model.runs.get(runId);
			if (!run) continue;
			const bounds = this.#runBounds(run, activities.get(runId));
			this.#runs.set(runId, bounds);
			paneBounds.add(bounds);
		}

		this.#panes.set(paneId, paneBounds.done());
	}

	#runBounds(run: Run, activities: BoundsBuilder | undefined): Bounds {
		const builder = new BoundsBuilder();
		if (activities) builder.add(activities.done());
		builder.note(run.startedAt);
		// Its end, as runEnd reads it: events after a run's end (a late disconnect) do not stretch it.
		if (run.endedAt !== undefined && isOtlpTime(run.endedAt)) builder.note(run.endedAt);
		else {
			builder.note(run.endedAt);
			builder.note(run.lastEventAt);
		}

		for (const step of run.steps) {
			builder.note(step.startedAt);
			builder.note(step.finishedAt);
		}

		return builder.done();
	}
}
