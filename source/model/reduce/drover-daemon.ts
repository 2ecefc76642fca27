/*
 * The runs of drover and the strategy daemon, which have no checkpoints: a child run's start, the daemon's steps
 * (each a child run under the daemon's root run), and a run's end. The run an event belongs to is found here
 * too, since an event of a daemon agent never seen to start begins a step of its own.
 */
import {closingComplete, closingError, type DelegateActivity, type Model, type Run, type StepStream} from '../state.js';
import {type AgentEvent} from '../events.js';
import {addEndedStep} from '../run-collections.js';
import {livePane, liveRun} from '../storage/run-store.js';
import {activityById, addActivity, addQuery, keptDelegateResult, settleRun, updateActivity, type EventOf} from './activities.js';
import {linkParent, newRun, setStatus, touch} from './runs.js';

/** The run an event belongs to, made up on the spot when its start was never seen (a log cut at the front). */
export function targetRun(model: Model, event: AgentEvent): Run | undefined {
	let runId = event.runId;
	if (event.agent !== undefined) {
		const agentRun = model.daemonAgents.get(`${event.runId}\u0000${event.agent}`);
		if (agentRun === undefined) {
			// An agent we never saw start: give it a run of its own under the daemon run.
			return startDaemonStep(model, event, event.agent, undefined);
		}

		runId = agentRun;
	}

	if (runId === '') return undefined;
	const existing = liveRun(model, runId);
	if (existing) return existing;
	const jobId = event.jobId === '' ? runId : event.jobId;
	return newRun(model, runId, jobId, event.expertKey ?? runId, event);
}

export function onChildRunStart(model: Model, event: EventOf<'childRunStart'>): void {
	if (event.dialect === 'daemon') {
		startDaemonStep(model, event, event.childExpertKey, event.query);
		return;
	}

	if (event.childRunId === event.runId) {
		// drover run_start: the run itself begins (a root, or a subagent whose events were merged in).
		const existing = liveRun(model, event.runId);
		const run = existing ?? newRun(model, event.runId, event.jobId === '' ? event.runId : event.jobId, event.childExpertKey, event);
		run.started = true;
		run.expertKey = event.childExpertKey;
		touch(run, event);
		setStatus(model, run, 'proceeding', undefined);
		if (event.query !== undefined) addQuery(model, run, event, event.query);
		return;
	}

	const parent = targetRun(model, event);
	if (!parent) return;
	touch(parent, event);
	const existingChild = liveRun(model, event.childRunId);
	const child = existingChild ?? newRun(model, event.childRunId, parent.jobId, event.childExpertKey, event);
	child.expertKey = event.childExpertKey;
	if (child.status === 'init') setStatus(model, child, 'proceeding', undefined);
	if (!existingChild && event.query !== undefined) addQuery(model, child, event, event.query);
	if (event.viaToolCallId !== undefined) {
		// The call that delegated it is named: linked now, or once the call shows up.
		linkParent(model, child, parent.runId, parent.expertKey, event.viaToolCallId);
		return;
	}

	// The delegating activity is the latest task call of the parent that has no child yet.
	const task = latestOpenDelegate(model, parent);
	if (task) {
		if (task.delegateExpertKey === '') updateActivity(model, task, {delegateExpertKey: event.childExpertKey, settled: true});

		linkParent(model, child, parent.runId, parent.expertKey, task.toolCallId);
	} else {
		linkParent(model, child, parent.runId, parent.expertKey, undefined);
	}
}

function latestOpenDelegate(model: Model, run: Run): DelegateActivity | undefined {
	const pane = livePane(model, run.paneId);
	if (!pane) return undefined;
	for (let i = pane.activityIndices.length - 1; i >= 0; i--) {
		const activity = model.activities[pane.activityIndices[i]!];
		if (activity?.type === 'delegate' && activity.childRunIds.length === 0) return activity;
	}

	return undefined;
}

function startDaemonStep(model: Model, event: AgentEvent, stepName: string, query: string | undefined): Run {
	let root = liveRun(model, event.runId);
	if (!root) {
		root = newRun(model, event.runId, event.runId, 'strategy', event);
		root.started = true;
	}

	touch(root, event);
	setStatus(model, root, 'proceeding', undefined);
	const key = `${event.runId}\u0000${stepName}`;
	const count = (model.daemonStepCounts.get(key) ?? 0) + 1;
	model.daemonStepCounts.set(key, count);
	const childId = `${event.runId}/${stepName}#${count}`;
	addActivity(
		model,
		root,
		event,
		{type: 'delegate', toolCallId: childId, delegateExpertKey: stepName, query: query ?? '', message: undefined, childRunIds: [], result: undefined},
		true,
		childId,
	);
	const child = newRun(model, childId, root.jobId, stepName, event);
	child.started = true;
	child.currentStep = 1;
	addEndedStep(child, 1);
	setStatus(model, child, 'proceeding', undefined);
	linkParent(model, child, root.runId, root.expertKey, childId);
	model.daemonAgents.set(key, childId);
	if (!model.figuresOnly) child.query = query;
	addActivity(model, child, event, {type: 'query', text: query ?? ''}, true);
	return child;
}

export function onRunEnd(model: Model, run: Run, event: EventOf<'runEnd'>): void {
	setStatus(model, run, event.status, Number.POSITIVE_INFINITY);
	run.endedAt = event.timestamp ?? run.endedAt;
	if (event.durationMs !== undefined) run.reportedDurationMs = event.durationMs;
	if (event.usage) run.usage = event.usage;
	settleRun(model, run);
	if (event.status === 'completed') {
		if ((run.closing & closingComplete) === 0) {
			const text = event.text ?? latestResultText(run);
			addActivity(model, run, event, {type: 'complete', text}, true);
		}
	} else if ((run.closing & closingError) === 0) {
		const message = event.message ?? event.status;
		const name = event.errorName ?? 'run_end';
		run.error = run.error ?? {name, message};
		addActivity(model, run, event, {type: 'error', errorName: name, message}, true);
	}

	if (event.dialect === 'daemon' && run.parentRunId !== null) {
		const root = liveRun(model, run.parentRunId);
		if (root) {
			const delegate = run.delegatingActivityId === null ? undefined : activityById(model, run.delegatingActivityId);
			if (delegate?.type === 'delegate' && !delegate.result)
				updateActivity(model, delegate, {result: keptDelegateResult(model, {text: event.text ?? '', error: undefined, ref: event.ref})});
			const open = root.childRunIds.some(id => model.runs.get(id)?.status === 'proceeding');
			if (!open) setStatus(model, root, 'completed', undefined);
			root.rev++;
		}
	}
}

function latestResultText(run: Run): string {
	let latest: StepStream | undefined;
	for (const stream of run.streams.values()) if (!stream.result.isEmpty && (!latest || stream.step >= latest.step)) latest = stream;
	return latest?.result.text ?? '';
}
