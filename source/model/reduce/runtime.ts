/*
 * What the runtime says around the runs: its start (the expert, model and query of a run to come), the skills'
 * MCP servers and their stderr, containers, the proxy, and event types nobody knows.
 */
import {
	maxSkillStderrLineLength,
	maxSkillStderrLines,
	maxSkillTransitions,
	maxUnknownTypeLength,
	maxUnknownTypes,
	otherUnknownTypes,
	type Model,
	type RuntimeInfo,
} from '../state.js';
import {shortened} from '../text-accumulator.js';
import {liveRun} from '../storage/run-store.js';
import {ensureJob, type EventOf} from './activities.js';

/** Unknown types are counted by name, with names and their number bounded: a log can make up a new one per line. */
export function countUnknown(model: Model, wireType: string): void {
	let key = shortened(wireType, maxUnknownTypeLength);
	if (!model.unknownEvents.has(key) && model.unknownEvents.size >= maxUnknownTypes) key = otherUnknownTypes;
	model.unknownEvents.set(key, (model.unknownEvents.get(key) ?? 0) + 1);
}

export function onRuntimeInit(model: Model, event: EventOf<'runtimeInit'>): void {
	model.runtime.set(event.runId, runtimeInfo(model, event));
	// It comes before its run's startRun: a run id in use already may be about to start another segment.
	const targetId = model.runSegments.runtimeTarget(model, event.runId, event.expertName);
	const run = targetId === undefined ? undefined : liveRun(model, targetId);
	if (run && event.model !== undefined && run.model !== event.model) {
		run.model = event.model;
		run.rev++;
	}

	if (event.jobId === '') return;
	const job = ensureJob(model, event.jobId, event.timestamp);
	job.model = event.model ?? job.model;
	job.maxSteps = event.maxSteps ?? job.maxSteps;
	job.runtimeVersion = event.runtimeVersion ?? job.runtimeVersion;
	job.runtimeName = event.runtime ?? job.runtimeName;
}

export function onSkill(model: Model, event: EventOf<'skill'>): void {
	const previous = model.skills.get(event.skillName);
	const connectMs = event.detail.totalDurationMs ?? event.detail.connectDurationMs;
	const transitions = previous?.transitions ?? [];
	transitions.push({state: event.state, at: event.timestamp, connectMs: event.state === 'connected' ? connectMs : undefined});
	if (transitions.length > maxSkillTransitions) transitions.splice(0, transitions.length - maxSkillTransitions);
	model.skills.set(event.skillName, {
		skillName: event.skillName,
		state: event.state,
		command: event.detail.command ?? previous?.command,
		args: event.detail.args ?? previous?.args,
		serverName: event.detail.serverName ?? previous?.serverName,
		serverVersion: event.detail.serverVersion ?? previous?.serverVersion,
		connectMs: connectMs ?? previous?.connectMs,
		stderr: previous?.stderr ?? [],
		stderrCount: previous?.stderrCount ?? 0,
		updatedAt: event.timestamp,
		transitions,
		transitionCount: (previous?.transitionCount ?? 0) + 1,
	});
}

export function onSkillStderr(model: Model, event: EventOf<'skillStderr'>): void {
	let skill = model.skills.get(event.skillName);
	if (!skill) {
		skill = {
			skillName: event.skillName,
			state: 'starting',
			command: undefined,
			args: undefined,
			serverName: undefined,
			serverVersion: undefined,
			connectMs: undefined,
			stderr: [],
			stderrCount: 0,
			updatedAt: event.timestamp,
			transitions: [],
			transitionCount: 0,
		};
		model.skills.set(event.skillName, skill);
	}

	skill.stderrCount++;
	skill.stderr.push(shortened(event.message, maxSkillStderrLineLength));
	if (skill.stderr.length > maxSkillStderrLines) skill.stderr.splice(0, skill.stderr.length - maxSkillStderrLines);
}

export function onDocker(model: Model, event: EventOf<'docker'>): void {
	model.docker.set(event.service, {
		service: event.service,
		stage: event.stage ?? model.docker.get(event.service)?.stage,
		status: event.status ?? model.docker.get(event.service)?.status,
		message: event.message,
		progress: event.progress,
		updatedAt: event.timestamp,
	});
}

export function onProxy(model: Model, event: EventOf<'proxy'>): void {
	if (event.action === 'blocked') model.proxy.blocked++;
	else model.proxy.allowed++;
	model.proxy.last = {action: event.action, domain: event.domain, port: event.port, reason: event.reason};
}

/** Adds a runtime's own report of what some of a job's work cost to the job (`Job.reportedCost`). */
export function onReportedCost(model: Model, event: EventOf<'reportedCost'>): void {
	const jobId = event.jobId === '' ? liveRun(model, event.runId)?.jobId : event.jobId;
	if (jobId === undefined || !Number.isFinite(event.usd)) return;
	const job = ensureJob(model, jobId, event.timestamp);
	const previous = job.reportedCost;
	const byRun = new Map(previous?.byRun);
	const [only, ...others] = event.runIds;
	if (only !== undefined && others.length === 0) byRun.set(only, (byRun.get(only) ?? 0) + event.usd);
	job.reportedCost = {usd: (previous?.usd ?? 0) + event.usd, runIds: new Set([...(previous?.runIds ?? []), ...event.runIds]), byRun};
}

/**
 * What a run's `initializeRuntime` said, as the model keeps it until the run ends. A model that keeps figures only
 * keeps less of it (`Model.figuresOnly`): a run's query only becomes a `query` activity, let go as it is made, so a
 * query there is a stand-in of the same emptiness; `expertName` is read from the event alone. And the model name
 * is the string the run's job already holds when it is the same, not the copy the parsed line brought: a log of
 * 100,000 runs kept ~170 bytes a run here (docs/performance.md).
 */
function runtimeInfo(model: Model, event: EventOf<'runtimeInit'>): RuntimeInfo {
	if (!model.figuresOnly) return {expertName: event.expertName, model: event.model, query: event.query, answer: event.answer};
	const jobModel = event.jobId === '' ? undefined : model.jobs.get(event.jobId)?.model;
	return {
		expertName: undefined,
		model: jobModel !== undefined && jobModel === event.model ? jobModel : event.model,
		query: event.query === undefined || event.query === '' ? event.query : queryStandIn,
		answer: event.answer,
	};
}

/** What a figures-only model keeps for a query that is not empty: nothing reads its text (see `runtimeInfo`). */
const queryStandIn = '…';
