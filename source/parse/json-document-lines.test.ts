import {describe, expect, it} from 'vitest';
import {JsonDocumentLines} from './json-document-lines.js';

/** What the lines stage hands on for `text`, fed `size` bytes at a time. */
function through(text: string | Buffer, size = Number.POSITIVE_INFINITY): string {
	const pieces: Buffer[] = [];
	const lines = new JsonDocumentLines(bytes => pieces.push(Buffer.from(bytes)));
	const bytes = typeof text === 'string' ? Buffer.from(text) : text;
	const step = Math.min(Math.max(1, size), Math.max(1, bytes.length));
	for (let at = 0; at < bytes.length; at += step) lines.push(bytes.subarray(at, at + step));
	lines.end();
	return Buffer.concat(pieces).toString();
}

/** The non-blank lines handed on. */
function linesOf(text: string | Buffer, size?: number): string[] {
	return through(text, size)
		.split('\n')
		.filter(line => line.trim() !== '');
}

// As claude-code-action writes its execution file: JSON.stringify(messages, null, 2).
const messages = [
	{type: 'system', subtype: 'init', session_id: 's', tools: ['Bash', 'Read'], model: 'claude-sonnet-4-5'},
	{type: 'assistant', message: {content: [{type: 'text', text: 'Brackets ] } [ { and commas , in "quotes" \\ and a\nline break'}]}},
	{type: 'result', subtype: 'success', result: '', total_cost_usd: 0.01, usage: {input_tokens: 3}},
];
const executionFile = JSON.stringify(messages, null, 2);

describe('JSON documents of events, read as lines', () => {
	it('gives each element of a pretty-printed array as one line holding that element', () => {
		expect(linesOf(executionFile).map(line => JSON.parse(line) as unknown)).toEqual(messages);
	});

	it('gives the same however the bytes are cut', () => {
		const whole = through(executionFile);
		for (const size of [1, 2, 3, 7, 64]) expect(through(executionFile, size), `${size} bytes at a time`).toBe(whole);
	});

	it('passes a stream of lines through byte for byte, its leading blank lines and byte order mark too', () => {
		const log = '\uFEFF\n\n{"type":"startRun"}\n[1,2]\n{"type":"x"}';
		expect(through(log)).toBe(log);
		expect(through(log, 1)).toBe(log);
	});

	it('reads arrays one after the other (`cat a.json b.json`), and lines after an array as lines', () => {
		const two = `${JSON.stringify([{a: 1}], null, 2)}\n${JSON.stringify([{b: 2}, {c: 3}])}\n{"d":4}\n`;
		expect(linesOf(two)).toEqual(['{     "a": 1   }', '{"b":2}', '{"c":3}', '{"d":4}']);
	});

	it('gives elements that are not objects as lines of their own, for the parser to report', () => {
		expect(linesOf('[{"one": 1}, 2, "three, ]", [4, [5]], null, {"six": [6]}]')).toEqual(['{"one": 1}', '2', '"three, ]"', '[4, [5]]', 'null', '{"six": [6]}']);
		// An array whose first element is no object is no array of events: a line, for the parser to report.
		expect(through('[1, 2]\n')).toBe('[1, 2]\n');
		expect(linesOf('[]')).toEqual([]);
		expect(linesOf('[ ]\n')).toEqual([]);
	});

	it('ends an array cut short with the element it was in, which the parser then reports', () => {
		const cut = executionFile.slice(0, executionFile.indexOf('"result"') + 4);
		const lines = linesOf(cut);
		expect(lines.slice(0, 2).map(line => JSON.parse(line) as unknown)).toEqual(messages.slice(0, 2));
		expect(lines).toHaveLength(3);
		expect(() => JSON.parse(lines[2]!) as unknown).toThrow();
	});

	it('takes a first line that only starts with a bracket for a line: a command’s log line before its events', () => {
		const log = '[dotenv@17.2.0] injecting env (2) from .env\n{"type":"system"}\n';
		expect(through(log)).toBe(log);
		expect(through(log, 1)).toBe(log);
		const open = '[ \n\n  \n{"type":"system"}\n';
		expect(linesOf(open)).toEqual(['{"type":"system"}']);
		const alone = '[  \n';
		expect(through(alone)).toBe(alone);
		expect(through(alone, 1)).toBe(alone);
		// Blanks after a bracket are looked past only so far.
		const far = `[${' '.repeat(70_000)}{"type":"system"}]\n`;
		expect(through(far)).toBe(far);
	});

	it('reads a pretty-printed object (Gemini CLI’s --output-format json, jq .) as one line, and objects one after another so', () => {
		const output = {session_id: 's', response: 'Fixed it.\n{not: "a brace"}', stats: {models: {'gemini-2.5-pro': {tokens: {input: 10}}}}};
		const pretty = JSON.stringify(output, null, 2);
		expect(linesOf(pretty).map(line => JSON.parse(line) as unknown)).toEqual([output]);
		for (const size of [1, 2, 5]) expect(through(pretty, size), `${size} bytes at a time`).toBe(through(pretty));
		const jq = `${JSON.stringify({type: 'a'}, null, 2)}\n${JSON.stringify({type: 'b', list: [1, {c: 2}]}, null, 4)}\n{"type":"c"}\n`;
		expect(linesOf(jq).map(line => JSON.parse(line) as unknown)).toEqual([{type: 'a'}, {type: 'b', list: [1, {c: 2}]}, {type: 'c'}]);
		// A brace that ends its line after spaces and a carriage return opens one too.
		expect(linesOf('{  \r\n "a": 1\r\n}\r\n').map(line => JSON.parse(line) as unknown)).toEqual([{a: 1}]);
	});

	it('passes lines of events through whatever blanks follow their first brace, and a brace alone at the end as a line', () => {
		for (const log of ['{ "type": "a"}\n{"type":"b"}\n', '{}\n', '{\t"a":1}']) {
			expect(through(log)).toBe(log);
			expect(through(log, 1)).toBe(log);
		}

		expect(through('{  ')).toBe('{  ');
		// A log whose first line is a lone brace (cut short), then lines of events: the brace is a line of its own.
		const cut = '{\n{"type":"a"}\n{"type":"b"}\n';
		expect(through(cut)).toBe(cut);
		expect(through(cut, 1)).toBe(cut);
	});

	it('keeps escaped quotes and backslashes inside strings as they are', () => {
		const tricky = [{text: 'a \\" ] , } \\\\'}, {text: '\\'}];
		expect(linesOf(JSON.stringify(tricky, null, 1)).map(line => JSON.parse(line) as unknown)).toEqual(tricky);
	});
});
