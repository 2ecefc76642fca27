import type {RunStatus} from '../../../model/events.js';
import {toNumber} from '../common.js';
import {isRecord} from '../wire-reader.js';
import {inputString, runsInBackground} from './content.js';
import type {ClaudeLineOf} from './schema.js';
import type {Task} from './state.js';
import type {ClaudeStream} from './stream.js';

/*
 * The sub-agents of a Claude Code stream (reader.ts): an Agent (formerly Task) call is a delegation, and the lines
 * whose `parent_tool_use_id` is that call's id are its sub-agent's run (its id is the call's), under the run that
 * made the call, to any depth. A sub-agent's task (`system/task_started`) may be announced before or after its
 * call; one in the background ends with its task's `task_notification`, one in the foreground with its call's
 * result (user.ts).
 */

/** The run a line belongs to: its sub-agent's when it names one, else the main loop's. */
export function runOf(stream: ClaudeStream, line: {parent_tool_use_id?: string | null | undefined}, subagentType?: string): string {
	const parent = line.parent_tool_use_id;
	return parent === undefined || parent === null || parent === '' ? stream.mainRun() : child(stream, parent, subagentType);
}

/**
 * The run of the sub-agent the call `toolUseId` started, started now if it was not: under the run that made the
 * call (or its task's parent), else under the main loop.
 */
export function child(stream: ClaudeStream, toolUseId: string, subagentType?: string): string {
	if (stream.children.has(toolUseId)) return toolUseId;
	const call = stream.calls.get(toolUseId);
	const task = taskOfCall(stream, toolUseId);
	const parentTask = task?.parentTaskId === undefined ? undefined : stream.tasks.get(task.parentTaskId);
	const parentRunId = call?.runId ?? (parentTask && stream.children.has(parentTask.toolUseId) ? parentTask.toolUseId : stream.mainRun());
	const expert = inputString(call?.input, 'subagent_type') ?? task?.subagentType ?? subagentType ?? 'agent';
	const query = inputString(call?.input, 'prompt') ?? task?.prompt;
	stream.children.set(toolUseId, {parentRunId, ended: false, background: (task?.background ?? false) || runsInBackground(call?.input)});
	const state = stream.newRun(toolUseId);
	state.query = query;
	stream.jobs.set(toolUseId, stream.jobOfRun(parentRunId));
	stream.emit(parentRunId, {
		kind: 'childRunStart',
		childRunId: toolUseId,
		childExpertKey: expert,
		query,
		viaToolName: call?.name ?? 'Agent',
		viaToolCallId: toolUseId,
	});
	return toolUseId;
}

export function taskOfCall(stream: ClaudeStream, toolUseId: string): Task | undefined {
	if (stream.taskByCall !== undefined) return stream.taskByCall.get(toolUseId);
	for (const task of stream.tasks.values()) if (task.toolUseId === toolUseId) return task;
	return undefined;
}

/**
 * Ends the sub-agent's run, at `timestamp` when given (else the line's time); `durationMs` is how long it ran by the
 * CLI's count (its call's result says), the least it lasted, as a turn's result's `duration_ms` is (result.ts).
 */
export function endChild(
	stream: ClaudeStream,
	runId: string,
	status: RunStatus,
	text: string | undefined,
	message: string | undefined,
	timestamp?: number,
	durationMs?: number,
): void {
	const child = stream.children.get(runId);
	if (!child || child.ended) return;
	child.ended = true;
	stream.emit(runId, {kind: 'runEnd', status, text, message, usage: undefined, durationMs}, undefined, undefined, timestamp);
}

/** `system/task_started`: a task (a sub-agent's, or a background command's) begins. */
export function taskStarted(stream: ClaudeStream, line: ClaudeLineOf<'system'>): void {
	const {task_id: taskId, tool_use_id: toolUseId} = line;
	if (taskId === undefined || toolUseId === undefined) {
		stream.marker();
		return;
	}

	const call = stream.calls.get(toolUseId);
	const agent = line.task_type === 'local_agent' || line.subagent_type !== undefined || call?.delegate === true;
	const task: Task = {
		toolUseId,
		agent,
		subagentType: line.subagent_type,
		prompt: line.prompt,
		parentTaskId: line.parent_task_id ?? undefined,
		background: line.is_backgrounded === true,
	};
	const before = stream.tasks.get(taskId);
	stream.tasks.set(taskId, task);
	if (before !== undefined && before.toolUseId !== toolUseId) stream.taskByCall = undefined;
	// The same task again, in the place of the one it replaces: the first of its call if that one was.
	else if (before !== undefined && stream.taskByCall?.get(toolUseId) === before) stream.taskByCall.set(toolUseId, task);
	else if (stream.taskByCall?.has(toolUseId) === false) stream.taskByCall.set(toolUseId, task);
	const parentKnown = task.parentTaskId !== undefined && stream.tasks.has(task.parentTaskId);
	// A sub-agent starts once the run that called it is known: its call (seen already, or with its line
	// to come), or its parent task. Until then it waits, so that it does not hang under the wrong run.
	if (agent && !stream.children.has(toolUseId) && (call !== undefined || parentKnown)) child(stream, toolUseId);
	else stream.marker();
	const started = stream.children.get(toolUseId);
	if (started && task.background) started.background = true;
}

/** `system/task_updated`: a task's state changed; when it says the task's end time, that is kept for its notification. */
export function taskUpdated(stream: ClaudeStream, line: ClaudeLineOf<'system'>): void {
	const task = line.task_id === undefined ? undefined : stream.tasks.get(line.task_id);
	const endedAt = isRecord(line.patch) ? toNumber(line.patch['end_time']) : undefined;
	if (task && endedAt !== undefined) task.endedAt = endedAt;
	stream.marker();
}

/**
 * A sub-agent's run dated by its task: 2.1's assistant lines carry no time, so a sub-agent's first timed line may be
 * a tool's result well into it, and one with a single timed line would seem to take no time at all. Its task says
 * when it ended (`task_updated`) and how long it ran (the notification's `usage.duration_ms`), by the CLI's own
 * clock: the run starts no later than that end less that time (as a turn is dated by its result, result.ts).
 * Whether it dated the run.
 */
function dateFromTask(stream: ClaudeStream, runId: string, task: Task | undefined, line: ClaudeLineOf<'system'>): boolean {
	const durationMs = isRecord(line.usage) ? toNumber(line.usage['duration_ms']) : undefined;
	if (task?.endedAt === undefined || durationMs === undefined || durationMs < 0) return false;
	stream.emit(runId, {kind: 'marker'}, undefined, undefined, task.endedAt - durationMs);
	return true;
}

/** `system/task_notification`: a task ended; a sub-agent in the background with its answer. */
export function taskNotification(stream: ClaudeStream, line: ClaudeLineOf<'system'>): void {
	const toolUseId = line.tool_use_id ?? (line.task_id === undefined ? undefined : stream.tasks.get(line.task_id)?.toolUseId);
	const call = toolUseId === undefined ? undefined : stream.calls.get(toolUseId);
	const task = line.task_id === undefined ? undefined : stream.tasks.get(line.task_id);
	if (toolUseId === undefined || (!call?.delegate && !task?.agent && !stream.children.has(toolUseId))) {
		// A background command: its call had its result (that it started); a failure is its result now.
		if (toolUseId !== undefined && call && failedTask(line.status)) {
			const text = line.summary ?? line.status ?? '';
			stream.emit(call.runId, {
				kind: 'toolResults',
				results: [{id: toolUseId, skillName: '', toolName: call.name, text, error: `background task ${line.status ?? 'failed'}: ${text}`}],
			});
		} else stream.marker();
		return;
	}

	const runId = child(stream, toolUseId);
	const agent = stream.children.get(runId)!;
	const dated = dateFromTask(stream, runId, task, line);
	// A sub-agent in the foreground ends with its call's result, which says its answer; this says only that.
	if (agent.ended || !agent.background) {
		if (!dated) stream.marker();
		return;
	}

	const failed = failedTask(line.status);
	const answer = stream.state(runId).lastText ?? line.summary ?? '';
	const error = failed ? `${line.status ?? 'failed'}${line.summary === undefined ? '' : `: ${line.summary}`}` : undefined;
	stream.emit(agent.parentRunId, {kind: 'toolResults', results: [{id: toolUseId, skillName: '', toolName: call?.name ?? 'Agent', text: answer, error}]});
	endChild(stream, runId, failed ? 'stoppedByError' : 'completed', answer, error, task?.endedAt);
}

/** Whether a task's status says it failed; no status (absent, or null as `system/status` may have it) says nothing. */
function failedTask(status: string | null | undefined): boolean {
	return status !== undefined && status !== null && status !== 'completed';
}
