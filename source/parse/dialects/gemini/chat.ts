import type {ConversationMessage, ConversationPart, ConversationStep, ConversationUsage} from '../../../model/conversation.js';

/*
 * A step's conversation from the chat Gemini CLI keeps of a session (`~/.gemini/tmp/<project>/chats/session-<time>-
 * <id>.jsonl`, seen with 0.61.0): a log of records, one a line. Each `gemini -p` run starts with a header
 * (`{sessionId, projectHash, startTime, …}`); `{"$set": {"messages": […]}}` puts the history in place (the context
 * the CLI gives first, and a resumed session's earlier messages); then each message as it comes, `type` `user` (a
 * prompt, or tool results as `functionResponse` parts) or `gemini` (a model response: its text, `thoughts`,
 * `toolCalls`, `tokens`), written again under the same `id` as it grows. The stream's step n of its k-th run is the
 * k-th run's n-th model response. The lines come from a program we do not control: every value is checked.
 */

type Record = {[key: string]: unknown};

/** The session a chat is of, from its first line; undefined for a file that is no chat. */
export function chatSessionId(firstLine: string): string | undefined {
	const value = parse(firstLine);
	const id = value?.['sessionId'];
	return typeof id === 'string' && typeof value?.['startTime'] === 'string' ? id : undefined;
}

/** The conversation of step `step` of the `run`-th run (1 the first) of the session whose chat `bytes` holds. */
export function chatConversation(bytes: Buffer, run: number, step: number): ConversationStep {
	let runs = 0;
	// The messages as they stand, in order, each the last version written under its id.
	let messages: Record[] = [];
	let given: Record[] | undefined;
	let target: string | undefined;
	const after: string[] = [];
	let responses = new Set<string>();
	for (const text of lines(bytes)) {
		const value = parse(text);
		if (!value) continue;
		if (typeof value['sessionId'] === 'string' && typeof value['startTime'] === 'string') {
			// Past the step's run: what its step added is all written.
			if (runs === run && target !== undefined) break;
			runs++;
			responses = new Set();
			continue;
		}

		const set = value['$set'];
		if (isRecord(set)) {
			if (Array.isArray(set['messages'])) messages = set['messages'].filter(isRecord);
			continue;
		}

		const id = value['id'];
		if (typeof id !== 'string') continue;
		const at = messages.findIndex(message => message['id'] === id);
		if (at >= 0) messages[at] = value;
		else messages.push(value);
		if (runs !== run || value['type'] !== 'gemini') {
			if (target !== undefined && at < 0) after.push(id);
			continue;
		}

		if (target === undefined && at < 0) {
			responses.add(id);
			if (responses.size === step) {
				target = id;
				given = messages.slice(0, -1);
			}
		} else if (target !== undefined && id !== target && at < 0) {
			// The next response: the step ended before it.
			break;
		}
	}

	if (target === undefined || given === undefined)
		return {kind: 'none', from: 'chat', why: `The session's chat holds no step ${step} of its run ${run}: it may have been written since, or cleaned up.`};

	const byId = new Map(messages.map(message => [message['id'], message]));
	const response = byId.get(target)!;
	// What the step added: its response, then its calls' results (a prompt that follows is the next turn's).
	const added = [response];
	for (const id of after) {
		const message = byId.get(id);
		if (!message || message['type'] !== 'user' || !isToolResults(message)) break;
		added.push(message);
	}

	const givenMessages = given.map(messageOf);
	let lastAnswer = -1;
	for (const [index, message] of givenMessages.entries()) if (message.role === 'assistant') lastAnswer = index;
	for (const message of givenMessages.slice(lastAnswer + 1)) if (message.role === 'user') message.isNewInput = true;
	return {kind: 'ended', from: 'chat', usage: usageOf(response['tokens']), given: givenMessages, added: added.map(messageOf), error: undefined};
}

function messageOf(message: Record): ConversationMessage {
	const content = message['content'];
	if (message['type'] === 'gemini') {
		const parts: ConversationPart[] = [];
		const thoughts = Array.isArray(message['thoughts']) ? message['thoughts'].filter(isRecord) : [];
		for (const thought of thoughts) {
			const text = [thought['subject'], thought['description']].filter(part => typeof part === 'string' && part !== '').join(': ');
			if (text !== '') parts.push({kind: 'thinking', text});
		}

		const text = typeof content === 'string' ? content : textOf(content);
		if (text !== '') parts.push({kind: 'text', text});
		const calls = Array.isArray(message['toolCalls']) ? message['toolCalls'].filter(isRecord) : [];
		for (const call of calls) parts.push({kind: 'call', toolName: stringOf(call['name']), callId: stringOf(call['id']), args: call['args']});
		return {role: 'assistant', contents: parts, isNewInput: false};
	}

	if (isToolResults(message)) {
		const parts: ConversationPart[] = (Array.isArray(content) ? content.filter(isRecord) : []).flatMap(part => {
			const result = part['functionResponse'];
			if (!isRecord(result)) return [];
			const response = isRecord(result['response']) ? result['response'] : {};
			const output = response['output'] ?? response['error'];
			return [
				{
					kind: 'result' as const,
					toolName: stringOf(result['name']),
					callId: stringOf(result['id']),
					parts: [{kind: 'text' as const, text: typeof output === 'string' ? output : JSON.stringify(output ?? null)}],
				},
			];
		});
		return {role: 'tool', contents: parts, isNewInput: false};
	}

	const text = typeof content === 'string' ? content : textOf(content);
	// The context the CLI gives first (the date, the workspace's files) folds as a system prompt does.
	const role = /^\s*<session_context>/.test(text) ? 'system' : typeof message['type'] === 'string' ? message['type'] : 'user';
	return {role, contents: text, isNewInput: false};
}

function isToolResults(message: Record): boolean {
	const content = message['content'];
	return Array.isArray(content) && content.some(part => isRecord(part) && isRecord(part['functionResponse']));
}

function textOf(content: unknown): string {
	if (!Array.isArray(content)) return '';
	return content
		.filter(isRecord)
		.map(part => (typeof part['text'] === 'string' ? part['text'] : ''))
		.filter(text => text !== '')
		.join('\n');
}

function usageOf(tokens: unknown): ConversationUsage | undefined {
	if (!isRecord(tokens)) return undefined;
	const count = (key: string) => (typeof tokens[key] === 'number' ? tokens[key] : undefined);
	return {inputTokens: count('input'), outputTokens: count('output'), reasoningTokens: count('thoughts'), cachedInputTokens: count('cached')};
}

function stringOf(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

function* lines(bytes: Buffer): Generator<string> {
	for (let at = 0; at < bytes.length; ) {
		const end = bytes.indexOf(10, at);
		const stop = end === -1 ? bytes.length : end;
		yield bytes.toString('utf8', at, stop);
		at = stop + 1;
	}
}

function parse(text: string): Record | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

function isRecord(value: unknown): value is Record {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
