import {closedRunStatuses} from '../../model/events.js';
import {isToolActivity, releasedActivity, type Activity, type Job, type Model, type Run, type RuntimeInfo, type StepRecord} from '../../model/state.js';
import type {Usage} from '../../model/events.js';
import {postedActivity, type PostedActivity} from './posted-activities.js';
import type {ModelChanges, ModelRest, PostedJob, PostedList, PostedPane, PostedRun, PostedStep, PostedStream, PostedUsage} from './model-changes.js';

/*
 * The load worker's side of posting a model by its changes (model-changes.ts): what the viewer has of it, and
 * what it lacks. Activities are never changed in place (a change makes a new object, model/reduce.ts), and a
 * run's or a pane's `rev` moves with every change to it, so most of what the viewer has is known by reference
 * or by number. Lists are compared item by item against a copy of what was posted, once they are long enough
 * to be worth posting by their end (what is kept here is references and numbers, not the strings).
 */

/** From this length a list is posted by what changed at its end (PostedList) rather than whole. */
const longList = 64;

/** What the viewer has of one list, once it is long: a copy of it as posted. */
type SentList<T> = T[] | undefined;

/**
 * What the viewer has of a run's lists, for a run with a long one (most have none: a run's `rev` is all that is
 * kept of those, see `ChangeTracker.#runRevs`).
 */
type SentRunLists = {
	/** How many step records the viewer has, once the list is long (see `postSteps`). */
	steps: number | undefined;
	endedSteps: SentList<number>;
	unsettled: SentList<number>;
	pendingToolCallIds: SentList<string>;
	childRunIds: SentList<string>;
};

/** What the viewer has of a pane's lists, for a pane with a long one (see SentRunLists). */
type SentPaneLists = {runIds: SentList<string>; activityIndices: SentList<number>};
type SentJob = {job: Omit<Job, 'runIds'>; runIds: string[]};

const same = <T>(a: T, b: T) => a === b;

const itself = <T>(item: T) => item;

/** The list as it posts, given what the viewer has of it; and what the viewer will have once it is posted. */
function postList<T>(list: T[], sent: SentList<T>, isSame: (item: T, sent: T) => boolean, copy: (item: T) => T): [PostedList<T>, SentList<T>] {
	if (list.length < longList) return [list, undefined];
	if (!sent) return [list, list.map(item => copy(item))];
	const length = Math.min(list.length, sent.length);
	let keep = 0;
	while (keep < length && isSame(list[keep]!, sent[keep]!)) keep++;
	const tail = list.slice(keep);
	sent.length = keep;
	for (const item of tail) sent.push(copy(item));
	return [{keep, tail}, sent];
}

const postedUsage = (usage: Usage): PostedUsage => [usage.inputTokens, usage.outputTokens, usage.reasoningTokens, usage.totalTokens, usage.cachedInputTokens];

const postedStep = (record: StepRecord): PostedStep => [
	record.step,
	record.startedAt,
	record.finishedAt,
	record.usage === undefined ? undefined : postedUsage(record.usage),
	record.checkpointId,
	record.status,
	record.messageLine,
	record.messageOffset,
];

/**
 * A run's step records as posted, given how many of them the viewer has and the first the reducer changed since
 * (`Model.stepChanges`): records are changed in place, so a long list posts from the first changed or new one on.
 * And how many the viewer then has.
 */
function postSteps(list: StepRecord[], sent: number | undefined, changedFrom: number | undefined): [PostedList<StepRecord>, number | undefined] {
	if (list.length < longList) return [list, undefined];
	if (sent === undefined) return [list, list.length];
	const keep = Math.min(sent, changedFrom ?? sent, list.length);
	return [{keep, tail: list.slice(keep)}, list.length];
}

/** A posted list of step records as tuples. */
function postedSteps(list: PostedList<StepRecord>): PostedList<PostedStep> {
	return 'keep' in list ? {keep: list.keep, tail: list.tail.map(postedStep)} : list.map(postedStep);
}

function postStreams(run: Run): Array<[number, PostedStream]> {
	const streams: Array<[number, PostedStream]> = [];
	for (const [step, stream] of run.streams) {
		streams.push([
			step,
			{
				step: stream.step,
				reasoning: stream.reasoning.toState(),
				result: stream.result.toState(),
				callReasoning: stream.callReasoning,
				resultGeneration: stream.resultGeneration,
			},
		]);
	}

	return streams;
}

/** The model's small parts, which post whole: everything but what is posted by its changes and the reducer's indexes. */
function restOf(model: Model): ModelRest {
	const {
		jobs: _jobs,
		runs: _runs,
		panes: _panes,
		activities: _activities,
		activityIndexById: _activityIndexById,
		runtime: _runtime,
		diagnostics: _diagnostics,
		eventIds: _eventIds,
		toolCalls: _toolCalls,
		orphanChildren: _orphanChildren,
		runsAwaitingParent: _runsAwaitingParent,
		runSegments: _runSegments,
		openStepUsage: _openStepUsage,
		idRepeats: _idRepeats,
		daemonAgents: _daemonAgents,
		daemonStepCounts: _daemonStepCounts,
		stepChanges: _stepChanges,
		...rest
	} = model;
	return rest;
}

/**
 * Whether the reducer will change a posted activity no more, so that the worker's model can let it go
 * (`ChangeTracker.letGo`): it is settled, has its result if it is a call, is no delegation (children attach to
 * those) and no interactive call (a resume answers those), and its run has closed or gone two steps past it
 * (late reasoning goes to its own step's activities only: model/reduce/streams.ts).
 */
function final(model: Model, activity: Activity): boolean {
	if (!activity.settled || activity.type === 'delegate' || activity.type === 'interactiveTool') return false;
	if (isToolActivity(activity) && activity.result === undefined) return false;
	const run = model.runs.get(activity.runId);
	if (!run) return false;
	if (closedRunStatuses.has(run.status)) return true;
	return activity.step !== undefined && run.currentStep !== undefined && activity.step + 2 <= run.currentStep;
}

/** What the viewer has of one model, and what it lacks (`changes`). */
export class ChangeTracker {
	/** The activities as posted: the model's own objects, or `releasedActivity` where both let go of one (`letGo`). */
	readonly #activities: Activity[] = [];
	/** Where the activities are that were posted and not yet let go, and may be (no delegations). */
	readonly #held = new Set<number>();
	/**
	 * The `rev` of each run as posted, in the order of `model.runs` (the reducer deletes no run, and a Map keeps a key
	 * in its place when it is set again): a number a run rather than an object and an entry of a Map by its id,
	 * ~120 bytes a run of a wide job (docs/performance.md).
	 */
	readonly #runRevs: number[] = [];
	/** What the viewer has of the lists of the runs that have a long one (`postList`): few. */
	readonly #runLists = new Map<string, SentRunLists>();
	/**
	 * Per pane as posted, its place in `#paneRevs`, `#paneDepths` and `#paneEpochs` (the reducer sets a pane's
	 * remembered depth without moving its rev: model/depth.ts): numbers rather than an object a pane. Panes are
	 * deleted (merged away), so they are found by id; the places of deleted ones are not used again.
	 */
	readonly #panes = new Map<string, number>();
	readonly #paneRevs: number[] = [];
	readonly #paneDepths: number[] = [];
	readonly #paneEpochs: number[] = [];
	readonly #paneLists = new Map<string, SentPaneLists>();
	readonly #jobs = new Map<string, SentJob>();
	/** Each run's runtime info as posted, in the order of `model.runtime`, which the reducer deletes nothing from (as `#runRevs`). */
	readonly #runtime: RuntimeInfo[] = [];
	#diagnostics: SentList<Model['diagnostics'][number]>;
	/** The notes of the step records the reducer changed (`Model.stepChanges`), once this tracker asked for them. */
	#stepChanges: Map<string, number> | undefined;
	#rev = -1;

	/** Whether anything changed since the last `changes` (the model's `rev` moves with every change). */
	changed(model: Model): boolean {
		return model.rev !== this.#rev;
	}

	/** What changed since the last call, which the viewer is then taken to have. */
	changes(model: Model): ModelChanges {
		this.#rev = model.rev;
		const [activityAt, activities] = this.#changedActivities(model.activities);
		const [diagnostics, sentDiagnostics] = postList(model.diagnostics, this.#diagnostics, same, itself);
		this.#diagnostics = sentDiagnostics;
		return {
			activityAt,
			activities,
			runs: this.#changedRuns(model),
			...this.#changedPanes(model),
			jobs: this.#changedJobs(model.jobs),
			runtime: this.#changedRuntime(model.runtime),
			diagnostics,
			rest: restOf(model),
		};
	}

	#changedActivities(activities: readonly Activity[]): [number[], PostedActivity[]] {
		const sent = this.#activities;
		const at: number[] = [];
		const changed: PostedActivity[] = [];
		for (let index = 0; index < sent.length; index++) {
			const activity = activities[index]!;
			if (activity === sent[index]) continue;
			at.push(index);
			changed.push(postedActivity(activity));
			sent[index] = activity;
		}

		for (let index = sent.length; index < activities.length; index++) {
			const activity = activities[index]!;
			at.push(index);
			changed.push(postedActivity(activity));
			sent.push(activity);
		}

		for (const index of at) this.#held.add(index);
		return [at, changed];
	}

	/**
	 * After a post: lets the model's posted activities go that the reducer will not change again (`final`), the
	 * viewer's copy then being the only one. Their slots hold `releasedActivity`, as a figures-only model's do,
	 * which the reducer knows to pass by; their ids stay in `activityIndexById` (a later activity of the same id
	 * is still told apart) and in the panes' lists. A log of many calls or many runs is then held once in the
	 * process rather than twice. Returns how many it let go.
	 */
	letGo(model: Model): number {
		const {activities} = model;
		const sent = this.#activities;
		let released = 0;
		for (const index of this.#held) {
			const activity = activities[index];
			// Changed since it was posted: the next post lists it again.
			if (activity === undefined || activity !== sent[index]) continue;
			// A delegation is never let go: children attach to it as long as the log goes on.
			if (activity.type === 'delegate') this.#held.delete(index);
			if (!final(model, activity)) continue;
			activities[index] = releasedActivity;
			sent[index] = releasedActivity;
			this.#held.delete(index);
			released++;
		}

		return released;
	}

	#changedRuns(model: Model): PostedRun[] {
		// From the first post on, the reducer notes which step records it changed (none are posted before it). The
		// notes are this tracker's, which empties them: a second one on the same model would miss what it empties.
		if (model.stepChanges !== this.#stepChanges) throw new Error('a model is posted by one change tracker only');
		const stepChanges = (this.#stepChanges ??= new Map<string, number>());
		model.stepChanges = stepChanges;
		const posted: PostedRun[] = [];
		const revs = this.#runRevs;
		if (model.runs.size < revs.length) throw new Error('a posted model lost runs');
		let at = -1;
		for (const [runId, run] of model.runs) {
			at++;
			if (revs[at] === run.rev) continue;
			const sent = at < revs.length ? this.#runLists.get(runId) : undefined;
			const [steps, sentSteps] = postSteps(run.steps, sent?.steps, stepChanges.get(runId));
			const [endedSteps, sentEnded] = postList(run.endedSteps, sent?.endedSteps, same, itself);
			const [unsettled, sentUnsettled] = postList(run.unsettled, sent?.unsettled, same, itself);
			const [pendingToolCallIds, sentPending] = postList(run.pendingToolCallIds, sent?.pendingToolCallIds, same, itself);
			const [childRunIds, sentChildren] = postList(run.childRunIds, sent?.childRunIds, same, itself);
			// Runs come in the Map's order: a new one is the next place.
			revs[at] = run.rev;
			if (sentSteps !== undefined || sentEnded || sentUnsettled || sentPending || sentChildren) {
				this.#runLists.set(runId, {
					steps: sentSteps,
					endedSteps: sentEnded,
					unsettled: sentUnsettled,
					pendingToolCallIds: sentPending,
					childRunIds: sentChildren,
				});
			} else if (sent) {
				this.#runLists.delete(runId);
			}

			posted.push([
				run.runId,
				run.jobId,
				run.expertKey,
				run.dialect,
				run.model,
				run.paneId,
				run.parentRunId,
				run.delegatingActivityId,
				run.delegatedBy,
				run.resumesRunId,
				run.resumedByRunId,
				run.resumedFrom,
				run.started,
				run.status,
				run.statusStep,
				endedSteps,
				postedUsage(run.usage),
				run.startedAt,
				run.endedAt,
				run.lastEventAt,
				run.reportedDurationMs,
				run.currentStep,
				run.activityCount,
				run.error,
				unsettled,
				run.closing,
				pendingToolCallIds,
				childRunIds,
				run.adoptedBy,
				run.closesCycle,
				run.query,
				postedSteps(steps),
				run.stepIndex !== undefined,
				postStreams(run),
				run.messageSource,
				run.rev,
			]);
		}

		stepChanges.clear();
		return posted;
	}

	#changedPanes(model: Model): {panes: PostedPane[]; removedPanes: string[]} {
		const panes: PostedPane[] = [];
		for (const [paneId, pane] of model.panes) {
			let at = this.#panes.get(paneId);
			// The reducer sets a pane's remembered depth without moving its rev (model/depth.ts): a depth is news too.
			if (at !== undefined && this.#paneRevs[at] === pane.rev && this.#paneDepths[at] === pane.depth && this.#paneEpochs[at] === pane.depthEpoch) continue;
			const sent = at === undefined ? undefined : this.#paneLists.get(paneId);
			const [runIds, sentRuns] = postList(pane.runIds, sent?.runIds, same, itself);
			const [activityIndices, sentIndices] = postList(pane.activityIndices, sent?.activityIndices, same, itself);
			if (at === undefined) {
				at = this.#paneRevs.length;
				this.#panes.set(paneId, at);
			}

			this.#paneRevs[at] = pane.rev;
			this.#paneDepths[at] = pane.depth;
			this.#paneEpochs[at] = pane.depthEpoch;
			if (sentRuns || sentIndices) this.#paneLists.set(paneId, {runIds: sentRuns, activityIndices: sentIndices});
			else if (sent) this.#paneLists.delete(paneId);
			panes.push([pane.paneId, pane.jobId, runIds, activityIndices, pane.lastActivityId, pane.depth, pane.depthEpoch, pane.rev]);
		}

		// Every pane of the model is in #panes now: any more there were merged away (a resumed run's pane).
		const removedPanes: string[] = [];
		if (this.#panes.size > model.panes.size) {
			for (const paneId of this.#panes.keys()) {
				if (model.panes.has(paneId)) continue;
				removedPanes.push(paneId);
				this.#panes.delete(paneId);
				this.#paneLists.delete(paneId);
			}
		}

		return {panes, removedPanes};
	}

	/** Jobs have no `rev`: each is compared field by field with a copy of it as posted. */
	#changedJobs(jobs: ReadonlyMap<string, Job>): PostedJob[] {
		const posted: PostedJob[] = [];
		for (const [jobId, job] of jobs) {
			const sent = this.#jobs.get(jobId);
			const {runIds: list, ...fields} = job;
			const keep = sent ? commonStart(list, sent.runIds) : 0;
			const sameFields = sent !== undefined && (Object.keys(fields) as Array<keyof typeof fields>).every(key => fields[key] === sent.job[key]);
			if (sent && sameFields && keep === list.length && keep === sent.runIds.length) continue;
			const tail = list.slice(keep);
			posted.push({...fields, runIds: sent && list.length >= longList ? {keep, tail} : list});
			if (sent) {
				sent.job = fields;
				sent.runIds.length = keep;
				for (const runId of tail) sent.runIds.push(runId);
			} else {
				this.#jobs.set(jobId, {job: fields, runIds: tail});
			}
		}

		return posted;
	}

	#changedRuntime(runtime: ReadonlyMap<string, RuntimeInfo>): Array<[string, RuntimeInfo]> {
		const posted: Array<[string, RuntimeInfo]> = [];
		const sent = this.#runtime;
		if (runtime.size < sent.length) throw new Error('a posted model lost runtime infos');
		let at = -1;
		for (const [runId, info] of runtime) {
			at++;
			if (sent[at] === info) continue;
			sent[at] = info;
			posted.push([runId, info]);
		}

		return posted;
	}
}

/** How many items at the start of the two lists are the same. */
function commonStart<T>(list: readonly T[], other: readonly T[]): number {
	const length = Math.min(list.length, other.length);
	let at = 0;
	while (at < length && list[at] === other[at]) at++;
	return at;
}
