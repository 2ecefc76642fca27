import type {ConversationMessage, ConversationPart, ConversationStep, ConversationUsage} from '../../../model/conversation.js';
import {jsonObjectAt} from '../json-values.js';

/*
 * A step's conversation from a Codex session's rollout (rollout.ts reads its events): the rollout keeps every item the
 * model was given and gave (`response_item`: the developer instructions, the context and prompts, reasoning summaries,
 * messages, calls and their outputs), so what the model was given at a step (one model response, whose first item
 * starts it) is the items before it, and what the step added its response's items and its calls' outputs after it.
 * A compaction (`compacted`) replaces what came before it. The lines come from a program we do not control: every
 * value is checked for its shape.
 */

type Item = Record<string, unknown>;
type Line = {type: string; payload: Item; offset: number};

/** The conversation of the step whose first item starts at byte `offset` of `bytes` (the rollout's file). */
export function rolloutConversation(bytes: Buffer, offset: number): ConversationStep {
	// The lines before the step are all read; those after it only as far as the step goes.
	const before = rolloutLines(bytes, 0, offset);
	const [first] = rolloutLines(bytes, offset, offset + 1);
	if (!first || first.offset !== offset || first.type !== 'response_item' || !isResponse(first.payload))
		return {kind: 'none', from: 'rollout', why: 'The rollout no longer has this step’s line: it may have changed since.'};

	// A compaction replaces the history before it: with what it kept (`replacement_history`), else its summary.
	let from = 0;
	let compaction: ConversationMessage[] = [];
	const names = new Map<string, string>();
	for (const [index, line] of before.entries()) {
		if (line.type !== 'compacted') continue;
		from = index + 1;
		const kept = line.payload['replacement_history'];
		const summary = line.payload['message'];
		compaction = Array.isArray(kept)
			? messagesOf(
					kept
						.filter((item): item is Item => typeof item === 'object' && item !== null)
						.map(item => ({type: 'response_item', payload: item, offset: line.offset})),
					names,
				)
			: typeof summary === 'string' && summary !== ''
				? [{role: 'context', contents: `the conversation so far, compacted:\n${summary}`, isNewInput: false}]
				: [];
	}

	const given = [
		...compaction,
		...messagesOf(
			before.slice(from).filter(line => line.type === 'response_item'),
			names,
		),
	];
	let lastAnswer = -1;
	for (const [index, message] of given.entries()) if (message.role === 'assistant') lastAnswer = index;
	for (const message of given.slice(lastAnswer + 1)) if (message.role === 'user' || message.role === 'context') message.isNewInput = true;

	// The step: its response's items, then its calls' outputs, up to the next response, prompt or turn.
	const step: Line[] = [];
	let usage: ConversationUsage | undefined;
	let outputs = false;
	for (let at = offset; at < bytes.length; ) {
		const {line, next} = lineAt(bytes, at);
		at = next;
		if (line === undefined) continue;
		if (line.type === 'event_msg') {
			const type = line.payload['type'];
			if (type === 'token_count' && usage === undefined) usage = usageOf(line.payload['info']);
			if (type === 'task_complete' || type === 'task_started' || type === 'turn_aborted') break;
			continue;
		}

		if (line.type !== 'response_item') continue;
		const output = isOutput(line.payload);
		if (output) outputs = true;
		else if (outputs || !isResponse(line.payload)) break;
		step.push(line);
	}

	return {kind: 'ended', from: 'rollout', usage, given, added: messagesOf(step, names), error: undefined};
}

/**
 * The byte offset of the first item of the last model response of turn `turn` (1 for the first `task_started`), or
 * undefined when the rollout has no such turn or it made no response.
 */
export function lastResponseOfTurn(bytes: Buffer, turn: number): number | undefined {
	let turns = 0;
	let last: number | undefined;
	// Whether the model's next item starts a response: at the turn's start, after a tool's output or a token count.
	let fresh = true;
	for (let at = 0; at < bytes.length; ) {
		const {line, next} = lineAt(bytes, at);
		at = next;
		if (line === undefined) continue;
		const type = line.payload['type'];
		if (line.type === 'event_msg') {
			if (type === 'task_started') {
				turns++;
				fresh = true;
			} else if (type === 'token_count') fresh = true;
			else if ((type === 'task_complete' || type === 'turn_aborted') && turns === turn) return last;
			continue;
		}

		if (line.type !== 'response_item' || turns !== turn) continue;
		if (isOutput(line.payload)) fresh = true;
		else if (isResponse(line.payload) && fresh) {
			last = line.offset;
			fresh = false;
		}
	}

	return last;
}

/** The rollout's lines from byte `start` that begin before `end`, each with its byte offset. */
function rolloutLines(bytes: Buffer, start: number, end: number): Line[] {
	const lines: Line[] = [];
	for (let at = start; at < end && at < bytes.length; ) {
		const {line, next} = lineAt(bytes, at);
		if (line !== undefined) lines.push(line);
		at = next;
	}

	return lines;
}

/** The rollout line at byte `at` (undefined for one that is not), and where the next starts. */
function lineAt(bytes: Buffer, at: number): {line: Line | undefined; next: number} {
	const {value, next} = jsonObjectAt(bytes, at);
	const type = value?.['type'];
	const payload = value?.['payload'];
	return {line: typeof type === 'string' && typeof payload === 'object' && payload !== null ? {type, payload: payload as Item, offset: at} : undefined, next};
}

const responseTypes: ReadonlySet<string> = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);

/** An item of the model's response: its reasoning, its message, a call. */
function isResponse(item: Item): boolean {
	const type = item['type'];
	return typeof type === 'string' && (responseTypes.has(type) || (type === 'message' && item['role'] === 'assistant'));
}

function isOutput(item: Item): boolean {
	return item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output';
}

/** The parts of a user message that are Codex's own context, not what the person typed. */
const contextPart = /^\s*<(environment_context|user_instructions|permissions instructions|skills_instructions|turn_aborted)\b/;

/** The items as messages: a response's items one assistant message, each output a tool's, each prompt a user's. */
function messagesOf(lines: readonly Line[], names: Map<string, string>): ConversationMessage[] {
	const messages: ConversationMessage[] = [];
	const assistant = (): ConversationPart[] => {
		const last = messages.at(-1);
		if (last?.role === 'assistant' && typeof last.contents !== 'string') return last.contents;
		const parts: ConversationPart[] = [];
		messages.push({role: 'assistant', contents: parts, isNewInput: false});
		return parts;
	};

	for (const {payload: item} of lines) {
		const type = item['type'];
		if (type === 'message') {
			const texts = (Array.isArray(item['content']) ? item['content'] : []).flatMap(part =>
				typeof part === 'object' && part !== null && typeof (part as Item)['text'] === 'string' ? [(part as Item)['text'] as string] : [],
			);
			const role = item['role'];
			if (role === 'assistant') assistant().push(...texts.map(text => ({kind: 'text' as const, text})));
			else if (role === 'developer' || role === 'system')
				messages.push({role: 'system', contents: texts.map(text => ({kind: 'text' as const, text})), isNewInput: false});
			else if (texts.every(text => contextPart.test(text))) messages.push({role: 'context', contents: texts.join('\n\n'), isNewInput: false});
			else messages.push({role: 'user', contents: texts.filter(text => !contextPart.test(text)).join('\n\n'), isNewInput: false});
		} else if (type === 'reasoning') {
			const summary = Array.isArray(item['summary']) ? item['summary'] : [];
			const text = summary
				.flatMap(part => (typeof part === 'object' && part !== null && typeof (part as Item)['text'] === 'string' ? [(part as Item)['text'] as string] : []))
				.join('\n');
			if (text !== '') assistant().push({kind: 'thinking', text});
		} else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call' || type === 'web_search_call') {
			const name =
				typeof item['name'] === 'string' ? item['name'] : type === 'web_search_call' ? 'web_search' : type === 'local_shell_call' ? 'local_shell' : undefined;
			const id = typeof item['call_id'] === 'string' ? item['call_id'] : undefined;
			if (id !== undefined && name !== undefined) names.set(id, name);
			assistant().push({kind: 'call', toolName: name, callId: id, args: argumentsOf(item)});
		} else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
			const id = typeof item['call_id'] === 'string' ? item['call_id'] : undefined;
			const output = item['output'];
			const text =
				typeof output === 'string'
					? output
					: typeof output === 'object' && output !== null && typeof (output as Item)['content'] === 'string'
						? ((output as Item)['content'] as string)
						: '';
			messages.push({
				role: 'tool',
				contents: [{kind: 'result', toolName: id === undefined ? undefined : names.get(id), callId: id, parts: [{kind: 'text', text}]}],
				isNewInput: false,
			});
		}
	}

	return messages;
}

/** A call's arguments: a function's JSON, a custom tool's input text, a shell's command, a search's query. */
function argumentsOf(item: Item): unknown {
	const text = item['arguments'];
	if (typeof text === 'string') {
		try {
			return JSON.parse(text);
		} catch {
			return text;
		}
	}

	if (typeof item['input'] === 'string') return {input: item['input']};
	return item['action'] ?? {};
}

function usageOf(info: unknown): ConversationUsage | undefined {
	if (typeof info !== 'object' || info === null) return undefined;
	const last = (info as Item)['last_token_usage'];
	if (typeof last !== 'object' || last === null) return undefined;
	const count = (key: string): number | undefined => {
		const value = (last as Item)[key];
		return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
	};

	return {
		inputTokens: count('input_tokens'),
		outputTokens: count('output_tokens'),
		reasoningTokens: count('reasoning_output_tokens'),
		cachedInputTokens: count('cached_input_tokens'),
	};
}
