import type {ConversationMessage, ConversationPart, ConversationStep, ConversationUsage} from '../model/conversation.js';
import {field} from './describe-activity.js';

/*
 * A Perstack step's conversation from the one line that holds it: a step's end (`continueToNextStep`,
 * `completeRun`, `stopRunBy…`), whose checkpoint holds every message after the step and whose `step.newMessages`
 * what the step added, or its `startGeneration` while it runs (the messages the model is being given). Every value
 * is checked for its shape: the line comes from a program we do not control.
 */

const roles: Readonly<Record<string, string>> = {
	instructionMessage: 'system',
	userMessage: 'user',
	expertMessage: 'assistant',
	toolMessage: 'tool',
};

export function perstackConversation(raw: string): ConversationStep {
	let event: unknown;
	try {
		event = JSON.parse(raw);
	} catch {
		return {kind: 'none', from: undefined, why: 'The line is not JSON: it holds no messages to show.'};
	}

	const type = stringField(event, 'type');
	const checkpointMessages = field(field(event, 'checkpoint'), 'messages');
	const generationMessages = field(event, 'messages');
	if (Array.isArray(checkpointMessages)) {
		const step = field(event, 'step');
		const added = arrayField(step, 'newMessages');
		const inputIds = idsOf(arrayField(step, 'inputMessages'));
		const addedIds = idsOf(added);
		// The checkpoint ends with what the step added; ids say which, a count when messages have none.
		const given =
			addedIds.size > 0
				? checkpointMessages.filter(message => !addedIds.has(stringField(message, 'id') ?? ''))
				: checkpointMessages.slice(0, Math.max(0, checkpointMessages.length - added.length));
		const error = field(event, 'error') ?? field(field(event, 'checkpoint'), 'error');
		return {
			kind: 'ended',
			from: type,
			usage: usageOf(field(step, 'usage')),
			given: given.map(message => messageOf(message, inputIds.has(stringField(message, 'id') ?? ''))),
			added: added.map(message => messageOf(message, false)),
			error: error === undefined ? undefined : `${stringField(error, 'name') ?? 'Error'}: ${stringField(error, 'message') ?? ''}`,
		};
	}

	if (Array.isArray(generationMessages)) return {kind: 'generating', from: type, given: generationMessages.map(message => messageOf(message, false))};
	return {kind: 'none', from: type, why: `The ${type ?? 'line'} event holds no messages.`};
}

function usageOf(usage: unknown): ConversationUsage | undefined {
	if (typeof usage !== 'object' || usage === null) return undefined;
	const count = (key: string) => {
		const value = field(usage, key);
		return typeof value === 'number' ? value : undefined;
	};

	return {
		inputTokens: count('inputTokens'),
		outputTokens: count('outputTokens'),
		reasoningTokens: count('reasoningTokens'),
		cachedInputTokens: count('cachedInputTokens'),
	};
}

function messageOf(message: unknown, isNewInput: boolean): ConversationMessage {
	const type = stringField(message, 'type') ?? '?';
	const contents = field(message, 'contents');
	return {
		role: roles[type] ?? type,
		contents: typeof contents === 'string' ? contents : Array.isArray(contents) ? contents.map(partOf) : [],
		isNewInput,
	};
}

function partOf(part: unknown): ConversationPart {
	const type = stringField(part, 'type');
	switch (type) {
		case 'textPart':
			return {kind: 'text', text: stringField(part, 'text') ?? ''};
		case 'thinkingPart':
			return {kind: 'thinking', text: stringField(part, 'thinking') ?? ''};
		case 'toolCallPart':
			return {kind: 'call', toolName: stringField(part, 'toolName'), callId: stringField(part, 'toolCallId'), args: field(part, 'args')};
		case 'toolResultPart': {
			const contents = field(part, 'contents');
			return {
				kind: 'result',
				toolName: stringField(part, 'toolName'),
				callId: stringField(part, 'toolCallId'),
				parts: Array.isArray(contents) ? contents.map(partOf) : [],
			};
		}

		case undefined:
		default:
			return {kind: 'attachment', type, details: attachmentDetails(part)};
	}
}

/** An image or file part: its type, where it is, how much data it holds; never the bytes. */
function attachmentDetails(part: unknown): string[] {
	const details: string[] = [];
	const mimeType = stringField(part, 'mimeType');
	if (mimeType !== undefined) details.push(mimeType);
	const url = stringField(part, 'url');
	if (url !== undefined) details.push(url);
	for (const key of ['encodedData', 'data']) {
		const data = stringField(part, key);
		if (data !== undefined) details.push(`${data.length} characters of data`);
	}

	return details;
}

function idsOf(messages: readonly unknown[]): Set<string> {
	const ids = new Set<string>();
	for (const message of messages) {
		const id = stringField(message, 'id');
		if (id !== undefined) ids.add(id);
	}

	return ids;
}

function stringField(value: unknown, key: string): string | undefined {
	const found = field(value, key);
	return typeof found === 'string' ? found : undefined;
}

function arrayField(value: unknown, key: string): unknown[] {
	const found = field(value, key);
	return Array.isArray(found) ? found : [];
}
