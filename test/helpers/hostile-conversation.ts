import {attack, hostile} from '../safety/hostile-log.js';

/*
 * A run whose every message string tries to take over the terminal: texts, thinking, tool names and ids,
 * argument keys and values, attachment types, the run id and expert key. For the conversation view and
 * `--conversation`, which show the messages that the rest of perscope never reads.
 */

export const hostileRunId = `run-${attack}`;

function part(field: string) {
	return {type: 'textPart', id: hostile(`${field}Id`), text: `${hostile(field)}\nsecond line ${hostile(`${field}2`)}`};
}

export function hostileConversationLines(): string[] {
	const base = {jobId: 'job-1', runId: hostileRunId, expertKey: hostile('expertKey'), stepNumber: 1};
	const given = [
		{type: 'instructionMessage', id: 'm1', contents: [part('system')]},
		{
			type: 'userMessage',
			id: 'm2',
			contents: [part('user'), {type: 'imageInlinePart', id: 'i', mimeType: hostile('mimeType'), encodedData: attack}, {type: hostile('partType'), id: 'x'}],
		},
	];
	const added = [
		{
			type: 'expertMessage',
			id: 'm3',
			contents: [
				{type: 'thinkingPart', id: 't', thinking: hostile('thinking')},
				{
					type: 'toolCallPart',
					id: 'c',
					toolCallId: hostile('toolCallId'),
					toolName: hostile('toolName'),
					args: {[hostile('argKey')]: hostile('argValue'), script: `${hostile('script')}\n${attack}`},
				},
			],
		},
		{
			type: 'toolMessage',
			id: 'm4',
			contents: [{type: 'toolResultPart', id: 'r', toolCallId: hostile('resultCallId'), toolName: hostile('resultTool'), contents: [part('result')]}],
		},
		{type: hostile('messageType'), id: 'm5', contents: [part('odd')]},
	];
	return [
		JSON.stringify({
			type: 'startRun',
			id: 'e1',
			...base,
			initialCheckpoint: {id: 'cp0', runId: hostileRunId, status: 'init', stepNumber: 1},
			inputMessages: given,
		}),
		JSON.stringify({type: 'startGeneration', id: 'e2', ...base, messages: given}),
		JSON.stringify({
			type: 'completeRun',
			id: 'e3',
			...base,
			text: hostile('answer'),
			checkpoint: {id: 'cp1', runId: hostileRunId, status: 'completed', stepNumber: 1, messages: [...given, ...added]},
			step: {
				stepNumber: 1,
				inputMessages: given,
				newMessages: added,
				usage: {inputTokens: 1, outputTokens: 2, reasoningTokens: 0, totalTokens: 3, cachedInputTokens: 0},
			},
		}),
	];
}
