import {describe, expect, it} from 'vitest';
import {conversationLines, conversationText, foldHead, foldTail, maxLineChars, maxUnfoldedLineChars, systemPromptLines} from './conversation.js';

const heading = {runId: 'run-1', expertKey: 'writer', step: 2, where: 'line 7'};

const text = (value: string, id: string) => ({type: 'textPart', id: `p-${id}`, text: value});
const system = {type: 'instructionMessage', id: 'm1', contents: [text('You are an expert.', '1')]};
const user = {type: 'userMessage', id: 'm2', contents: [text('Write a poem.', '2')]};
const call = {
	type: 'expertMessage',
	id: 'm3',
	contents: [
		{type: 'thinkingPart', id: 'p3', thinking: 'A short one.'},
		{type: 'toolCallPart', id: 'p4', toolCallId: 'call-1', toolName: 'writeTextFile', args: {path: 'poem.md', text: 'roses\nviolets\n'}},
	],
};
const result = {
	type: 'toolMessage',
	id: 'm4',
	contents: [{type: 'toolResultPart', id: 'p5', toolCallId: 'call-1', toolName: 'writeTextFile', contents: [text('{"ok":true}', '6')]}],
};
const answer = {type: 'expertMessage', id: 'm5', contents: [text('Done: poem.md.', '7')]};
const usage = {inputTokens: 120, outputTokens: 30, reasoningTokens: 5, totalTokens: 150, cachedInputTokens: 100};

function stepEnd(given: unknown[], added: unknown[], input: unknown[] = []): string {
	return JSON.stringify({
		type: 'continueToNextStep',
		checkpoint: {messages: [...given, ...added]},
		step: {stepNumber: 2, inputMessages: input, newMessages: added, usage},
	});
}

describe('conversationLines', () => {
	it('shows what the model was given, then what the step added, marked new, with the step’s tokens', () => {
		expect(conversationText(conversationLines(stepEnd([system, user, call, result], [answer]), heading))).toBe(
			[
				'  conversation of run run-1 (writer) at step 2',
				'  from line 7 (continueToNextStep)',
				'  tokens this step: 120 input · 30 output · 5 reasoning · 100 cached input',
				'  given to the model: 4 messages · added by the step: 1 message · lines new at this step are marked +',
				'  ',
				'  ── given to the model ──',
				'  #1 system',
				'    You are an expert.',
				'  #2 user',
				'    Write a poem.',
				'  #3 assistant',
				'    thinking',
				'      A short one.',
				'    call writeTextFile · call-1',
				'      {',
				'        "path": "poem.md",',
				'        "text": |',
				'          roses',
				'          violets',
				'      }',
				'  #4 tool',
				'    result of writeTextFile · call-1',
				'      {"ok":true}',
				'  ',
				'+ ── new at this step: the answer and its tools’ results ──',
				'+ #5 assistant',
				'+   Done: poem.md.',
				'',
			].join('\n'),
		);
	});

	it('marks the step’s own input (the first query) as new among what the model was given', () => {
		const lines = conversationLines(stepEnd([system, user], [call, result], [system, user]), heading);
		expect(lines.filter(line => line.isNew && line.tone === 'heading').map(line => line.text)).toEqual([
			'#1 system',
			'#2 user',
			'── new at this step: the answer and its tools’ results ──',
			'#3 assistant',
			'#4 tool',
		]);
		expect(lines.map(line => line.text)).toContain(
			'given to the model: 2 messages (2 new at this step) · added by the step: 2 messages · lines new at this step are marked +',
		);
	});

	it('says when the model was not called at a step (a delegate’s result came back)', () => {
		const texts = conversationLines(stepEnd([system, user, call], [result]), heading).map(line => line.text);
		expect(texts).toContain('── new at this step (the model was not called: tool results only) ──');
	});

	it('says when the step ended without an answer, and the error it ended with (a provider error)', () => {
		const lines = conversationLines(
			JSON.stringify({
				type: 'stopRunByError',
				checkpoint: {messages: [system, user]},
				step: {newMessages: [], inputMessages: []},
				error: {name: 'AI_NoOutputGeneratedError', message: 'No output generated.'},
			}),
			heading,
		);
		expect(lines.slice(-3)).toEqual([
			{text: '── new at this step ──', isNew: true, tone: 'heading'},
			{text: '(nothing: the step ended without an answer)', isNew: true, tone: 'dim'},
			{text: 'error: AI_NoOutputGeneratedError: No output generated.', isNew: true},
		]);
		expect(lines.map(line => line.text)).toContain('tokens this step: not reported');
	});

	it('shows a running step from its startGeneration: the messages given, no answer yet', () => {
		const texts = conversationLines(JSON.stringify({type: 'startGeneration', messages: [system, user]}), heading).map(line => line.text);
		expect(texts).toContain('given to the model: 2 messages · the step has not ended in the log: no answer yet');
		expect(texts.at(-1)).toBe('  Write a poem.');
	});

	it('says so for a line that holds no messages or is not JSON', () => {
		expect(conversationLines(JSON.stringify({type: 'callTools'}), heading).at(-1)?.text).toBe('The callTools event holds no messages.');
		expect(conversationLines('{"type":', heading).at(-1)?.text).toBe('The line is not JSON: it holds no messages to show.');
	});

	it('folds the system prompt to its first lines', () => {
		const prompt = Array.from({length: 50}, (_, index) => `rule ${index + 1}`).join('\n');
		const texts = conversationLines(stepEnd([{type: 'instructionMessage', id: 's', contents: [text(prompt, 's')]}], []), heading).map(line => line.text);
		const start = texts.indexOf('#1 system');
		expect(texts.slice(start + 1, start + 2 + systemPromptLines)).toEqual([
			...Array.from({length: systemPromptLines}, (_, index) => `  rule ${index + 1}`),
			`  … ${50 - systemPromptLines} lines left out … (the rest of the system prompt)`,
		]);
	});

	it('folds a long tool result (a 50 KB file read) to its head and tail with a count, and cuts a very long line', () => {
		const file = Array.from({length: 1000}, (_, index) => `line ${index + 1} ${'x'.repeat(40)}`).join('\n');
		const read = {
			type: 'toolMessage',
			id: 't',
			contents: [{type: 'toolResultPart', id: 'r', toolCallId: 'c', toolName: 'readTextFile', contents: [text(file, 'f')]}],
		};
		const texts = conversationLines(stepEnd([user], [read]), heading).map(line => line.text);
		expect(file.length).toBeGreaterThan(45_000);
		expect(texts).toContain(`    … ${1000 - foldHead - foldTail} lines left out …`);
		expect(texts).toContain(`    line 1 ${'x'.repeat(40)}`);
		expect(texts).toContain(`    line 1000 ${'x'.repeat(40)}`);
		expect(texts).not.toContain(`    line 500 ${'x'.repeat(40)}`);
		const long = conversationLines(stepEnd([{type: 'userMessage', id: 'u', contents: [text('y'.repeat(50_000), 'y')]}], []), heading).map(line => line.text);
		const cut = long.find(line => line.includes('characters left out'));
		expect(cut).toBe(`  ${'y'.repeat(1500)} … ${50_000 - 1500 - 300} characters left out … ${'y'.repeat(300)}`);
		expect(cut!.length).toBeLessThan(maxLineChars + 100);
	});

	it('#32 §3.7 decodes a tool result that is JSON holding text into its lines, with no \\n escapes', () => {
		// As the real runtime answers a file read (fixtures/real/delegate-chain.ndjson).
		const content = JSON.stringify({path: 'facts.md', content: '# Facts\n- Notes need search.\n- Notes need sync.\n', from: 0, to: 4});
		const read = {
			type: 'toolMessage',
			id: 't',
			contents: [{type: 'toolResultPart', id: 'r', toolCallId: 'c', toolName: 'readTextFile', contents: [text(content, 'f')]}],
		};
		const texts = conversationLines(stepEnd([user], [read]), heading).map(line => line.text);
		expect(texts.join('\n')).not.toContain('\\n');
		const start = texts.indexOf('  result of readTextFile · c');
		expect(texts.slice(start + 1, start + 10)).toEqual([
			'    {',
			'      "path": "facts.md",',
			'      "content": |',
			'        # Facts',
			'        - Notes need search.',
			'        - Notes need sync.',
			'      "from": 0,',
			'      "to": 4',
			'    }',
		]);
		// A result that is one JSON string is its lines; a one-line result stays as it came.
		const quoted = {
			type: 'toolMessage',
			id: 'q',
			contents: [{type: 'toolResultPart', id: 'r', toolCallId: 'c', toolName: 'exec', contents: [text(JSON.stringify('one\ntwo'), 'g')]}],
		};
		expect(conversationLines(stepEnd([user], [quoted]), heading).map(line => line.text)).toEqual(expect.arrayContaining(['    one', '    two']));
		expect(conversationLines(stepEnd([user], [result]), heading).map(line => line.text)).toContain('    {"ok":true}');
	});

	it('names attachments instead of printing their bytes', () => {
		const image = {type: 'userMessage', id: 'i', contents: [{type: 'imageInlinePart', id: 'x', mimeType: 'image/png', encodedData: 'A'.repeat(9000)}]};
		expect(conversationLines(stepEnd([image], []), heading).map(line => line.text)).toContain('  [imageInlinePart: image/png, 9000 characters of data]');
	});

	it('makes every text from the log inert for the terminal', () => {
		const hostile = {type: 'userMessage', id: 'h', contents: [text('\u001B[31mred\u001B]0;title\u0007 \u202Eevil', 'h')]};
		const output = conversationText(conversationLines(stepEnd([hostile], [], []), {...heading, expertKey: 'x\u001B[2J'}));
		expect(output).not.toMatch(/[\u001B\u0007\u202E]/u);
		expect(output).toContain('␛[31mred');
	});

	it('survives messages of any shape', () => {
		const odd = [
			null,
			7,
			'text',
			{type: 'userMessage', contents: 'plain'},
			{type: 'expertMessage', contents: [null, {type: 'toolCallPart'}]},
			{contents: [{}]},
		];
		const texts = conversationLines(stepEnd(odd, []), heading).map(line => line.text);
		expect(texts).toContain('#4 user');
		expect(texts).toContain('  plain');
		expect(texts).toContain('  call ? · ?');
		expect(texts).toContain('#6 ?');
	});

	it('unfolded, shows the whole system prompt and every line of a long content, and cuts only a very long line', () => {
		const prompt = Array.from({length: 50}, (_, index) => `rule ${index + 1}`).join('\n');
		const file = Array.from({length: 1000}, (_, index) => `line ${index + 1}`).join('\n');
		const given = [
			{type: 'instructionMessage', id: 's', contents: [text(prompt, 's')]},
			{type: 'userMessage', id: 'u', contents: [text(file, 'f'), text('z'.repeat(50_000), 'z')]},
		];
		const texts = conversationLines(stepEnd(given, []), heading, {unfolded: true}).map(line => line.text);
		expect(texts).toContain('  rule 50');
		expect(texts).toContain('  line 500');
		expect(texts.filter(line => line.includes('lines left out'))).toEqual([]);
		const cut = texts.find(line => line.includes('characters left out'));
		expect(cut?.length).toBeLessThan(maxUnfoldedLineChars + 100);
		expect(cut?.length).toBeGreaterThan(maxUnfoldedLineChars / 2);
	});
});
