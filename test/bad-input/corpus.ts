/*
 * The bad-input corpus. Each case is a handful of bad lines set in the middle of a small valid run, so a
 * test can check three things at once: nothing throws, each bad line is a diagnostic with its own line
 * number (or, where the line is still a usable event, is reduced), and every valid event around the bad
 * ones still makes it into the model.
 */

export type BadLine = string | Buffer;

export type Case = {
	name: string;
	lines: BadLine[];
	/** For each bad line, whether it must become a diagnostic (false: it is read as an event). */
	diagnostic: boolean[];
};

const base = {expertKey: 'expert', jobId: 'job-1', runId: 'run-1'};

export function event(type: string, fields: Record<string, unknown> = {}, id = `${type}-${fields['stepNumber'] ?? 1}`): string {
	return JSON.stringify({type, id, timestamp: 1_700_000_000_000, stepNumber: 1, ...base, ...fields});
}

/** The valid run every case sits in: a query, an `exec` with its result, and a completion. */
export const before = [
	event('startRun', {
		initialCheckpoint: {status: 'init', stepNumber: 1},
		inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: 'run the tests'}]}],
	}),
	event('callTools', {toolCalls: [{id: 'call-1', skillName: '@perstack/base', toolName: 'exec', args: {command: 'npm', args: ['test']}}]}),
];

export const after = [
	event('resolveToolResults', {toolResults: [{id: 'call-1', skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', text: 'ok'}]}]}),
	event('completeRun', {checkpoint: {status: 'completed', stepNumber: 1}, text: 'all green', step: {usage: {inputTokens: 10, outputTokens: 2}}}),
];

/** 1-based line number of the n-th bad line. */
export function badLineNumber(n: number): number {
	return before.length + 1 + n;
}

export function framed(lines: BadLine[], lineEnd = '\n'): Buffer {
	return Buffer.concat([...before, ...lines, ...after].flatMap(line => [typeof line === 'string' ? Buffer.from(line) : line, Buffer.from(lineEnd)]));
}

export function nested(depth: number, leaf = '1'): string {
	return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

const deep = 100_000;

export const corpus: Case[] = [
	{name: 'non-JSON text', lines: ['hello, world', 'ERROR: something happened', '<html>'], diagnostic: [true, true, true]},
	{
		name: 'truncated JSON',
		lines: [event('retry', {reason: 'cut'}).slice(0, 40), '{', '{"type":"retry","runId":"run-1","reason":"unterminated'],
		diagnostic: [true, true, true],
	},
	{
		name: 'binary garbage',
		lines: [
			Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x7f, 0x1b, 0x5b, 0x32, 0x4a, 0x80, 0x9b]),
			Buffer.from(Array.from({length: 4096}, (_, i) => (i * 37 + 11) % 256).filter(byte => byte !== 10)),
		],
		diagnostic: [true, true],
	},
	{
		name: 'invalid UTF-8 (inside a string the event survives with U+FFFD; outside, the line is a diagnostic)',
		lines: [
			Buffer.concat([
				Buffer.from('{"type":"retry","id":"bad-utf8","runId":"run-1","expertKey":"expert","reason":"caf'),
				Buffer.from([0xc3, 0x28, 0xff]),
				Buffer.from('"}'),
			]),
			Buffer.concat([Buffer.from('{"type":"retry",'), Buffer.from([0xff, 0xfe]), Buffer.from('"runId":"run-1"}')]),
		],
		diagnostic: [false, true],
	},
	{name: 'JSON nested 100,000 levels deep', lines: [nested(deep), '['.repeat(deep) + ']'.repeat(deep)], diagnostic: [true, true]},
	{
		name: 'valid JSON that is not an object',
		lines: ['[1,2,3]', 'null', '42', '"a string"', 'true', '[]'],
		diagnostic: [true, true, true, true, true, true],
	},
	{
		name: 'known types with fields of the wrong type',
		lines: [
			event('callTools', {toolCalls: 'not an array'}, 'x1'),
			event('startRun', {initialCheckpoint: 5}, 'x2'),
			event('streamRunResult', {delta: 5}, 'x3'),
			event('callTools', {toolCalls: [{id: 7, toolName: 'exec'}]}, 'x4'),
			JSON.stringify({kind: 'tool_call_start', runId: 'drover-1', toolUseId: 1, toolName: 'grep'}),
			JSON.stringify({type: 'step_started', runId: 'daemon-1', stepName: ['not', 'a', 'string']}),
		],
		diagnostic: [true, true, true, true, true, true],
	},
	{
		name: 'known types with required fields missing',
		lines: [
			JSON.stringify({type: 'callTools', id: 'm1', jobId: 'job-1', expertKey: 'expert'}),
			event('completeRun', {checkpoint: undefined}, 'm2'),
			event('resolveToolResults', {toolResults: [{result: 'no id'}]}, 'm3'),
			JSON.stringify({kind: 'subagent_start', runId: 'drover-1'}),
		],
		diagnostic: [true, true, true, true],
	},
	{
		name: 'fields a viewer never needs may be missing or odd',
		lines: [
			JSON.stringify({type: 'retry', runId: 'run-1'}),
			event('retry', {reason: 'r', stepNumber: 'not a number', timestamp: 'not a time', usage: {inputTokens: 'lots'}}, 'odd-1'),
		],
		// A step number that is not one is read as none, and said (issue #34); the event is kept.
		diagnostic: [false, true],
	},
	{
		name: 'unknown types',
		lines: [
			event('startPlanning', {plan: [1, 2]}, 'u1'),
			JSON.stringify({kind: 'brand_new_kind', runId: 'drover-1', ts: 1}),
			JSON.stringify({type: 'futureDaemonEvent', runId: 'daemon-1'}),
		],
		diagnostic: [false, false, false],
	},
	{
		name: 'duplicate event ids',
		lines: [event('retry', {reason: 'first'}, 'dup'), event('retry', {reason: 'second'}, 'dup'), event('retry', {reason: 'third'}, 'dup')],
		diagnostic: [false, true, true],
	},
	{name: 'duplicate lines', lines: [before[1]!, before[1]!], diagnostic: [true, true]},
	{
		name: 'numbers as strings, negative, huge and NaN-like',
		lines: [
			event('retry', {reason: 'string step', stepNumber: '1'}, 'n1'),
			event('retry', {reason: 'negative step', stepNumber: -5}, 'n2'),
			event('retry', {reason: 'huge step', stepNumber: 1e308}, 'n3'),
			event('retry', {reason: 'NaN step', stepNumber: 'NaN', timestamp: 'Infinity'}, 'n4'),
			event('retry', {reason: 'huge time', timestamp: 1e308}, 'n5'),
			event('retry', {reason: 'negative time', timestamp: -1}, 'n6'),
		],
		// Negative, too large and NaN-like step numbers are no step numbers: each is said (issue #34).
		diagnostic: [false, true, true, true, false, false],
	},
	{name: 'blank and whitespace-only lines are skipped, not diagnosed', lines: ['', '   ', '\t', '\r'], diagnostic: []},
];
