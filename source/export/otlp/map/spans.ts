import type {RunStatus, Usage} from '../../../model/events.js';
import {
	isToolActivity,
	type Activity,
	type DelegateActivity,
	type Job,
	type Model,
	type Pane,
	type Run,
	type StepRecord,
	type ToolActivity,
	type ToolOutcome,
} from '../../../model/state.js';
import {addUsage, zeroUsage} from '../../../model/usage.js';
import {hasEndedStep, stepRecordOf} from '../../../model/run-collections.js';
import {attr, operation, providerOf} from './attributes.js';
import {addContent, addMessages, argumentsText, truncate} from './content.js';
import {spanIdOf, traceIdOf} from './ids.js';
import {SpanIds} from './span-ids.js';
import type {AttributeValue, MapOptions, OtlpSpan} from './span.js';
import {Clock} from './clock.js';
import {SpanTimes} from './times.js';
import {runsCost} from '../../../query/cost.js';
import {delegateOutcome} from '../../../query/delegate-outcome.js';
import {jobTotals} from '../../../query/tree.js';

/*
 * The model as spans (README, "OpenTelemetry export", says it in words):
 * - a trace per job;
 * - an `invoke_agent {expert}` span per pane: a run and the runs that resume it (a coordinator resumed after
 *   its delegates returned, or after an interactive stop) continue one span, since to a reader they are one
 *   agent's one piece of work; the span lists its runs in `perscope.run.ids`;
 * - a `chat {model}` span per step (one generation), a child of its agent's span;
 * - an `execute_tool {tool}` span per tool call, a child of its agent's span; a delegation is one too, and the
 *   agent spans of the runs it delegated to are its children, so parallel delegates are siblings.
 */

/** A run in one of these will not go on by itself: its span can end. A run stopped by delegation waits for its delegates. */
const endingStatuses: ReadonlySet<RunStatus> = new Set<RunStatus>(['completed', 'stoppedByError', 'stoppedByExceededMaxSteps', 'stoppedByInteractiveTool']);

/** Error text in a status message is cut to this; the whole of it is content (`--otlp-content`). */
const statusMessageLimit = 1024;

type ToolLike = ToolActivity | DelegateActivity;

function isToolLike(activity: Activity): activity is ToolLike {
	return activity.type === 'delegate' || isToolActivity(activity);
}

export function agentSpanId(jobId: string, paneId: string): string {
	return spanIdOf(jobId, 'agent', paneId);
}

/**
 * The conventions count cache reads in `gen_ai.usage.input_tokens`. A recorded `inputTokens` already does for
 * OpenAI and Gemini, but not for Anthropic: Perstack takes its usage from the AI SDK (v5), whose Anthropic
 * provider reports `input_tokens` (what was not read from the cache) and the cache reads apart, and Claude
 * Code's stream does the same.
 */
function inputTokensOf(usage: Usage, provider: string | undefined): number {
	return provider === 'anthropic' ? usage.inputTokens + usage.cachedInputTokens : usage.inputTokens;
}

function usageAttributes(attributes: Record<string, AttributeValue>, usage: Usage, provider: string | undefined): void {
	attributes[attr.inputTokens] = inputTokensOf(usage, provider);
	attributes[attr.outputTokens] = usage.outputTokens;
	if (usage.cachedInputTokens > 0) attributes[attr.cacheReadInputTokens] = usage.cachedInputTokens;
	if (usage.reasoningTokens > 0) attributes[attr.reasoningOutputTokens] = usage.reasoningTokens;
}

function modelAttributes(attributes: Record<string, AttributeValue>, modelName: string | undefined): void {
	if (modelName === undefined) return;
	attributes[attr.requestModel] = modelName;
	const provider = providerOf(modelName);
	if (provider !== undefined) attributes[attr.providerName] = provider;
}

function defined<T>(value: T | undefined): value is T {
	return value !== undefined;
}

function activityAt(model: Model, id: string | null): Activity | undefined {
	if (id === null) return undefined;
	const index = model.activityIndexById.get(id);
	return index === undefined ? undefined : model.activities[index];
}

/** The span a pane's agent span hangs from: the delegating tool call, else the parent's agent span, else none. */
function parentOfPane(model: Model, ids: SpanIds, jobId: string, head: Run): string | undefined {
	if (head.parentRunId === null || head.closesCycle) return undefined;
	const delegating = activityAt(model, head.delegatingActivityId);
	if (delegating && isToolLike(delegating)) return ids.tool(jobId, delegating);
	const parent = model.runs.get(head.parentRunId);
	return agentSpanId(jobId, parent ? parent.paneId : head.parentRunId);
}

/**
 * What a call came to: its result, or for a delegation whose parent never took its delegates' answers in, what
 * they ended with once the input is over (while it goes on, a sibling still running may yet change it).
 */
function outcomeOf(model: Model, activity: ToolLike): ToolOutcome | undefined {
	if (activity.result !== undefined || activity.type !== 'delegate' || model.inputEnd === undefined) return activity.result;
	return delegateOutcome(model, activity);
}

function toolEnd(clock: Clock, model: Model, activity: ToolLike, times: SpanTimes): number | undefined {
	if (!outcomeOf(model, activity)) return undefined;
	// The model keeps no time for a tool result: a delegation ends when the last of its delegates did (their
	// panes, so a delegate resumed after delegating in turn counts until its last run); any other call by the
	// end of the step that made it (the runtime ends a step once its results are in).
	if (activity.type === 'delegate') {
		const delegates = clock.coverOfRuns(activity.childRunIds);
		if (delegates.latest !== undefined) return delegates.latest;
	}

	const run = model.runs.get(activity.runId);
	const step = activity.step === undefined || run === undefined ? undefined : stepRecordOf(run, activity.step);
	return times.of(step?.finishedAt) ?? (run ? clock.runEnd(run, times) : undefined) ?? times.of(activity.timestamp);
}

function later(start: number, end: number | undefined): number | undefined {
	return end === undefined ? undefined : Math.max(start, end);
}

/** Where a tool call starts by its own times and its run's, before its delegates are looked at. */
function toolOwnStart(clock: Clock, model: Model, activity: ToolLike, times: SpanTimes): number | undefined {
	const run = model.runs.get(activity.runId);
	const step = activity.step === undefined || run === undefined ? undefined : stepRecordOf(run, activity.step);
	return times.of(activity.timestamp) ?? times.of(step?.startedAt) ?? (run ? clock.runStart(run, times) : undefined);
}

/**
 * Where a pane's agent span starts: the start of what it covers (clock.ts). A pane with no time at all that
 * OTLP can carry sits where the call that delegated it starts, else where its parent's span does (so it stays
 * inside them), else at its job's first time; a job whose log gave no time at all, where the export started
 * (`untimedAtMs`, marked on `times`).
 */
function agentStart(clock: Clock, model: Model, job: Job, pane: Pane, times: SpanTimes, untimedAtMs: number): number {
	const cover = clock.cover(pane);
	if (cover.replaced) times.replaced = true;
	if (cover.earliest !== undefined) return cover.earliest;
	const head = model.runs.get(pane.runIds[0] ?? '');
	if (head && head.parentRunId !== null && !head.closesCycle) {
		// The parent's times, marked on the parent's spans if need be.
		const theirs = new SpanTimes();
		const delegating = activityAt(model, head.delegatingActivityId);
		const parent = model.runs.get(head.parentRunId);
		const parentPane = parent ? model.panes.get(parent.paneId) : undefined;
		const at =
			(delegating && isToolLike(delegating) ? toolOwnStart(clock, model, delegating, theirs) : undefined) ??
			(parentPane ? clock.cover(parentPane).earliest : undefined);
		if (at !== undefined) return at;
	}

	const first = times.of(job.firstSeenAt);
	if (first !== undefined) return first;
	times.unknown = true;
	return untimedAtMs;
}

function paneActivities(model: Model, pane: Pane): Activity[] {
	return pane.activityIndices.map(index => model.activities[index]).filter(defined);
}

/**
 * Why a job failed, for the root span of the pane that holds its coordinator: backends list traces by their
 * root's status, so a job that ended while waiting for a failed delegate must not look fine there. Known only
 * once the input is over (query/tree.ts, `jobFailure`); worked out once per job per mapping.
 */
type JobFailures = (job: Job) => {coordinator: Run | undefined; failure: string | undefined};

function jobFailures(model: Model): JobFailures {
	const known = new Map<string, ReturnType<JobFailures>>();
	return job => {
		let found = known.get(job.jobId);
		if (found === undefined) {
			const totals = jobTotals(model, job);
			found = {coordinator: totals.coordinator, failure: totals.failure};
			known.set(job.jobId, found);
		}

		return found;
	};
}

function agentSpan(clock: Clock, model: Model, ids: SpanIds, job: Job, pane: Pane, runs: readonly Run[], options: MapOptions, failures: JobFailures): OtlpSpan {
	const head = runs[0]!;
	const last = runs.at(-1)!;
	const traceId = traceIdOf(job.jobId);
	const activities = paneActivities(model, pane);
	const times = new SpanTimes();
	const startMs = agentStart(clock, model, job, pane, times, options.untimedAtMs);
	// Its last run's end, or later: the end of what it covers. A pane whose every time was left out ends where it
	// starts; one whose log gave no time lasts what its runtime reported its runs took (Claude Code's, Amp's turns).
	const endMs = endingStatuses.has(last.status)
		? later(
				startMs,
				clock.cover(pane).latest ??
					clock.runEnd(last, times) ??
					(times.replaced ? startMs : undefined) ??
					(times.unknown ? startMs + reportedDuration(runs) : undefined),
			)
		: undefined;

	const attributes: Record<string, AttributeValue> = {
		[attr.operationName]: operation.invokeAgent,
		[attr.agentName]: head.expertKey,
		[attr.agentId]: pane.paneId,
		[attr.conversationId]: job.jobId,
		[attr.runIds]: runs.map(run => run.runId),
		[attr.runStatus]: last.status,
		[attr.dialect]: head.dialect,
		[attr.steps]: runs.reduce((sum, run) => sum + run.endedSteps.length, 0),
	};
	// The agent's own model, as its chat spans give it.
	const modelName = runs.find(run => run.model !== undefined)?.model ?? job.model;
	modelAttributes(attributes, modelName);
	// A cost only when every run's model is priced: never a guess (README, Cost).
	const cost = runsCost(model, runs, options.prices);
	if (cost !== undefined) attributes[attr.costUsd] = cost;
	usageAttributes(
		attributes,
		runs.reduce((sum, run) => addUsage(sum, run.usage), zeroUsage),
		modelName === undefined ? undefined : providerOf(modelName),
	);
	addMessages(attributes, options, attr.inputMessages, 'user', head.query);
	const completion = activities.findLast(activity => activity.type === 'complete');
	addMessages(attributes, options, attr.outputMessages, 'assistant', completion?.type === 'complete' ? completion.text : undefined);

	let status: OtlpSpan['status'] = {code: 'unset'};
	if (last.status === 'stoppedByError') {
		attributes[attr.errorType] = last.error?.name ?? 'stoppedByError';
		status = {code: 'error', message: truncate(last.error ? `${last.error.name}: ${last.error.message}` : 'stopped by error', statusMessageLimit).text};
	} else if (model.inputEnd !== undefined && (head.parentRunId === null || !model.runs.has(head.parentRunId))) {
		const {coordinator, failure} = failures(job);
		if (failure !== undefined && coordinator !== undefined && runs.includes(coordinator)) {
			attributes[attr.errorType] = 'job_failed';
			status = {code: 'error', message: truncate(`job ${failure}`, statusMessageLimit).text};
		}
	}

	const events: OtlpSpan['events'] = [];
	for (const activity of activities) {
		// In a log with no time at all, every event is at the span's start, as its steps and calls are.
		if (activity.timestamp === undefined && !times.unknown) continue;
		// An event at a time OTLP cannot carry is put at the span's start.
		const timeMs = times.of(activity.timestamp) ?? startMs;
		if (activity.type === 'retry')
			events.push({name: 'perscope.retry', timeMs, attributes: {'perscope.retry.reason': truncate(activity.reason, statusMessageLimit).text}});
		if (activity.type === 'error')
			events.push({
				name: 'exception',
				timeMs,
				attributes: {'exception.type': activity.errorName, 'exception.message': truncate(activity.message, statusMessageLimit).text},
			});
	}

	const links: OtlpSpan['links'] = [];
	for (const run of runs) {
		const from = run.resumedFrom ? model.runs.get(run.resumedFrom.runId) : undefined;
		if (from && from.paneId !== pane.paneId)
			links.push({traceId: traceIdOf(from.jobId), spanId: agentSpanId(from.jobId, from.paneId), attributes: {'perscope.link.type': 'resumed_from'}});
	}

	markTimes(attributes, times);
	return {
		traceId,
		spanId: agentSpanId(job.jobId, pane.paneId),
		parentSpanId: parentOfPane(model, ids, job.jobId, head),
		name: `${operation.invokeAgent} ${head.expertKey}`,
		kind: 'internal',
		startMs,
		endMs,
		attributes,
		status,
		links,
		events,
	};
}

/**
 * A step the runtime reported as using no tokens at all called no model: the step in which a coordinator takes
 * its delegates' answers in, or a resumed interactive call (Perstack writes a usage of zeros for both). It is
 * not a `chat` span. A step whose usage is not known yet (or never came: a run killed mid-generation) is.
 */
function noGeneration(step: StepRecord): boolean {
	const usage = step.usage;
	return usage !== undefined && usage.inputTokens === 0 && usage.outputTokens === 0 && usage.cachedInputTokens === 0 && usage.reasoningTokens === 0;
}

/** What the pane's runtime reported its runs took, added up (`Run.reportedDurationMs`; 0 when it said nothing). */
function reportedDuration(runs: readonly Run[]): number {
	let ms = 0;
	for (const run of runs) ms += run.reportedDurationMs ?? 0;
	return ms;
}

/** The marks of a span whose times were not all the log's own (README, "OpenTelemetry export"). */
function markTimes(attributes: Record<string, AttributeValue>, times: SpanTimes): void {
	if (times.replaced) attributes[attr.timeReplaced] = true;
	if (times.unknown) attributes[attr.timeUnknown] = true;
}

/**
 * Where the pane's agent span starts, and whether the log gave the pane no time at all: worked out only for a
 * step or tool call that needs it (see `fromPane`).
 */
type PaneStart = () => {ms: number; untimed: boolean};

/**
 * A step or a tool call with no time of its own or its run's is put where its agent span starts, rather than left
 * out of the trace: one whose every time is outside OTLP's range, and every one of a pane whose log gave no time
 * (marked unknown as that span is). Undefined for others: a step of a timed run that has not started yet.
 */
function fromPane(times: SpanTimes, paneStart: PaneStart): number | undefined {
	if (times.replaced) return paneStart().ms;
	const pane = paneStart();
	if (!pane.untimed) return undefined;
	times.unknown = true;
	return pane.ms;
}

function chatSpans(clock: Clock, ids: SpanIds, job: Job, paneIds: PaneIds, run: Run, skip: (spanId: string) => boolean, paneStart: PaneStart): OtlpSpan[] {
	const spans: OtlpSpan[] = [];
	for (const step of run.steps) {
		if (noGeneration(step)) continue;
		const spanId = ids.chat(job.jobId, run.runId, step);
		if (skip(spanId)) continue;
		const times = new SpanTimes();
		const startMs =
			times.of(step.startedAt) ?? times.of(step.finishedAt) ?? clock.runStart(run, times) ?? times.of(run.lastEventAt) ?? fromPane(times, paneStart);
		if (startMs === undefined) continue;
		// A step that finished at a time OTLP cannot carry still finished: where it started. So did one of a log with no
		// time that the run ended.
		const endMs =
			step.finishedAt === undefined
				? times.unknown && hasEndedStep(run, step.step)
					? startMs
					: undefined
				: later(startMs, times.of(step.finishedAt) ?? startMs);
		const attributes: Record<string, AttributeValue> = {[attr.operationName]: operation.chat, [attr.conversationId]: job.jobId, [attr.step]: step.step};
		// The run's own model: a sub-agent may use another than its job's (Claude Code's Explore, Haiku).
		const modelName = run.model ?? job.model;
		modelAttributes(attributes, modelName);
		if (step.usage) usageAttributes(attributes, step.usage, modelName === undefined ? undefined : providerOf(modelName));
		markTimes(attributes, times);
		spans.push({
			traceId: paneIds.traceId,
			spanId,
			parentSpanId: paneIds.agentSpanId,
			// `chat {model}`, or the operation alone where the log names no model (OpenTelemetry's GenAI span names).
			name: modelName === undefined ? operation.chat : `${operation.chat} ${modelName}`,
			kind: 'client',
			startMs,
			endMs,
			attributes,
			status: {code: 'unset'},
			links: [],
			events: [],
		});
	}

	return spans;
}

/** The trace of a pane's job and the pane's agent span: each chat and tool span of the pane names both. */
type PaneIds = {readonly traceId: string; readonly agentSpanId: string};

function toolSpan(
	clock: Clock,
	model: Model,
	job: Job,
	paneIds: PaneIds,
	activity: ToolLike,
	spanId: string,
	options: MapOptions,
	paneStart: PaneStart,
): OtlpSpan | undefined {
	const times = new SpanTimes();
	const ownStart = toolOwnStart(clock, model, activity, times) ?? fromPane(times, paneStart);
	if (ownStart === undefined) return undefined;
	// A delegation holds its delegates' spans, from the first one's start.
	const delegatesStart = activity.type === 'delegate' ? clock.coverOfRuns(activity.childRunIds).earliest : undefined;
	const startMs = delegatesStart === undefined ? ownStart : Math.min(ownStart, delegatesStart);
	// A call with its result in is over: one whose every time was left out (outside OTLP's range) ends where it started.
	const endMs = later(startMs, toolEnd(clock, model, activity, times) ?? (activity.result && (times.replaced || times.unknown) ? startMs : undefined));
	const toolName = activity.type === 'delegate' ? activity.delegateExpertKey : activity.toolName;
	const attributes: Record<string, AttributeValue> = {
		[attr.operationName]: operation.executeTool,
		[attr.toolType]: 'function',
		[attr.conversationId]: job.jobId,
	};
	// A result whose call is not in the log names no tool (Claude Code's and Gemini CLI's results): no name is given.
	if (toolName !== '') attributes[attr.toolName] = toolName;
	if (activity.toolCallId !== '') attributes[attr.toolCallId] = activity.toolCallId;
	if (activity.step !== undefined) attributes[attr.step] = activity.step;
	if (activity.type === 'delegate') attributes[attr.delegateExpert] = activity.delegateExpertKey;
	else attributes[attr.skillName] = activity.skillName;
	addContent(attributes, options, attr.toolCallArguments, activity.type === 'delegate' ? activity.query : argumentsText(activity.args));
	addContent(attributes, options, attr.toolCallResult, activity.result?.text);

	let status: OtlpSpan['status'] = {code: 'unset'};
	const outcome = outcomeOf(model, activity);
	if (activity.type === 'delegate' && outcome?.error !== undefined) {
		// A delegate's failure is its run's error, which its agent span carries as its status message too.
		attributes[attr.errorType] = 'delegate_failed';
		status = {code: 'error', message: truncate(`${activity.delegateExpertKey}: ${outcome.error}`, statusMessageLimit).text};
	} else if (activity.result?.error !== undefined) {
		attributes[attr.errorType] = 'tool_error';
		// The error text is the tool's output, which may quote what it read: it is content.
		status = options.content ? {code: 'error', message: truncate(activity.result.error, statusMessageLimit).text} : {code: 'error'};
	}

	markTimes(attributes, times);
	return {
		traceId: paneIds.traceId,
		spanId,
		parentSpanId: paneIds.agentSpanId,
		name: toolName === '' ? operation.executeTool : `${operation.executeTool} ${toolName}`,
		kind: 'internal',
		startMs,
		endMs,
		attributes,
		status,
		links: [],
		events: [],
	};
}

/**
 * Every span of the model, open or ended (an open one has no `endMs`). `skip` names spans already sent, which
 * need not be built again; `ids`, the span ids its owner (a live export's `SpanTracker`) has worked out before.
 */
export function mapModel(model: Model, options: MapOptions, skip: (spanId: string) => boolean = () => false, ids = new SpanIds()): OtlpSpan[] {
	const spans: OtlpSpan[] = [];
	const clock = new Clock(model);
	const failures = jobFailures(model);
	for (const pane of model.panes.values()) {
		const job = model.jobs.get(pane.jobId);
		const runs = pane.runIds.map(id => model.runs.get(id)).filter(defined);
		if (!job || runs.length === 0) continue;
		// Every span of the pane has these; hashed once rather than for each (a run of 150,000 steps hashed them 300,000 times).
		const paneIds: PaneIds = {traceId: traceIdOf(job.jobId), agentSpanId: agentSpanId(job.jobId, pane.paneId)};
		if (!skip(paneIds.agentSpanId)) spans.push(agentSpan(clock, model, ids, job, pane, runs, options, failures));
		let paneStartOf: ReturnType<PaneStart> | undefined;
		const paneStart = () => {
			if (paneStartOf) return paneStartOf;
			const times = new SpanTimes();
			const ms = agentStart(clock, model, job, pane, times, options.untimedAtMs);
			return (paneStartOf = {ms, untimed: times.unknown});
		};
		for (const run of runs) for (const span of chatSpans(clock, ids, job, paneIds, run, skip, paneStart)) spans.push(span);
		for (const index of pane.activityIndices) {
			const activity = model.activities[index];
			if (!activity || !isToolLike(activity)) continue;
			const spanId = ids.tool(job.jobId, activity);
			if (skip(spanId)) continue;
			const span = toolSpan(clock, model, job, paneIds, activity, spanId, options, paneStart);
			if (span) spans.push(span);
		}
	}

	return spans;
}
