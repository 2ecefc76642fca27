import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {lineOffsetOf} from '../../../../test/helpers/recorded-layout.js';
import {fixturePath} from '../../../../test/helpers/load.js';
import type {ConversationMessage} from '../../../model/conversation.js';
import {ended} from '../../../../test/helpers/conversation-step.js';
import {rolloutConversation} from './conversation.js';

/*
 * A step's conversation from a Codex session's rollout, on the real 0.171.0 rollouts (fixtures/codex/rollout-*.jsonl):
 * the figures below are read off the raw lines.
 */

const rollout = readFileSync(fixturePath('codex/rollout-edit-and-test.jsonl'));

function brief(messages: readonly ConversationMessage[]): string[] {
	return messages.map(message => {
		const held =
			typeof message.contents === 'string'
				? message.contents.split('\n')[0]
				: message.contents
						.map(part => (part.kind === 'call' || part.kind === 'result' ? `${part.kind} ${part.toolName} ${part.callId}` : `${part.kind}`))
						.join(' | ');
		return `${message.isNewInput ? '+' : ''}${message.role}: ${held}`;
	});
}

describe('a step’s conversation from a Codex rollout', () => {
	it('gives the instructions, the context, the prompt and the earlier responses; adds the response and its calls’ outputs', () => {
		// The first turn's second response: a message, then the apply_patch call, then its output.
		const step = ended(rolloutConversation(rollout, lineOffsetOf(rollout, '"id":"msg_0006","role":"assistant"')));
		expect(brief(step.given)).toEqual([
			'system: text | text | text',
			'context: <environment_context>',
			'user: Fix the greeting in greet.txt and check it.',
			'assistant: thinking | call exec_command call_0004',
			'tool: result exec_command call_0004',
		]);
		expect(brief(step.added)).toEqual(['assistant: text | call apply_patch call_0008', 'tool: result apply_patch call_0008']);
		// Its token_count: 1,000 input (250 cached), 50 output (20 reasoning).
		expect(step.usage).toEqual({inputTokens: 1000, outputTokens: 50, reasoningTokens: 20, cachedInputTokens: 250});
	});

	it('marks the prompt new at the turn’s first step, and gives a later turn all the turns before it', () => {
		const first = ended(rolloutConversation(rollout, lineOffsetOf(rollout, '"type":"response_item","payload":{"type":"reasoning","id":"rs_0002"')));
		expect(brief(first.given).at(-1)).toBe('+user: Fix the greeting in greet.txt and check it.');
		const second = ended(rolloutConversation(rollout, lineOffsetOf(rollout, '"type":"response_item","payload":{"type":"custom_tool_call","id":"ctc_0016"')));
		expect(brief(second.given).slice(-3)).toEqual(['tool: result exec_command call_0011', 'assistant: thinking | text', '+user: Now add a farewell file.']);
		expect(second.given.filter(message => message.role === 'user')).toHaveLength(2);
	});

	it('after a compaction, gives what it kept (its replacement history, else its summary) and what came after, not what it replaced', () => {
		const line = (type: string, payload: object) => JSON.stringify({timestamp: '2026-11-29T19:21:04.000Z', type, payload});
		const user = (text: string) => line('response_item', {type: 'message', role: 'user', content: [{type: 'input_text', text}]});
		const answer = (text: string) => line('response_item', {type: 'message', role: 'assistant', content: [{type: 'output_text', text}]});
		const withSummary = Buffer.from(
			`${[user('Before the compaction.'), answer('Long ago.'), line('compacted', {message: 'A file was fixed.'}), user('Go on.'), answer('Going on.')].join('\n')}\n`,
		);
		const summarised = ended(rolloutConversation(withSummary, lineOffsetOf(withSummary, 'Going on.')));
		expect(brief(summarised.given)).toEqual(['+context: the conversation so far, compacted:', '+user: Go on.']);
		const withHistory = Buffer.from(
			`${[user('Before.'), line('compacted', {message: '', replacement_history: [JSON.parse(user('Kept prompt.')).payload]}), answer('After.')].join('\n')}\n`,
		);
		expect(brief(ended(rolloutConversation(withHistory, lineOffsetOf(withHistory, 'After.'))).given)).toEqual(['+user: Kept prompt.']);
	});

	it('says so when the step’s line is no longer where it was', () => {
		expect(rolloutConversation(rollout, 3).kind).toBe('none');
	});
});
