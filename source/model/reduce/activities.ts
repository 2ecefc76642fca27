/*
 * The reducer's shared primitives, which every other part of reduce/ builds on: making, changing and letting go
 * of activities, finding a tool call by its id within its pane, attaching a child run or a checkpoint's results
 * to the calls they answer, and the job a run belongs to. Nothing here imports another part of reduce/, so the
 * parts import this file and never each other in a ring.
 */
import {type AgentEvent, type ToolResult} from '../events.js';
import {appended, sharedEmptyList} from '../run-collections.js';
import {
	closingComplete,
	closingError,
	isToolActivity,
	releasedActivity,
	type Activity,
	type DelegateActivity,
	type Job,
	type Model,
	type Run,
	type ToolActivity,
	type ToolOutcome,
} from '../state.js';
import {assertNever} from '../assert-never.js';
import {activityObject, type ActivityFields, type CommonFields} from '../activity-object.js';
import {callOf, withCall} from '../call-index.js';
import {livePane, liveRun} from '../storage/run-store.js';

/** The event of one kind, as its handler takes it. */
export type EventOf<K extends AgentEvent['kind']> = Extract<AgentEvent, {kind: K}>;

export function ensureJob(model: Model, jobId: string, timestamp: number | undefined): Job {
	let job = model.jobs.get(jobId);
	if (!job) {
		job = {
			jobId,
			runIds: [],
			firstSeenAt: timestamp,
			lastEventAt: timestamp,
			model: undefined,
			maxSteps: undefined,
			runtimeVersion: undefined,
			runtimeName: undefined,
			reportedCost: undefined,
		};
		model.jobs.set(jobId, job);
	}

	return job;
}

export function bumpPane(model: Model, run: Run): void {
	const pane = livePane(model, run.paneId);
	if (pane) pane.rev++;
}

/**
 * Tool call ids come from the model provider, and some make them unique only within one response: a job's
 * runs can repeat them. A call is found by its id within its pane (a run and the runs that resume it), where
 * its result, its delegates' children and its re-issue after a resume look for it. Calls are kept by pane, then
 * by id: a key made of both would be a new string per call, which a log of a million calls pays for.
 */
export function callIndex(model: Model, run: Run, toolCallId: string): number | undefined {
	return callOf(model.toolCalls.get(run.paneId), toolCallId);
}

export function setCallIndex(model: Model, paneId: string, toolCallId: string, index: number): void {
	const calls = model.toolCalls.get(paneId);
	const updated = withCall(calls, toolCallId, index);
	if (updated !== calls) model.toolCalls.set(paneId, updated);
}

export function activityById(model: Model, id: string): Activity | undefined {
	const index = model.activityIndexById.get(id);
	return index === undefined ? undefined : model.activities[index];
}

export function paneActivities(model: Model, run: Run): Activity[] {
	const pane = livePane(model, run.paneId);
	const out: Activity[] = [];
	if (!pane) return out;
	for (const index of pane.activityIndices) {
		const activity = model.activities[index];
		if (activity) out.push(activity);
	}

	return out;
}

/**
 * A delegation's children with one more, as a new list (an activity is never changed in place): one of the exact
 * length while it is short. A spread made a list with room for 17, ~140 bytes a delegation more (docs/performance.md).
 */
function withChild(list: readonly string[], runId: string): string[] {
	return list.length < 8 ? appended(list as string[], runId) : [...list, runId];
}

export function attachChild(model: Model, activity: DelegateActivity, child: Run): void {
	if (!activity.childRunIds.includes(child.runId)) updateActivity(model, activity, {childRunIds: withChild(activity.childRunIds, child.runId)});
	child.delegatingActivityId = activity.id;
	child.rev++;
	bumpPane(model, child);
}

/**
 * Results the runtime carries in a checkpoint's `partialToolResults` rather than in `resolveToolResults`: in a step
 * that also delegated or asked, the other tools' results arrive only there. Each goes to its own tool activity.
 */
export function attachPartialResults(model: Model, run: Run, results: readonly ToolResult[], ref: AgentEvent['ref']): void {
	for (const result of results) {
		const index = callIndex(model, run, result.id);
		const activity = index === undefined ? undefined : model.activities[index];
		if (!activity || activity === releasedActivity || !isToolActivity(activity) || activity.result) continue;
		releaseCall(model, updateActivity(model, activity, {result: keptOutcome(model, activity, {text: result.text, error: result.error, ref}), settled: true}));
		bumpPane(model, run);
	}
}

/**
 * A tool result as the model keeps it: whole while `model.textKeep` allows, else its first `limit` characters and the whole length
 * (state.ts, `ToolOutcome`). A delegation's answer is always kept whole: its row shows it; so is the answer to
 * `attemptCompletion`, one a run, whose row reads the todos it refused on.
 */
export function keptOutcome(model: Model, activity: ToolActivity, outcome: ToolOutcome): ToolOutcome {
	const keep = model.textKeep;
	if (keep === undefined || outcome.text.length <= keep.limit || activity.type === 'attemptCompletion') return outcome;
	if (model.keptWholeText + outcome.text.length <= keep.wholeBudget) {
		model.keptWholeText += outcome.text.length;
		return outcome;
	}

	model.cutResults++;
	const {limit} = keep;
	// Not cutting between the two halves of a surrogate pair keeps the start well-formed.
	const end = limit > 0 && isHighSurrogate(outcome.text.charCodeAt(limit - 1)) ? limit - 1 : limit;
	// A slice of a string can keep the whole string alive (V8 makes it a view of it); joining its pieces makes a copy.
	const start = end === 0 ? '' : [...outcome.text.slice(0, end)].join('');
	return {text: start, error: outcome.error, ref: outcome.ref, fullLength: outcome.text.length};
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd8_00 && code <= 0xdb_ff;
}

/**
 * A step ended: whatever its tool calls still wait for will not change how they read in a transcript.
 * Only the run's unsettled activities are visited, so a run of 100,000 steps settles in linear time.
 */
export function settleRun(model: Model, run: Run): void {
	for (const index of run.unsettled) {
		const activity = model.activities[index];
		if (activity && !activity.settled) releaseCall(model, updateActivity(model, activity, {settled: true}));
	}

	run.unsettled = sharedEmptyList();
}

export function addActivity(model: Model, run: Run, event: AgentEvent, fields: ActivityFields, settled: boolean, id?: string, reasoning?: string): Activity {
	const pane = livePane(model, run.paneId);
	const seq = model.activities.length;
	if (fields.type === 'complete') run.closing |= closingComplete;
	if (fields.type === 'error') run.closing |= closingError;
	run.activityCount++;
	run.rev++;
	if (model.figuresOnly && releasedOnArrival(fields.type)) {
		// Nothing consults it again: it is counted, and let go as it is made, without a slot in `activities`.
		if (pane) pane.rev++;
		return releasedActivity;
	}

	const step = event.step ?? run.currentStep;
	const common: CommonFields = {
		id: activityId(model, run, fields.type, event, id),
		expertKey: run.expertKey,
		runId: run.runId,
		previousActivityId: pane?.lastActivityId ?? null,
		delegatedBy: run.delegatedBy,
		reasoning: model.figuresOnly ? undefined : (reasoning ?? (fields.type === 'query' ? undefined : completedReasoning(run, step))),
		step,
		timestamp: event.timestamp,
		ref: event.ref,
		seq,
		settled,
	};
	const activity = activityObject(common, keptFields(model, fields));
	model.activities.push(activity);
	model.activityIndexById.set(activity.id, seq);
	if ('toolCallId' in fields && fields.toolCallId !== '') setCallIndex(model, run.paneId, fields.toolCallId, seq);
	if (!settled) run.unsettled = appended(run.unsettled, seq);
	if (pane) {
		pane.activityIndices = appended(pane.activityIndices, seq);
		pane.lastActivityId = activity.id;
		pane.rev++;
	}

	return activity;
}

/**
 * What a model that keeps figures only (`Model.figuresOnly`) keeps of an activity it holds on to (a delegation, a
 * call waiting for its result): not its texts, which none of its readers shows and the reducer does not consult.
 * A log of 20,000 jobs kept ~300 bytes a delegation of them (docs/performance.md).
 */
function keptFields(model: Model, fields: ActivityFields): ActivityFields {
	if (!model.figuresOnly) return fields;
	if (fields.type === 'delegate') return fields.query === '' && fields.message === undefined ? fields : {...fields, query: '', message: undefined};
	return 'toolName' in fields && fields.message !== undefined ? {...fields, message: undefined} : fields;
}

/** A delegation's result as the model keeps it: a model that keeps figures only keeps no text of it (`keptFields`). */
export function keptDelegateResult(model: Model, outcome: ToolOutcome): ToolOutcome {
	return model.figuresOnly && outcome.text !== '' ? {text: '', error: outcome.error, ref: outcome.ref} : outcome;
}

/** The kinds of activity the reducer never looks at again once made: a model that keeps no activities lets them go at once. */
function releasedOnArrival(type: ActivityFields['type']): boolean {
	switch (type) {
		case 'query':
		case 'complete':
		case 'error':
		case 'retry':
		case 'delegationComplete':
			return true;
		case 'delegate':
		case 'interactiveTool':
		case 'generalTool':
		case 'readTextFile':
		case 'readImageFile':
		case 'readPdfFile':
		case 'writeTextFile':
		case 'editTextFile':
		case 'appendTextFile':
		case 'deleteFile':
		case 'moveFile':
		case 'getFileInfo':
		case 'listDirectory':
		case 'createDirectory':
		case 'deleteDirectory':
		case 'exec':
		case 'todo':
		case 'clearTodo':
		case 'attemptCompletion':
			return false;
		default:
			return assertNever(type);
	}
}

/**
 * A tool call that has its result and is settled is let go by a model that keeps no activities
 * (`Model.figuresOnly`): its entry in `toolCalls` stays, so a repeated call or result still finds it. A
 * delegation stays, as do calls still waiting: children link to the one, results come for the others.
 */
export function releaseCall(model: Model, activity: Activity): void {
	if (!model.figuresOnly || !isToolActivity(activity) || !activity.settled || activity.result === undefined) return;
	model.activities[activity.seq] = releasedActivity;
	if (model.activityIndexById.get(activity.id) === activity.seq) model.activityIndexById.delete(activity.id);
	const run = liveRun(model, activity.runId);
	if (!run) return;
	// A call settled by its result stays listed as unsettled until its step ends, which a run that never ends a
	// step never does; and a pane lists only the activities kept. The last one listed, as a call answered at
	// once is, goes now.
	run.unsettled = withoutLast(run.unsettled, activity.seq);
	const pane = livePane(model, run.paneId);
	if (pane) pane.activityIndices = withoutLast(pane.activityIndices, activity.seq);
}

/** `list` without its last item when that is `seq`. */
function withoutLast(list: number[], seq: number): number[] {
	if (list.at(-1) !== seq) return list;
	if (list.length === 1) return sharedEmptyList();
	list.pop();
	return list;
}

/**
 * A delegation made for a call the model let go (a call issued again as a delegation): made afresh in the
 * call's place, and listed in its pane again if the call had left the list.
 */
export function reviveActivity(
	model: Model,
	run: Run,
	event: AgentEvent,
	index: number,
	fields: ActivityFields,
	settled: boolean,
	id: string,
	reasoning: string | undefined,
): void {
	const common: CommonFields = {
		id: activityId(model, run, fields.type, event, id),
		expertKey: run.expertKey,
		runId: run.runId,
		previousActivityId: null,
		delegatedBy: run.delegatedBy,
		reasoning: model.figuresOnly ? undefined : reasoning,
		step: event.step ?? run.currentStep,
		timestamp: event.timestamp,
		ref: event.ref,
		seq: index,
		settled,
	};
	model.activities[index] = activityObject(common, keptFields(model, fields));
	model.activityIndexById.set(common.id, index);
	if (!settled) run.unsettled = appended(run.unsettled, index);
	const pane = livePane(model, run.paneId);
	if (pane && !pane.activityIndices.includes(index)) pane.activityIndices = appended(pane.activityIndices, index);
	run.rev++;
	bumpPane(model, run);
}

/**
 * Puts a changed copy of an activity in its place. Activities are never changed in place (see state.ts), so
 * whoever holds the old object keeps what it was; the updated one is returned for callers that go on with it.
 */
export function updateActivity<A extends Activity>(model: Model, activity: A, changes: Partial<A>): A {
	const updated: A = {...activity, ...changes};
	model.activities[activity.seq] = updated;
	model.changes?.push(activity.seq);
	return updated;
}

export function replaceActivity(model: Model, index: number, existing: Activity, fields: ActivityFields, settled: boolean): void {
	const common: CommonFields = {
		id: existing.id,
		expertKey: existing.expertKey,
		runId: existing.runId,
		previousActivityId: existing.previousActivityId,
		delegatedBy: existing.delegatedBy,
		reasoning: existing.reasoning,
		step: existing.step,
		timestamp: existing.timestamp,
		ref: existing.ref,
		seq: existing.seq,
		settled,
	};
	const replacement = activityObject(common, keptFields(model, fields));
	model.activities[index] = replacement;
	model.changes?.push(index);
	const run = liveRun(model, existing.runId);
	if (run) {
		if (!settled && !run.unsettled.includes(index)) run.unsettled = appended(run.unsettled, index);
		run.rev++;
		bumpPane(model, run);
	}
}

function activityId(model: Model, run: Run, type: string, event: AgentEvent, wanted: string | undefined): string {
	// Event ids are unique on the wire, but one event can make several activities and ids can repeat in bad logs;
	// a tool call id is unique only within one model response, so runs of one job can repeat it.
	const base = wanted ?? (event.dialect === 'perstack' && event.id !== '' ? event.id : `${run.runId}:${type}`);
	if (!model.activityIndexById.has(base)) return base;
	// Counting on from the last suffix given keeps a log of 100,000 equal ids linear.
	let n = model.idRepeats.get(base) ?? 1;
	let id = `${base}#${++n}`;
	while (model.activityIndexById.has(id)) id = `${base}#${++n}`;
	model.idRepeats.set(base, n);
	return id;
}

function completedReasoning(run: Run, step: number | undefined): string | undefined {
	if (step === undefined) return undefined;
	const stream = run.streams.get(step);
	return stream?.reasoning.isComplete && !stream.resultGeneration ? stream.reasoning.text : undefined;
}

/** A query activity (none for no text), and the run's query when it has none yet. */
export function addQuery(model: Model, run: Run, event: AgentEvent, text: string): void {
	if (text === '') return;
	if (!model.figuresOnly && run.query === undefined) run.query = text;
	addActivity(model, run, event, {type: 'query', text}, true);
}
