/*
 * A log in which every string an event carries tries to take over the terminal. Each payload is tagged
 * with the field it sits in, so a leak says where it came from, and `--json` can be checked to give the
 * original strings back exactly.
 */

/** One of everything a terminal acts on. */
export const attack =
	'\u001B[31mRED\u001B[0m' + // CSI colour
	'\u001B[2J\u001B[H\u001B[10;10H\u001B[A' + // clear screen, cursor home, cursor moves
	'\u001B]0;pwned-title\u0007' + // OSC 0: window title
	'\u001B]52;c;cGF5bG9hZA==\u0007' + // OSC 52: write the clipboard
	'\u001B]8;;https://evil.example/\u001B\\click\u001B]8;;\u001B\\' + // OSC 8: hyperlink
	'\u001BP+q544e\u001B\\' + // DCS
	'\u009B31m\u009D0;c1-title\u009C' + // C1 CSI and OSC
	'\u0007\b\b\b\r\u007F\u0000' + // BEL, backspace, CR, DEL, NUL
	'\u202Egnp.exe\u202C\u2066iso\u2069\u200F'; // bidi override, isolate, mark

export function hostile(field: string): string {
	return `<${field}>${attack}</${field}>`;
}

const jobId = hostile('jobId');
const coordinator = {runId: hostile('runId'), expertKey: hostile('expertKey')};
const child = {runId: hostile('childRunId'), expertKey: hostile('childExpertKey')};
const live = {runId: hostile('liveRunId'), expertKey: hostile('liveExpertKey')};

let sequence = 0;

function perstack(type: string, fields: Record<string, unknown>, run = coordinator, step = 1): string {
	sequence++;
	return JSON.stringify({
		type,
		id: `event-${sequence}`,
		timestamp: 1_795_000_000_000 + sequence,
		jobId,
		runId: run.runId,
		expertKey: run.expertKey,
		stepNumber: step,
		...fields,
	});
}

function text(field: string) {
	return {type: 'textPart', text: hostile(field)};
}

function checkpoint(run: {runId: string; expertKey: string}, status: string, step: number, extra: Record<string, unknown> = {}) {
	return {id: `cp-${run.runId}-${step}`, runId: run.runId, status, stepNumber: step, expert: {key: run.expertKey}, ...extra};
}

/** The hostile log as NDJSON lines. */
export function hostileLines(): string[] {
	sequence = 0;
	const delegateCall = {id: 'call-delegate', skillName: hostile('delegateSkill'), toolName: child.expertKey, args: {query: hostile('delegateQuery')}};
	return [
		perstack('initializeRuntime', {
			runtimeVersion: hostile('runtimeVersion'),
			expertName: hostile('expertName'),
			model: hostile('model'),
			query: hostile('runtimeQuery'),
			maxSteps: 10,
		}),
		perstack('skillStarting', {skillName: hostile('skillName'), command: hostile('skillCommand'), args: [hostile('skillArg')]}),
		perstack('skillStderr', {skillName: hostile('skillName'), message: hostile('skillStderr')}),
		perstack('skillConnected', {
			skillName: hostile('skillName'),
			serverInfo: {name: hostile('serverName'), version: hostile('serverVersion')},
			totalDurationMs: 12,
		}),
		perstack('dockerBuildProgress', {service: hostile('dockerService'), stage: hostile('dockerStage'), message: hostile('dockerMessage'), progress: 50}),
		perstack('dockerContainerStatus', {service: hostile('dockerService2'), status: hostile('dockerStatus'), message: hostile('dockerMessage2')}),
		perstack('proxyAccess', {action: 'blocked', domain: hostile('proxyDomain'), port: 443, reason: hostile('proxyReason')}),
		perstack('startRun', {initialCheckpoint: checkpoint(coordinator, 'init', 1), inputMessages: [{type: 'userMessage', contents: [text('query')]}]}),
		perstack('startStreamingReasoning', {}),
		perstack('streamReasoning', {delta: hostile('reasoningDelta')}),
		perstack('completeStreamingReasoning', {text: hostile('reasoning')}),
		perstack('callTools', {
			newMessage: {contents: [text('message'), {type: 'thinkingPart', thinking: hostile('thinking')}]},
			toolCalls: [
				{id: 'call-exec', skillName: '@perstack/base', toolName: 'exec', args: {command: hostile('command'), args: [hostile('commandArg'), 'plain']}},
				{id: 'call-read', skillName: '@perstack/base', toolName: 'readTextFile', args: {path: hostile('path')}},
				{id: 'call-move', skillName: '@perstack/base', toolName: 'moveFile', args: {source: hostile('moveSource'), destination: hostile('moveDestination')}},
				{id: 'call-todo', skillName: '@perstack/base', toolName: 'todo', args: {newTodos: [hostile('todo')], completedTodos: [hostile('doneTodo')]}},
				{id: 'call-mcp', skillName: hostile('mcpSkill'), toolName: hostile('mcpTool'), args: {[hostile('argKey')]: hostile('argValue'), n: 1}},
				{id: 'call-one', skillName: 'mcp', toolName: 'search', args: {q: hostile('onlyArg')}},
			],
		}),
		perstack('resolveToolResults', {
			toolResults: [
				{id: 'call-exec', skillName: '@perstack/base', toolName: 'exec', result: [text('execResult')]},
				{
					id: 'call-read',
					skillName: '@perstack/base',
					toolName: 'readTextFile',
					result: [{type: 'textPart', text: JSON.stringify({error: hostile('errorName'), message: hostile('toolError')})}],
				},
				{id: 'call-move', skillName: '@perstack/base', toolName: 'moveFile', result: hostile('bareResult')},
				{id: 'call-todo', skillName: '@perstack/base', toolName: 'todo', result: [text('todoResult')]},
				{id: 'call-mcp', skillName: hostile('mcpSkill'), toolName: hostile('mcpTool'), result: [text('mcpResult')]},
				{id: 'call-one', skillName: 'mcp', toolName: 'search', result: [{type: 'textPart', text: JSON.stringify({nested: {deeper: hostile('jsonResult')}})}]},
			],
		}),
		perstack('retry', {reason: hostile('retryReason')}),
		perstack('continueToNextStep', {checkpoint: checkpoint(coordinator, 'proceeding', 1), step: {usage: {inputTokens: 10, outputTokens: 5}}}),
		perstack('callTools', {toolCalls: [delegateCall], newMessage: {contents: [text('delegateMessage')]}}, coordinator, 2),
		perstack('callDelegate', {toolCalls: [delegateCall]}, coordinator, 2),
		perstack(
			'stopRunByDelegate',
			{
				checkpoint: checkpoint(coordinator, 'stoppedByDelegate', 2, {
					delegateTo: [{toolCallId: 'call-delegate', expert: {key: child.expertKey}, query: hostile('delegateToQuery')}],
				}),
			},
			coordinator,
			2,
		),
		perstack(
			'startRun',
			{
				initialCheckpoint: checkpoint(child, 'init', 3, {
					delegatedBy: {runId: coordinator.runId, expert: {key: coordinator.expertKey}, toolCallId: 'call-delegate'},
				}),
				inputMessages: [{type: 'userMessage', contents: [text('childQuery')]}],
			},
			child,
			3,
		),
		perstack(
			'callInteractiveTool',
			{toolCall: {id: 'call-ask', skillName: hostile('askSkill'), toolName: hostile('askTool'), args: {question: hostile('question')}}},
			child,
			3,
		),
		perstack(
			'stopRunByError',
			{checkpoint: checkpoint(child, 'stoppedByError', 3), error: {name: hostile('errorName'), message: hostile('errorMessage')}},
			child,
			3,
		),
		perstack(
			'startRun',
			{
				initialCheckpoint: checkpoint(coordinator, 'stoppedByDelegate', 4, {
					delegateTo: [{toolCallId: 'call-delegate', expert: {key: child.expertKey}}],
					partialToolResults: [{id: 'call-delegate', skillName: 'x', toolName: child.expertKey, result: [text('delegateResult')]}],
				}),
			},
			{runId: hostile('resumedRunId'), expertKey: coordinator.expertKey},
			4,
		),
		perstack('startStreamingRunResult', {}, {runId: hostile('resumedRunId'), expertKey: coordinator.expertKey}, 4),
		perstack(
			'completeRun',
			{checkpoint: checkpoint(coordinator, 'completed', 4), text: hostile('completeText')},
			{runId: hostile('resumedRunId'), expertKey: coordinator.expertKey},
			4,
		),
		// A run still streaming when the log ends: its text is drawn live under its pane.
		perstack('startRun', {initialCheckpoint: checkpoint(live, 'init', 1), inputMessages: [{type: 'userMessage', contents: [text('liveQuery')]}]}, live, 1),
		perstack('streamReasoning', {delta: hostile('liveReasoning')}, live, 1),
		perstack('streamRunResult', {delta: `line one\n${hostile('liveResult')}\n\tindented`}, live, 1),
		perstack(hostile('unknownType'), {payload: hostile('unknownPayload')}),
		// drover: its own runs, tool calls, a subagent and an error.
		JSON.stringify({kind: 'run_start', runId: hostile('droverRun'), ts: 1, agentId: hostile('droverAgent')}),
		JSON.stringify({kind: 'turn_start', runId: hostile('droverRun'), ts: 2, turn: 1}),
		JSON.stringify({kind: 'thinking', runId: hostile('droverRun'), ts: 3, turn: 1, text: hostile('droverThinking')}),
		JSON.stringify({
			kind: 'tool_call_start',
			runId: hostile('droverRun'),
			ts: 4,
			turn: 1,
			toolUseId: 'u1',
			toolName: hostile('droverTool'),
			input: {x: hostile('droverInput')},
		}),
		JSON.stringify({
			kind: 'tool_call_end',
			runId: hostile('droverRun'),
			ts: 5,
			turn: 1,
			toolUseId: 'u1',
			result: {content: hostile('droverResult'), isError: true},
		}),
		JSON.stringify({
			kind: 'tool_call_start',
			runId: hostile('droverRun'),
			ts: 6,
			turn: 1,
			toolUseId: 'u2',
			toolName: 'task',
			input: {agentId: hostile('droverSubagent'), prompt: hostile('droverPrompt')},
		}),
		JSON.stringify({
			kind: 'subagent_start',
			runId: hostile('droverRun'),
			ts: 7,
			turn: 1,
			childRunId: hostile('droverChild'),
			agentId: hostile('droverSubagent'),
		}),
		JSON.stringify({kind: 'subagent_end', runId: hostile('droverRun'), ts: 8, turn: 1, childRunId: hostile('droverChild'), status: hostile('droverStatus')}),
		JSON.stringify({kind: 'output_retry', runId: hostile('droverRun'), ts: 9, attempt: 1, reason: hostile('droverRetry')}),
		JSON.stringify({kind: 'error', runId: hostile('droverRun'), ts: 10, tag: hostile('droverTag'), message: hostile('droverError')}),
		JSON.stringify({kind: hostile('droverUnknownKind'), runId: hostile('droverRun'), ts: 11}),
		// strategy daemon: step names are agent names and run ids.
		JSON.stringify({
			type: 'step_started',
			runId: hostile('daemonRun'),
			ts: '2026-01-01T00:00:00Z',
			stepName: hostile('daemonStep'),
			message: hostile('daemonMessage'),
		}),
		JSON.stringify({
			type: 'agent_streaming',
			runId: hostile('daemonRun'),
			agentName: hostile('daemonStep'),
			event: {type: 'tool-call', toolName: hostile('daemonTool'), args: JSON.stringify({a: hostile('daemonArgs')})},
		}),
		JSON.stringify({
			type: 'agent_streaming',
			runId: hostile('daemonRun'),
			agentName: hostile('daemonStep'),
			event: {type: 'tool-result', toolName: hostile('daemonTool'), output: {o: hostile('daemonOutput')}},
		}),
		JSON.stringify({type: 'agent_output', runId: hostile('daemonRun'), agentName: hostile('daemonStep'), text: hostile('daemonText')}),
		JSON.stringify({type: 'step_completed', runId: hostile('daemonRun'), stepName: hostile('daemonStep'), result: {text: hostile('daemonResult')}}),
		// Lines that are not events: their diagnostics quote them.
		`not json ${hostile('garbage')}`,
		`{"type": "callTools", "runId": "${attack.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}`,
		JSON.stringify({type: 'callTools', runId: hostile('badRun'), toolCalls: hostile('notAnArray')}),
	];
}

/** Every field tag used above, to check that `--json` gives each string back exactly. */
export const jsonFields = [
	'query',
	'command',
	'path',
	'execResult',
	'toolError',
	'completeText',
	'errorMessage',
	'retryReason',
	'reasoning',
	'delegateQuery',
	'droverResult',
	'daemonText',
];
