import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {EventRef, ParsedLine} from '../model/events.js';
import {parseLine} from './normalise.js';
import {streamEvent, StreamLines, streamTypes} from './stream-line.js';
import {root} from '../../test/helpers/fixture-files.js';

/*
 * Streaming lines (most lines of a Perstack log) are read straight from their bytes when they are in exactly
 * the runtime's own form. Such a line must give the very event parseLine gives; any other line is refused,
 * and left to parseLine.
 */

const ref: EventRef = {source: 'tools.ndjson', line: 6, offset: 0};

function fields(type: string, payload?: Record<string, string>): Record<string, unknown> {
	return {
		type,
		id: 'kweg3c1amxqx0tkg436avdxm',
		expertKey: 'tools-expert',
		timestamp: 1_795_295_407_377,
		jobId: 'b2fwhf59aodv6fdg26asw5z4',
		runId: 'yx0qylj95kkijg52otg17vwe',
		stepNumber: 1,
		...payload,
	};
}

/** A streaming line as the runtime writes it: keys in its order, no whitespace. */
function runtimeLine(type = 'streamReasoning', payload: Record<string, string> = {delta: ' wants a'}): string {
	return JSON.stringify(fields(type, payload));
}

function match(lines: StreamLines, text: string, at: EventRef = ref) {
	const bytes = Buffer.from(text);
	return lines.match(bytes, 0, bytes.length, at);
}

function plainEvent(text: string, at: EventRef = ref): ParsedLine {
	return parseLine({...at, text});
}

describe('StreamLines', () => {
	it('reads every streaming line of a real log into the event parseLine gives', () => {
		const lines = new StreamLines();
		const log = readFileSync(join(root, 'fixtures/real/tools.ndjson'), 'utf8').split('\n').filter(Boolean);
		let matched = 0;
		for (const [index, text] of log.entries()) {
			const at = {source: 'tools.ndjson', line: index + 1, offset: 0};
			const read = match(lines, text, at);
			const isStreaming = streamTypes.some(type => text.startsWith(`{"type":"${type}"`));
			expect(read !== undefined, text).toBe(isStreaming);
			if (!read) continue;
			matched++;
			expect({kind: 'event', event: streamEvent(read, at)}).toStrictEqual(plainEvent(text, at));
		}

		// The 67 reasoning deltas, 10 result deltas and their starts and ends.
		expect(matched).toBe(93);
	});

	it('reads each of the six streaming types, with its text or none for a start', () => {
		const lines = new StreamLines();
		expect(match(lines, runtimeLine('startStreamingReasoning', {}))).toMatchObject({type: 'startStreamingReasoning', text: ''});
		expect(match(lines, runtimeLine('streamReasoning', {delta: 'think'}))).toMatchObject({type: 'streamReasoning', text: 'think'});
		expect(match(lines, runtimeLine('completeStreamingReasoning', {text: 'thought'}))).toMatchObject({type: 'completeStreamingReasoning', text: 'thought'});
		expect(match(lines, runtimeLine('startStreamingRunResult', {}))).toMatchObject({type: 'startStreamingRunResult', text: ''});
		expect(match(lines, runtimeLine('streamRunResult', {delta: 'ans'}))).toMatchObject({type: 'streamRunResult', text: 'ans'});
		expect(match(lines, runtimeLine('completeStreamingRunResult', {text: 'answer'}))).toMatchObject({type: 'completeStreamingRunResult', text: 'answer'});
	});

	it('gives the event of each type as parseLine does: channel, phase and text', () => {
		const lines = new StreamLines();
		for (const type of streamTypes) {
			const payload: Record<string, string> = type.startsWith('start') ? {} : type.startsWith('stream') ? {delta: 'δ'} : {text: 'all of it'};
			const text = runtimeLine(type, payload);
			const read = match(lines, text);
			expect(read, type).toBeDefined();
			if (read) expect({kind: 'event', event: streamEvent(read, ref)}).toStrictEqual(plainEvent(text));
		}
	});

	it('decodes escapes and non-ASCII text as JSON.parse does', () => {
		const lines = new StreamLines();
		const delta = 'line one\nsaid "hi" \\ tab\there: é 日本 😀 \u0001 </script>';
		const text = runtimeLine('streamRunResult', {delta});
		expect(text).toContain('\\u0001');
		expect(match(lines, text)?.text).toBe(delta);
		expect(match(lines, runtimeLine('streamRunResult', {delta: 'x'}).replace('"delta":"x"', '"delta":"\\u00e9\\/"'))?.text).toBe('é/');
	});

	it('gives each line its own run, job and expert, even when they change from one line to the next', () => {
		const lines = new StreamLines();
		const first = match(lines, JSON.stringify({...fields('streamReasoning'), runId: 'run-aaaa', jobId: 'job-1', expertKey: 'alpha', delta: 'a'}));
		const second = match(lines, JSON.stringify({...fields('streamReasoning'), runId: 'run-bbbb', jobId: 'job-2', expertKey: 'bravo', delta: 'b'}));
		const third = match(lines, JSON.stringify({...fields('streamReasoning'), runId: 'run-bbbb', jobId: 'job-2', expertKey: 'bravo', delta: 'c'}));
		expect(first).toMatchObject({runId: 'run-aaaa', jobId: 'job-1', expertKey: 'alpha'});
		expect(second).toMatchObject({runId: 'run-bbbb', jobId: 'job-2', expertKey: 'bravo'});
		expect(third).toMatchObject({runId: 'run-bbbb', jobId: 'job-2', expertKey: 'bravo', text: 'c'});
	});

	it('does not mistake a run id for the longer one before it that it is the start of', () => {
		const lines = new StreamLines();
		expect(match(lines, JSON.stringify({...fields('streamReasoning'), runId: 'run-12', delta: 'a'}))).toMatchObject({runId: 'run-12'});
		expect(match(lines, JSON.stringify({...fields('streamReasoning'), runId: 'run-1', delta: 'b'}))).toMatchObject({runId: 'run-1'});
	});

	it('reads a line in the middle of a larger buffer, by its bounds', () => {
		const lines = new StreamLines();
		const text = runtimeLine();
		const bytes = Buffer.from(`${runtimeLine('streamReasoning', {delta: 'before'})}\n${text}\n{"type":"after"}\n`);
		const start = bytes.indexOf('\n') + 1;
		expect(lines.match(bytes, start, start + Buffer.byteLength(text), ref)).toMatchObject({text: ' wants a'});
	});

	it('reads negative and zero whole numbers as JSON does', () => {
		const lines = new StreamLines();
		expect(match(lines, runtimeLine().replace('"stepNumber":1', '"stepNumber":0'))).toMatchObject({stepNumber: 0});
		expect(match(lines, runtimeLine().replace('"timestamp":1795295407377', '"timestamp":-5'))).toMatchObject({timestamp: -5});
	});

	describe('refuses, leaving it to parseLine, a line', () => {
		const base = runtimeLine();
		const refused: Array<[string, string]> = [
			['of a type that is not streaming', runtimeLine('callTools', {delta: 'x'})],
			['of a type that only starts like a streaming one', base.replace('"streamReasoning"', '"streamReasoningX"')],
			['with whitespace between its fields', base.replace(',"id":', ', "id":')],
			[
				'with its keys in another order',
				JSON.stringify({id: 'e', type: 'streamReasoning', expertKey: 'w', timestamp: 1, jobId: 'j', runId: 'r', stepNumber: 1, delta: 'd'}),
			],
			['with a key more', base.replace('}', ',"extra":1}')],
			['without the payload its type has', runtimeLine('streamReasoning', {})],
			['with the other type’s payload key', runtimeLine('streamReasoning', {text: 'x'})],
			['with a fraction for a number', base.replace('"stepNumber":1', '"stepNumber":1.5')],
			['with an exponent for a number', base.replace('"stepNumber":1', '"stepNumber":1e0')],
			['with a number of more than 15 digits', base.replace('1795295407377', '1795295407377000')],
			['with a number written with a leading zero', base.replace('"stepNumber":1', '"stepNumber":01')],
			['with a number sent as a string', base.replace('"stepNumber":1', '"stepNumber":"1"')],
			['with a string that is not a string', base.replace('"jobId":"b2fwhf59aodv6fdg26asw5z4"', '"jobId":null')],
			['with an escape JSON does not have', base.replace(' wants a', '\\x41')],
			['with a short unicode escape', base.replace(' wants a', '\\u00e')],
			['with a raw control character in a string', base.replace(' wants a', 'tab\there')],
			['with anything after its closing brace', `${base} `],
			['cut short', base.slice(0, -2)],
			['that is empty', ''],
		];

		it.each(refused)('%s', (_name, text) => {
			expect(match(new StreamLines(), text)).toBeUndefined();
		});

		it('while parseLine still reads a valid event written another way into the same stream event', () => {
			const sameEvent = plainEvent(base);
			expect(sameEvent).toMatchObject({kind: 'event', event: {kind: 'stream', channel: 'reasoning', phase: 'delta', text: ' wants a'}});
			expect(plainEvent(base.replace(',"id":', ', "id":'))).toStrictEqual(sameEvent);
			expect(plainEvent(base.replace('}', ',"extra":1}'))).toStrictEqual(sameEvent);
			expect(plainEvent(base.replace('"stepNumber":1', '"stepNumber":1e0'))).toStrictEqual(sameEvent);
		});
	});

	it("reads a run, job or expert that begins with the last line's as itself, not as the last line's", () => {
		const lines = new StreamLines();
		const first = runtimeLine();
		expect(match(lines, first)?.runId).toBe('yx0qylj95kkijg52otg17vwe');
		for (const [key, longer] of [
			['runId', 'yx0qylj95kkijg52otg17vwe-2'],
			['jobId', 'b2fwhf59aodv6fdg26asw5z4x'],
			['expertKey', 'tools-expert@1'],
		] as const) {
			const text = JSON.stringify({...fields('streamReasoning', {delta: 'x'}), [key]: longer});
			const read = match(lines, text);
			expect(read?.[key]).toBe(longer);
			const plain = plainEvent(text);
			expect(read && streamEvent(read, ref)).toStrictEqual(plain.kind === 'event' ? plain.event : undefined);
			// And back to the shorter one.
			expect(match(lines, first)?.[key]).toBe(fields('streamReasoning')[key]);
		}
	});
});
