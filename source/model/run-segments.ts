import {assertNever} from './assert-never.js';
import type {AgentEvent} from './events.js';

/*
 * What the index reads of the model: its runs, and what each run's `initializeRuntime` said. Named here rather
 * than imported, so that state.ts, which makes the index, and this file do not import each other.
 */
type SegmentRun = {readonly expertKey: string; readonly started: boolean; readonly runId: string};
type Model = {
	readonly runs: {get(id: string): SegmentRun | undefined; has(id: string): boolean};
	readonly runtime: {get(id: string): unknown; set(id: string, value: unknown): void};
};
type Run = SegmentRun;

/*
 * Run segments: a run id is not a run in the released Perstack CLI (0.0.54). It starts a single delegation's
 * child under its parent's run id, resumes the parent under the same id once its delegates return, and continues
 * a `--continue-job` follow-up under the id of the run it follows. Each `startRun` that takes up a run id already
 * in use with another expert, from a checkpoint that is not a fresh start, or for a delegation, starts a run
 * segment: a run of the model with an id of its own, `<runId>#<n>` (n counts that run id's segments, the first
 * being the plain id), so the same bytes always give the same ids. Every later event of that run id goes to the
 * newest segment of its expert (of any expert when the event names none, as the released streaming events do).
 * Later main gives each of these runs an id of its own; docs/model-rules.md, "Run segments", has the rules.
 *
 * The tables are the reducer's own: nothing of a log whose run ids are all distinct is put in them but the
 * checkpoints its runs stopped at for delegates.
 */
export class SegmentIndex {
	/** Per run id started more than once: its segments' ids, oldest first (the first is the run id itself). */
	readonly #segments = new Map<string, string[]>();
	/** The checkpoint a run stopped at for its delegates → that run: a released child names its parent by it. */
	readonly #stops = new Map<string, string>();
	/** Children whose parent's stop was not seen yet, by the checkpoint they name. */
	readonly #awaiting = new Map<string, Array<{childRunId: string; toolCallId: string | undefined}>>();

	/** The segments of a run id, oldest first; undefined when the id was started once (or never). */
	segmentsOf(wireRunId: string): readonly string[] | undefined {
		return this.#segments.get(wireRunId);
	}

	/** The id of the event's run: its segment's, or the event as it came when its run id names one run. */
	route(model: Model, event: AgentEvent): AgentEvent {
		if (event.dialect !== 'perstack') return event;
		switch (event.kind) {
			case 'runStart':
				return this.#routeStart(model, event);
			// Runtime events speak of the process, not of a run; `initializeRuntime` is kept by the wire run id until
			// the `startRun` it comes before takes it (see `#routeStart`).
			case 'runtimeInit':
			case 'skill':
			case 'skillStderr':
			case 'docker':
			case 'proxy':
			case 'unknown':
				return event;
			// The events of a run.
			case 'stepStart':
			case 'toolCalls':
			case 'toolResults':
			case 'stepEnd':
			case 'retry':
			case 'stream':
			case 'usage':
			case 'childRunStart':
			case 'runEnd':
			case 'runError':
			case 'query':
			case 'reportedCost':
			case 'marker': {
				// Most logs have no run id started twice: nothing to look up for any of their events.
				if (this.#segments.size === 0) return event;
				const segments = this.#segments.get(event.runId);
				if (!segments) return event;
				const runId = newestOf(model, segments, event.expertKey);
				return runId === event.runId ? event : {...event, runId};
			}

			default:
				return assertNever(event);
		}
	}

	#routeStart(model: Model, event: Extract<AgentEvent, {kind: 'runStart'}>): AgentEvent {
		const wireRunId = event.runId;
		const first = model.runs.get(wireRunId);
		if (!first?.started) return event;
		let segments = this.#segments.get(wireRunId);
		const newestId = segments ? segments.at(-1)! : wireRunId;
		const newest = model.runs.get(newestId);
		if (newest && !startsSegment(newest, event)) return newestId === wireRunId ? event : {...event, runId: newestId};
		if (!segments) {
			segments = [wireRunId];
			this.#segments.set(wireRunId, segments);
		}

		let n = segments.length + 1;
		let runId = `${wireRunId}#${n}`;
		// A log may hold a run whose own id looks like a segment's.
		while (model.runs.has(runId)) runId = `${wireRunId}#${++n}`;
		segments.push(runId);
		// What the `initializeRuntime` before this start said (its model, a person's answer) is this segment's.
		const runtime = model.runtime.get(wireRunId);
		if (runtime) model.runtime.set(runId, runtime);
		return {...event, runId};
	}

	/**
	 * The run an event of this wire run id said to be of `expertName` would go to, for `initializeRuntime`, which
	 * comes before its `startRun`: undefined when the newest segment is another expert's (the init is then for a
	 * segment still to start).
	 */
	runtimeTarget(model: Model, wireRunId: string, expertName: string | undefined): string | undefined {
		const segments = this.#segments.get(wireRunId);
		const newestId = segments ? segments.at(-1)! : wireRunId;
		const newest = model.runs.get(newestId);
		if (!newest) return undefined;
		if (expertName !== undefined && !sameExpert(newest.expertKey, expertName)) return undefined;
		return newestId;
	}

	/** A run stopped at `checkpointId` for its delegates: children that name it find it here. */
	stoppedForDelegates(checkpointId: string, runId: string): Array<{childRunId: string; toolCallId: string | undefined}> | undefined {
		this.#stops.set(checkpointId, runId);
		const waiting = this.#awaiting.get(checkpointId);
		if (waiting) this.#awaiting.delete(checkpointId);
		return waiting;
	}

	/** The run that stopped at `checkpointId` for its delegates, if it was seen. */
	runStoppedAt(checkpointId: string): string | undefined {
		return this.#stops.get(checkpointId);
	}

	/** A child that names a stop not seen yet waits for it. */
	awaitStop(checkpointId: string, childRunId: string, toolCallId: string | undefined): void {
		const waiting = this.#awaiting.get(checkpointId);
		if (waiting) waiting.push({childRunId, toolCallId});
		else this.#awaiting.set(checkpointId, [{childRunId, toolCallId}]);
	}
}

/** The newest segment of the expert, or the newest of all when the event names no expert or one none of them is. */
function newestOf(model: Model, segments: readonly string[], expertKey: string | undefined): string {
	const newest = segments.at(-1)!;
	if (expertKey === undefined) return newest;
	for (let i = segments.length - 1; i >= 0; i--) {
		const id = segments[i]!;
		if (model.runs.get(id)?.expertKey === expertKey) return id;
	}

	return newest;
}

/**
 * Whether a `startRun` of a run id in use starts another run rather than the same one again: another expert (a
 * delegate under its parent's id), a checkpoint that is not a fresh start (a parent resuming, a follow-up), or a
 * delegation (an expert delegating to itself).
 */
function startsSegment(newest: Run, event: Extract<AgentEvent, {kind: 'runStart'}>): boolean {
	const expertKey = event.expertKey ?? event.runId;
	return expertKey !== newest.expertKey || event.checkpoint.status !== 'init' || event.checkpoint.delegatedBy !== undefined;
}

/** `initializeRuntime` names the expert (`writer`); a run's key may add a scope and a version (`@acme/writer@1.2.0`). */
function sameExpert(expertKey: string, expertName: string): boolean {
	if (expertKey === expertName) return true;
	const withoutVersion = expertKey.replace(/@[^@/]*$/, '');
	return withoutVersion === expertName || withoutVersion.slice(withoutVersion.lastIndexOf('/') + 1) === expertName;
}
