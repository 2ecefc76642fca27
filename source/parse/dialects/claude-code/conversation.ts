import type {ConversationMessage, ConversationPart, ConversationStep, ConversationUsage} from '../../../model/conversation.js';
import {isTranscriptLine} from './transcript.js';
import {jsonObject, jsonObjectAt} from '../json-values.js';

/*
 * A step's conversation from a Claude Code session's transcript (`<session>.jsonl`, a sub-agent's
 * `agent-<id>.jsonl`): the transcript keeps every message of the session, so what the model was given at a step
 * (one API response, its `message.id`) is the run's messages before the step's first line, and what the step added
 * is its answer and its tools' results after it. The system prompt and the tools' definitions are not in it.
 *
 * The lines of the run are those on its side: the session's own (`isSidechain` false) or the sub-agent's (true, and
 * its `agentId` where lines name one: older versions wrote sub-agents' lines into the session's file). A compaction
 * (`system` `compact_boundary`) replaces what came before it with its summary, which is the next message. The lines
 * come from a program we do not control: every value is checked for its shape.
 */

type Line = {value: Record<string, unknown>; offset: number};

/**
 * What a step's remembered line says of where its conversation is: in the transcript the line is of, or, for a
 * stream's line (`claude -p … --output-format stream-json`, which carries no prompt and no system prompt), in the
 * transcript Claude Code keeps of its session, at the first line of its response.
 */
export function conversationPlace(line: string): {kind: 'transcript'} | {kind: 'stream'; sessionId: string; messageId: string} | undefined {
	const record = jsonObject(line);
	if (record === undefined) return undefined;
	if (isTranscriptLine(record)) return {kind: 'transcript'};
	const sessionId = record.session_id;
	// With --include-partial-messages a response starts on its `message_start` stream event, which names it.
	const event =
		record.type === 'stream_event' && typeof record.event === 'object' && record.event !== null ? (record.event as Record<string, unknown>) : undefined;
	const id = event ? messageId(event) : messageId(record);
	return typeof sessionId === 'string' && id !== undefined ? {kind: 'stream', sessionId, messageId: id} : undefined;
}

/** The byte offset of the first line of a response (`message.id`) in a transcript, if it has one. */
export function responseOffset(bytes: Buffer, id: string): number | undefined {
	const needle = JSON.stringify(id);
	for (let found = bytes.indexOf(needle); found >= 0; found = bytes.indexOf(needle, found + needle.length)) {
		const start = bytes.lastIndexOf(10, found) + 1;
		const {value} = jsonObjectAt(bytes, start);
		if (value?.type === 'assistant' && messageId(value) === id) return start;
	}

	return undefined;
}

/** The conversation of the step whose first line starts at byte `offset` of `bytes` (the transcript's file). */
export function transcriptConversation(bytes: Buffer, offset: number): ConversationStep {
	// The lines before the step are all read; those after it only as far as the step goes.
	const before = jsonLines(bytes, 0, offset);
	const [first] = jsonLines(bytes, offset, offset + 1);
	const stepId = first ? messageId(first.value) : undefined;
	if (!first || first.offset !== offset || first.value.type !== 'assistant' || stepId === undefined)
		return {kind: 'none', from: 'transcript', why: 'The transcript no longer has this step’s line: it may have changed since.'};

	const side = sideOf(first.value);
	const own = (line: Line) => sideOf(line.value) === side;
	let from = 0;
	for (const [index, line] of before.entries()) if (own(line) && isCompactBoundary(line.value)) from = index + 1;

	const names = new Map<string, string>();
	const given = messagesOf(
		before.slice(from).filter(own),
		names,
		() => false,
		() => false,
	);
	// What arrived after the model's last answer (a prompt, a person's message, context attached) is new at this step.
	let lastAnswer = -1;
	for (const [index, message] of given.entries()) if (message.role === 'assistant') lastAnswer = index;
	for (const message of given.slice(lastAnswer + 1)) if (message.role !== 'tool') message.isNewInput = true;

	// The step: its response's lines, then the results of its calls, up to the next response or prompt.
	const calls = new Set<string>();
	const response: Array<Record<string, unknown>> = [];
	const added = messagesOf(
		ownLinesFrom(bytes, offset, own),
		names,
		value => {
			if (value.type === 'assistant') {
				if (messageId(value) !== stepId) return true;
				response.push(value);
				for (const block of blocksOf(value)) if (block.type === 'tool_use' && typeof block.id === 'string') calls.add(block.id);
				return false;
			}

			if (value.type !== 'user') return false;
			const blocks = blocksOf(value);
			return (
				blocks.length === 0 || !blocks.every(block => block.type === 'tool_result' && typeof block.tool_use_id === 'string' && calls.has(block.tool_use_id))
			);
		},
		value => value.type === 'attachment',
	);
	return {kind: 'ended', from: 'transcript', usage: responseUsage(response), given, added, error: undefined};
}

/** Each line of the file from byte `start` that begins before `end` and is a JSON object, with its byte offset. */
function jsonLines(bytes: Buffer, start: number, end: number): Line[] {
	const lines: Line[] = [];
	for (let at = start; at < end && at < bytes.length; ) {
		const line = jsonObjectAt(bytes, at);
		if (line.value !== undefined) lines.push({value: line.value, offset: at});
		at = line.next;
	}

	return lines;
}

/** The run's lines from byte `start` on, each read only when asked for. */
function* ownLinesFrom(bytes: Buffer, start: number, own: (line: Line) => boolean): Generator<Line> {
	for (let at = start; at < bytes.length; ) {
		const line = jsonObjectAt(bytes, at);
		if (line.value !== undefined && own({value: line.value, offset: at})) yield {value: line.value, offset: at};
		at = line.next;
	}
}

function sideOf(value: Record<string, unknown>): string {
	return value.isSidechain === true ? `agent ${typeof value.agentId === 'string' ? value.agentId : ''}` : 'session';
}

function isCompactBoundary(value: Record<string, unknown>): boolean {
	return value.type === 'system' && value.subtype === 'compact_boundary';
}

function messageOf(value: Record<string, unknown>): Record<string, unknown> | undefined {
	const message = value.message;
	return typeof message === 'object' && message !== null && !Array.isArray(message) ? (message as Record<string, unknown>) : undefined;
}

function messageId(value: Record<string, unknown>): string | undefined {
	const id = messageOf(value)?.id;
	return typeof id === 'string' ? id : undefined;
}

function blocksOf(value: Record<string, unknown>): Array<Record<string, unknown>> {
	const content = messageOf(value)?.content;
	return Array.isArray(content) ? content.filter((block): block is Record<string, unknown> => typeof block === 'object' && block !== null) : [];
}

/**
 * The messages of `lines` until `ends` says a line is past them: an API response's lines (one per content block)
 * make one message; `skips` leaves a line out without ending.
 */
function messagesOf(
	lines: Iterable<Line>,
	names: Map<string, string>,
	ends: (value: Record<string, unknown>) => boolean,
	skips: (value: Record<string, unknown>) => boolean,
): ConversationMessage[] {
	const messages: ConversationMessage[] = [];
	let response: string | undefined;
	for (const {value} of lines) {
		if (ends(value)) break;
		if (skips(value)) continue;
		if (value.type === 'assistant') {
			const parts = blocksOf(value).map(block => assistantPart(block, names));
			const id = messageId(value);
			const last = messages.at(-1);
			if (id !== undefined && id === response && last && typeof last.contents !== 'string') last.contents.push(...parts);
			else messages.push({role: 'assistant', contents: parts, isNewInput: false});
			response = id;
			continue;
		}

		if (value.type === 'user') {
			response = undefined;
			const content = messageOf(value)?.content;
			if (typeof content === 'string') {
				messages.push({role: 'user', contents: content, isNewInput: false});
				continue;
			}

			const blocks = blocksOf(value);
			const results = blocks.length > 0 && blocks.every(block => block.type === 'tool_result');
			messages.push({role: results ? 'tool' : 'user', contents: blocks.map(block => userPart(block, names)), isNewInput: false});
		} else if (value.type === 'attachment') {
			response = undefined;
			const attached = attachmentText(value.attachment);
			if (attached !== undefined) messages.push({role: 'context', contents: attached, isNewInput: false});
		}
	}

	return messages;
}

function assistantPart(block: Record<string, unknown>, names: Map<string, string>): ConversationPart {
	switch (block.type) {
		case 'text':
			return {kind: 'text', text: typeof block.text === 'string' ? block.text : ''};
		case 'thinking':
			return {kind: 'thinking', text: typeof block.thinking === 'string' ? block.thinking : ''};
		case 'tool_use':
		case 'server_tool_use': {
			const name = typeof block.name === 'string' ? block.name : undefined;
			const id = typeof block.id === 'string' ? block.id : undefined;
			if (id !== undefined && name !== undefined) names.set(id, name);
			return {kind: 'call', toolName: name, callId: id, args: block.input};
		}

		default:
			return otherPart(block);
	}
}

function userPart(block: Record<string, unknown>, names: Map<string, string>): ConversationPart {
	switch (block.type) {
		case 'text':
			return {kind: 'text', text: typeof block.text === 'string' ? block.text : ''};
		case 'tool_result': {
			const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
			const content = block.content;
			const parts: ConversationPart[] =
				typeof content === 'string'
					? [{kind: 'text', text: content}]
					: Array.isArray(content)
						? content
								.filter((inner): inner is Record<string, unknown> => typeof inner === 'object' && inner !== null)
								.map(inner => (inner.type === 'text' ? {kind: 'text', text: typeof inner.text === 'string' ? inner.text : ''} : otherPart(inner)))
						: [];
			if (block.is_error === true) parts.unshift({kind: 'text', text: '(the tool failed)'});
			return {kind: 'result', toolName: id === undefined ? undefined : names.get(id), callId: id, parts};
		}

		default:
			return otherPart(block);
	}
}

/** An image, a document, a redacted thinking: what it is and how big, not its bytes. */
function otherPart(block: Record<string, unknown>): ConversationPart {
	const details: string[] = [];
	const source = block.source;
	if (typeof source === 'object' && source !== null) {
		const {media_type: mediaType, data, url} = source as Record<string, unknown>;
		if (typeof mediaType === 'string') details.push(mediaType);
		if (typeof url === 'string') details.push(url);
		if (typeof data === 'string') details.push(`${data.length} characters of data`);
	}

	if (typeof block.data === 'string') details.push(`${block.data.length} characters of data`);
	return {kind: 'attachment', type: typeof block.type === 'string' ? block.type : undefined, details};
}

/** What Claude Code attached to the prompt as context (the agents or skills it lists, a file): its text, as the model reads it. */
function attachmentText(attachment: unknown): string | undefined {
	if (typeof attachment !== 'object' || attachment === null) return undefined;
	const {type, content, addedLines} = attachment as Record<string, unknown>;
	const label = typeof type === 'string' ? type : 'attachment';
	if (typeof content === 'string') return `${label}:\n${content}`;
	if (Array.isArray(addedLines) && addedLines.every(line => typeof line === 'string')) return `${label}:\n${addedLines.join('\n')}`;
	return `${label}`;
}

/** The step's usage as its response's lines report it: each count the largest they give (they repeat it). */
function responseUsage(response: ReadonlyArray<Record<string, unknown>>): ConversationUsage | undefined {
	let usage: ConversationUsage | undefined;
	for (const value of response) {
		const reported = messageOf(value)?.usage;
		if (typeof reported !== 'object' || reported === null) continue;
		const count = (key: string): number | undefined => {
			const found = (reported as Record<string, unknown>)[key];
			return typeof found === 'number' && Number.isFinite(found) ? found : undefined;
		};
		const input = count('input_tokens');
		const written = count('cache_creation_input_tokens');
		const next: ConversationUsage = {
			// As everywhere in perscope: input written to the cache is input, input read from it is cached input.
			inputTokens: input === undefined && written === undefined ? undefined : (input ?? 0) + (written ?? 0),
			outputTokens: count('output_tokens'),
			reasoningTokens: undefined,
			cachedInputTokens: count('cache_read_input_tokens'),
		};
		usage = usage === undefined ? next : larger(usage, next);
	}

	return usage;
}

function larger(a: ConversationUsage, b: ConversationUsage): ConversationUsage {
	const max = (x: number | undefined, y: number | undefined) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
	return {
		inputTokens: max(a.inputTokens, b.inputTokens),
		outputTokens: max(a.outputTokens, b.outputTokens),
		reasoningTokens: undefined,
		cachedInputTokens: max(a.cachedInputTokens, b.cachedInputTokens),
	};
}
