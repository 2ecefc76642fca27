import type {ToolResult} from '../../../model/events.js';
import {toolResult} from './assistant.js';
import {agentAnswer, agentDurationMs, agentModel, agentResultText, contentText, isAsyncLaunch, localCommandOutput} from './content.js';
import type {ClaudeLineOf} from './schema.js';
import type {ClaudeStream} from './stream.js';
import {child, endChild, runOf} from './sub-agents.js';

/*
 * Claude Code's `user` lines (reader.ts): what was put to the model. Tool results, each paired with its call by
 * id, `is_error` as an error and `tool_use_result` kept for the inspector; an Agent call's result is its
 * sub-agent's answer and ends its run (one launched in the background ends with its task: sub-agents.ts); text is
 * the run's prompt or a note put to it.
 */

export function readUser(stream: ClaudeStream, line: ClaudeLineOf<'user'>): void {
	const runId = runOf(stream, line, line.subagent_type);
	const {content} = line.message;
	if (typeof content === 'string') {
		// A slash command the CLI ran itself (`-p /compact`) put no question to the model: what it printed is the
		// turn's answer, which its result (`""`) does not repeat.
		const output = localCommandOutput(content);
		if (output !== undefined) {
			stream.state(runId).commandOutput = output;
			stream.marker();
			return;
		}

		query(stream, runId, content);
		return;
	}

	const results: ToolResult[] = [];
	const ends: Array<() => void> = [];
	const texts: string[] = [];
	for (const block of content) {
		if (block.type !== 'tool_result' || block.tool_use_id === undefined) {
			if (block.type === 'text' && block.text !== undefined) texts.push(block.text);
			continue;
		}

		const id = block.tool_use_id;
		const call = stream.calls.get(id);
		const isError = block.is_error === true;
		// Claude Code puts the tool's own result beside the line's only tool result.
		const detail = content.length === 1 ? line.tool_use_result : undefined;
		if (!call?.delegate) {
			results.push(toolResult(stream, id, contentText(block.content), isError, detail));
			continue;
		}

		if (!isError && isAsyncLaunch(detail)) {
			// In the background: its answer comes with its task's end.
			child(stream, id);
			stream.children.get(id)!.background = true;
			continue;
		}

		const text = agentAnswer(detail) ?? agentResultText(block.content);
		results.push(toolResult(stream, id, text, isError, detail));
		if (!isError) child(stream, id);
		const model = agentModel(detail);
		const durationMs = agentDurationMs(detail);
		ends.push(() => {
			if (model !== undefined && stream.children.has(id)) stream.runModel(id, model);
			endChild(stream, id, isError ? 'stoppedByError' : 'completed', text, isError ? text || 'error' : undefined, undefined, durationMs);
		});
	}

	if (results.length > 0) stream.emit(runId, {kind: 'toolResults', results});
	for (const end of ends) end();
	if (texts.length > 0) query(stream, runId, texts.join('\n'));
	// Nothing to show (an Agent call's launch in the background): the line still dates its run.
	if (results.length === 0 && ends.length === 0 && texts.length === 0) stream.emit(runId, {kind: 'marker'});
}

/** What the run was asked: a sub-agent's prompt (once), the main loop's prompt echoed or a note put to it. */
function query(stream: ClaudeStream, runId: string, text: string): void {
	const state = stream.state(runId);
	if (text === '' || text === state.query) {
		stream.marker();
		return;
	}

	state.query ??= text;
	stream.emit(runId, {kind: 'query', text});
}
