import {apiRetryReason} from './content.js';
import {quietSystemSubtypes, type ClaudeLineOf} from './schema.js';
import type {ClaudeStream} from './stream.js';
import {runOf, taskNotification, taskStarted, taskUpdated} from './sub-agents.js';

/*
 * Claude Code's `system` lines (reader.ts): `init` starts a turn of the main loop, with its model, version and
 * MCP servers; a sub-agent's task starts and ends (sub-agents.ts); `api_retry` is a retry. The CLI's other
 * subtypes say nothing to show; one this version does not know is an unknown event.
 */

export function readSystem(stream: ClaudeStream, line: ClaudeLineOf<'system'>): void {
	switch (line.subtype) {
		case 'init': {
			const runId = stream.startTurn(line.uuid);
			// What the line does not say is left out, not set to undefined.
			const init: {kind: 'runtimeInit'; model?: string; runtimeVersion?: string} = {kind: 'runtimeInit'};
			if (line.model !== undefined) init.model = line.model;
			if (line.claude_code_version !== undefined) init.runtimeVersion = line.claude_code_version;
			stream.emit(runId, init);
			if (line.model !== undefined) stream.state(runId).modelKnown = true;
			servers(stream, runId, line.mcp_servers ?? []);
			return;
		}

		case 'task_started':
			taskStarted(stream, line);
			return;
		case 'task_updated':
			taskUpdated(stream, line);
			return;
		case 'task_notification':
			taskNotification(stream, line);
			return;
		case 'api_retry':
			stream.emit(runOf(stream, line), {kind: 'retry', reason: apiRetryReason(line)});
			return;

		default:
			if (quietSystemSubtypes.has(line.subtype)) stream.marker();
			else stream.unknown(`system/${line.subtype}`);
	}
}

/** MCP servers as the skills bar shows them: each change of state. */
function servers(stream: ClaudeStream, runId: string, servers: ReadonlyArray<{name: string; status?: string | undefined}>): void {
	const known = stream.sessionState().servers;
	for (const server of servers) {
		const status = server.status ?? 'unknown';
		if (known.get(server.name) === status) continue;
		known.set(server.name, status);
		const state = status === 'connected' ? 'connected' : status === 'pending' ? 'starting' : 'disconnected';
		stream.emit(runId, {kind: 'skill', skillName: server.name, state, detail: {}});
	}
}
