import type {ToolCall, ToolResult} from '../../../model/events.js';
import {contentText} from './content.js';
import type {ClaudeBlock, ClaudeLineOf} from './schema.js';
import type {ClaudeStream} from './stream.js';
import {child, runOf, taskOfCall} from './sub-agents.js';
import {skillOf, toolCall, toolOf} from './tool-names.js';
import {usageOf} from './usage.js';

/*
 * Claude Code's `assistant` lines (reader.ts): one response of the model, split over several lines (one per
 * content block) that repeat its id and usage. Its thinking and text are the run's live text so far; its tool
 * calls carry that text; an Agent (formerly Task) call is a delegation (sub-agents.ts).
 */

const delegateTools: ReadonlySet<string> = new Set(['Agent', 'Task']);

export function readAssistant(stream: ClaudeStream, line: ClaudeLineOf<'assistant'>): void {
	const runId = runOf(stream, line, line.subagent_type);
	const {message} = line;
	const step = stream.response(runId, message.id, message.model);
	if (message.usage) stream.countUsage(runId, message.id, usageOf(message.usage));
	const state = stream.state(runId);
	const blocks = typeof message.content === 'string' ? [{type: 'text', text: message.content} as ClaudeBlock] : message.content;
	if (line.error !== undefined) {
		// An API error the CLI put in the place of an answer.
		stream.emit(runId, {kind: 'runError', name: line.error, message: contentText(blocks)}, step);
		return;
	}

	const calls: ToolCall[] = [];
	const delegations: ToolCall[] = [];
	const results: ToolResult[] = [];
	for (const block of blocks) {
		switch (block.type) {
			case 'thinking': {
				const thinking = block.thinking ?? '';
				// Newer models send a signature only: nothing to show.
				if (thinking === '') break;
				state.thinking = state.thinking === undefined ? thinking : `${state.thinking}\n\n${thinking}`;
				stream.emit(runId, {kind: 'stream', channel: 'reasoning', phase: 'complete', text: state.thinking}, step);
				break;
			}

			case 'text': {
				const text = block.text ?? '';
				if (text === '') break;
				state.text = state.text === undefined ? text : `${state.text}\n\n${text}`;
				state.lastText = text;
				stream.emit(runId, {kind: 'stream', channel: 'result', phase: 'complete', text: state.text}, step);
				break;
			}

			case 'tool_use':
			case 'server_tool_use': {
				if (block.id === undefined || block.name === undefined) break;
				const delegate = block.type === 'tool_use' && delegateTools.has(block.name);
				stream.calls.set(block.id, {runId, name: block.name, delegate, input: block.input});
				(delegate ? delegations : calls).push(toolCall(block.id, block.name, block.input));
				break;
			}

			default:
				// A server tool's result (web search, code execution) comes in the answer itself.
				if (block.tool_use_id !== undefined) results.push(toolResult(stream, block.tool_use_id, contentText(block.content), block.is_error === true));
		}
	}

	// The response's text so far is what the model said with its calls (`I'll read the file first.`).
	const said = state.text;
	const {thinking} = state;
	if (calls.length > 0 || delegations.length > 0) state.text = undefined;
	if (calls.length > 0) stream.emit(runId, {kind: 'toolCalls', as: 'tool', calls, text: said, thinking}, step);
	if (delegations.length > 0) {
		stream.emit(runId, {kind: 'toolCalls', as: 'delegate', calls: delegations, text: calls.length > 0 ? undefined : said, thinking}, step);
		// A sub-agent whose task was announced before its call was seen starts now, under this run.
		for (const call of delegations) if (taskOfCall(stream, call.id)?.agent === true) child(stream, call.id);
	}

	if (results.length > 0) stream.emit(runId, {kind: 'toolResults', results}, step);
}

/** The result of call `id`, named after the call; `detail`, when an object, is what the inspector shows. */
export function toolResult(stream: ClaudeStream, id: string, text: string, isError: boolean, detail?: unknown): ToolResult {
	const call = stream.calls.get(id);
	const result: ToolResult = {
		id,
		skillName: skillOf(call?.name ?? ''),
		toolName: toolOf(call?.name ?? ''),
		text,
		error: isError ? text || 'error' : undefined,
	};
	// A string is the text again (an error's); an object is what the inspector shows as the tool's own result.
	if (typeof detail === 'object' && detail !== null) result.detail = detail;
	return result;
}
