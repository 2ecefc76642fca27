import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {lineOffsetOf} from '../../../../test/helpers/recorded-layout.js';
import type {ConversationMessage} from '../../../model/conversation.js';
import {ended} from '../../../../test/helpers/conversation-step.js';
import {transcriptConversation} from './conversation.js';

/*
 * A step's conversation from a Claude Code transcript, on the real 2.1.197 recordings
 * (fixtures/claude-code/session-transcript-*): the figures below are read off the raw lines.
 */

const fixtures = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'claude-code');
const read = (name: string) => readFileSync(join(fixtures, name));

/** Each message as `role: what it holds`, in one line. */
function brief(messages: readonly ConversationMessage[]): string[] {
	return messages.map(message => {
		const held =
			typeof message.contents === 'string'
				? message.contents.split('\n')[0]
				: message.contents
						.map(part => {
							switch (part.kind) {
								case 'text':
								case 'thinking':
									return `${part.kind} ${part.text}`;
								case 'call':
									return `call ${part.toolName} ${part.callId}`;
								case 'result':
									return `result of ${part.toolName} ${part.callId}`;
								case 'attachment':
									return `[${part.type}]`;
							}
						})
						.join(' | ');
		return `${message.isNewInput ? '+' : ''}${message.role}: ${held}`;
	});
}

describe('a step’s conversation from a Claude Code transcript', () => {
	const resumed = read('session-transcript-resumed-cc2.1.197.ndjson');

	it('gives the model the run’s messages before the step, the new prompt marked, and adds the step’s answer', () => {
		// The second turn's response (msg_…s2q5j4): the first turn is all given, "Fix it?" is new.
		const step = ended(transcriptConversation(resumed, lineOffsetOf(resumed, '"text":"Fixed nothing yet')));
		expect(brief(step.given)).toEqual([
			'user: What does greet.txt say?',
			'context: agent_listing_delta:',
			'context: skill_listing:',
			'assistant: call Read toolu_mockes2q5j0002',
			'tool: result of Read toolu_mockes2q5j0002',
			'assistant: text It says Helo world.',
			'+user: Fix it?',
		]);
		expect(brief(step.added)).toEqual(['assistant: text Fixed nothing yet; say the word and I will.']);
		// The response's usage as its line reports it: 600 input + 200 written to the cache, 200 read from it, 20 out.
		expect(step.usage).toEqual({inputTokens: 800, outputTokens: 20, reasoningTokens: undefined, cachedInputTokens: 200});
	});

	it('adds a step’s calls and their results, and no more: the next response is the next step’s', () => {
		const step = ended(transcriptConversation(resumed, lineOffsetOf(resumed, '"name":"Read"')));
		expect(brief(step.given)).toEqual(['+user: What does greet.txt say?', '+context: agent_listing_delta:', '+context: skill_listing:']);
		expect(brief(step.added)).toEqual(['assistant: call Read toolu_mockes2q5j0002', 'tool: result of Read toolu_mockes2q5j0002']);
		const result = step.added[1]!.contents;
		expect(typeof result !== 'string' && result[0]?.kind === 'result' && result[0].parts).toEqual([{kind: 'text', text: '1\tHelo world\n2\t'}]);
	});

	it('reads a sub-agent’s steps from its own file, its prompt first', () => {
		const agent = read('session-transcript-cc2.1.197/subagents/agent-a9fb83d788ae2790b.ndjson');
		const answer = ended(transcriptConversation(agent, lineOffsetOf(agent, '"text":"a.txt: 1 line')));
		expect(brief(answer.given)).toEqual([
			'user: Count the lines of each file in notes/ and list them.',
			'context: skill_listing:',
			'assistant: call Bash toolu_mockkqxs130006',
			'tool: result of Bash toolu_mockkqxs130006',
		]);
		expect(brief(answer.added)).toEqual(['assistant: text a.txt: 1 line, b.txt: 3 lines.']);
	});

	it('keeps to the run’s side where sub-agents’ lines are in the session’s file, and starts after a compaction', () => {
		const line = (value: object) => JSON.stringify(value);
		const lines = [
			line({type: 'user', isSidechain: false, message: {role: 'user', content: 'Before the compaction.'}}),
			line({type: 'system', subtype: 'compact_boundary', isSidechain: false}),
			line({type: 'user', isSidechain: false, isCompactSummary: true, message: {role: 'user', content: 'Summary: a file was read.'}}),
			line({type: 'user', isSidechain: false, message: {role: 'user', content: 'Go on.'}}),
			line({type: 'user', isSidechain: true, agentId: 'a1', message: {role: 'user', content: 'A sub-agent’s prompt.'}}),
			line({type: 'assistant', isSidechain: true, agentId: 'a1', message: {id: 'msg_agent', role: 'assistant', content: [{type: 'text', text: 'Agent.'}]}}),
			line({type: 'assistant', isSidechain: false, message: {id: 'msg_main', role: 'assistant', content: [{type: 'thinking', thinking: 'Hm.'}]}}),
			line({type: 'progress', isSidechain: false}),
			line({type: 'assistant', isSidechain: false, message: {id: 'msg_main', role: 'assistant', content: [{type: 'text', text: 'Done.'}]}}),
			line({type: 'user', isSidechain: false, message: {role: 'user', content: 'Next prompt.'}}),
		];
		const bytes = Buffer.from(`${lines.join('\n')}\n`);
		const step = ended(transcriptConversation(bytes, lineOffsetOf(bytes, '"msg_main"')));
		expect(brief(step.given)).toEqual(['+user: Summary: a file was read.', '+user: Go on.']);
		// One response over two lines, a line of another kind between them: one message.
		expect(brief(step.added)).toEqual(['assistant: thinking Hm. | text Done.']);
		expect(step.usage).toBeUndefined();
		const agent = ended(transcriptConversation(bytes, lineOffsetOf(bytes, '"msg_agent"')));
		expect(brief(agent.given)).toEqual(['+user: A sub-agent’s prompt.']);
	});

	it('says so when the step’s line is no longer where it was (the file changed since)', () => {
		expect(transcriptConversation(resumed, 1)).toEqual({
			kind: 'none',
			from: 'transcript',
			why: 'The transcript no longer has this step’s line: it may have changed since.',
		});
		expect(transcriptConversation(resumed, lineOffsetOf(resumed, '"What does greet.txt say?"')).kind).toBe('none');
	});
});
