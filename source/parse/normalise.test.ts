import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {Diagnostic, ParsedLine} from '../model/events.js';
import {parseLine, readLine} from './normalise.js';
import {root} from '../../test/helpers/fixture-files.js';

/*
 * parseLine turns every line into exactly one of: an event in its dialect, an unknown but well-formed event,
 * or a diagnostic that names the line. Nothing a line holds makes it throw.
 */

function line(text: string, number = 7): {source: string; line: number; offset: number; text: string} {
	return {source: 'agent.ndjson', line: number, offset: 120, text};
}

function parsed(value: unknown, number = 7): ParsedLine {
	return parseLine(line(typeof value === 'string' ? value : JSON.stringify(value), number));
}

function diagnosticOf(result: ParsedLine): Diagnostic {
	if (result.kind !== 'diagnostic') throw new Error(`expected a diagnostic, got a ${result.event.kind} event`);
	return result.diagnostic;
}

function firstLine(fixture: string): string {
	return readFileSync(join(root, 'fixtures', fixture), 'utf8').split('\n')[0] ?? '';
}

describe('parseLine', () => {
	describe('dialects', () => {
		it('reads a Perstack event, keeping where it came from', () => {
			const result = parseLine(line(firstLine('real/simple.ndjson'), 1));
			expect(result).toMatchObject({
				kind: 'event',
				event: {dialect: 'perstack', wireType: 'initializeRuntime', kind: 'runtimeInit', ref: {source: 'agent.ndjson', line: 1, offset: 120}},
			});
		});

		it('reads a drover event by its `kind`', () => {
			expect(parseLine(line(firstLine('drover-subagent.ndjson')))).toMatchObject({
				kind: 'event',
				event: {dialect: 'drover', wireType: 'run_start', runId: 'gmwjx2f6lfvg2jlrcx4swtni'},
			});
		});

		it('reads a strategy daemon event by its type, when it has no jobId', () => {
			expect(parseLine(line(firstLine('daemon-strategy.ndjson')))).toMatchObject({
				kind: 'event',
				event: {dialect: 'daemon', wireType: 'step_started', runId: 'run_tszj68jv1sda'},
			});
		});

		it('takes a line with both `type` and `kind` as typed, not as drover', () => {
			expect(parsed({type: 'step_started', kind: 'run_start', runId: 'r', stepName: 's', ts: '2026-11-22T10:30:01.000Z'})).toMatchObject({
				event: {dialect: 'daemon'},
			});
		});

		it('reads the same event with and without the fast reader', () => {
			for (const fixture of ['real/tools.ndjson', 'real/delegate.ndjson']) {
				for (const text of readFileSync(join(root, 'fixtures', fixture), 'utf8')
					.split('\n')
					.filter(Boolean)) {
					expect(parseLine(line(text), {fast: true})).toStrictEqual(parseLine(line(text), {fast: false}));
				}
			}
		});
	});

	describe('unknown event types', () => {
		it('keeps a Perstack-looking event of a type it does not know as unknown, with its ids', () => {
			expect(parsed({type: 'someFutureEvent', id: 'e1', jobId: 'j', runId: 'r', expertKey: 'writer', stepNumber: 3})).toEqual({
				kind: 'event',
				event: {
					kind: 'unknown',
					dialect: 'perstack',
					wireType: 'someFutureEvent',
					id: 'e1',
					jobId: 'j',
					runId: 'r',
					expertKey: 'writer',
					step: undefined,
					timestamp: undefined,
					agent: undefined,
					ref: {source: 'agent.ndjson', line: 7, offset: 120},
				},
			});
		});

		it('takes an unknown type without jobId or expertKey as the daemon’s, and names it by its line', () => {
			expect(parsed({type: 'heartbeat'}, 12)).toMatchObject({
				event: {kind: 'unknown', dialect: 'daemon', wireType: 'heartbeat', id: 'agent.ndjson:12', jobId: '', runId: '', expertKey: undefined},
			});
		});

		it('keeps a drover event of a kind it does not know as unknown', () => {
			expect(parsed({kind: 'cache_hit', runId: 'r', ts: 1})).toMatchObject({event: {kind: 'unknown', dialect: 'drover', wireType: 'cache_hit', runId: 'r'}});
		});

		it('takes a daemon type that carries a jobId as an unknown Perstack event', () => {
			expect(parsed({type: 'step_started', jobId: 'j', runId: 'r'})).toMatchObject({event: {kind: 'unknown', dialect: 'perstack', wireType: 'step_started'}});
		});
	});

	describe('diagnostics', () => {
		it('reports a line that is not JSON, with its source and line number', () => {
			const diagnostic = diagnosticOf(parsed('{"type": "startRun"', 42));
			expect(diagnostic).toMatchObject({source: 'agent.ndjson', line: 42});
			expect(diagnostic.reason).toMatch(/^not JSON \(.+\)$/);
		});

		it('keeps the reason for a long bad line short', () => {
			for (const text of [`{"text": "${'x'.repeat(5000)}`, `{"a": ${'x'.repeat(5000)}}`, `${'y'.repeat(5000)}`]) {
				expect(diagnosticOf(parsed(text)).reason.length).toBeLessThanOrEqual(130);
			}
		});

		it('says which JSON value a line held when it is not an object', () => {
			expect(diagnosticOf(parsed('[1,2]', 3))).toEqual({source: 'agent.ndjson', line: 3, reason: 'not an event: JSON array, expected an object'});
			expect(diagnosticOf(parsed('null')).reason).toBe('not an event: JSON null, expected an object');
			expect(diagnosticOf(parsed('42')).reason).toBe('not an event: JSON number, expected an object');
			expect(diagnosticOf(parsed('"startRun"')).reason).toBe('not an event: JSON string, expected an object');
		});

		it('reports an object with neither a `type` nor a `kind`, or with neither a string', () => {
			expect(diagnosticOf(parsed({runId: 'r'}, 9))).toEqual({source: 'agent.ndjson', line: 9, reason: 'not an event: no "type" or "kind" field'});
			expect(diagnosticOf(parsed({type: 3, kind: null})).reason).toBe('not an event: no "type" or "kind" field');
		});

		it('names the event type, the field and the problem of a known event in the wrong shape', () => {
			const startRun = {type: 'startRun', id: 'e', jobId: 'j', runId: 'r', expertKey: 'w', timestamp: 1, stepNumber: 1};
			expect(diagnosticOf(parsed(startRun, 5))).toMatchObject({line: 5, reason: expect.stringMatching(/^invalid startRun event: initialCheckpoint: /)});
			expect(diagnosticOf(parsed({...startRun, type: 'callTools', toolCalls: 'not a list'})).reason).toMatch(/^invalid callTools event: toolCalls: /);
		});

		it('names the problem of a drover or daemon event in the wrong shape', () => {
			expect(diagnosticOf(parsed({kind: 'tool_call_start', runId: 'r', ts: 1})).reason).toMatch(/^invalid tool_call_start event: toolUseId: /);
			expect(diagnosticOf(parsed({type: 'step_started', runId: 'r'})).reason).toMatch(/^invalid step_started event: stepName: /);
		});

		it('gives the same diagnostic with and without the fast reader', () => {
			const text = JSON.stringify({type: 'callTools', id: 'e', jobId: 'j', runId: 'r', expertKey: 'w', timestamp: 1, stepNumber: 1, toolCalls: [{id: 1}]});
			expect(parseLine(line(text), {fast: true})).toEqual(parseLine(line(text), {fast: false}));
		});
	});

	it('reads a step number that is not one as none, with a note: drover’s turn as Perstack’s stepNumber', () => {
		const turn = parsed({kind: 'turn_start', runId: 'r', ts: 1_700_000_000_000, turn: 2.5});
		expect(turn).toMatchObject({
			kind: 'event',
			event: {kind: 'stepStart', step: undefined},
			note: {line: 7, source: 'agent.ndjson', reason: expect.stringContaining('turn_start event: turn 2.5 is not a step number')},
		});
		expect(parsed({kind: 'turn_start', runId: 'r', ts: 1_700_000_000_000, turn: '2'})).toEqual({kind: 'event', event: expect.objectContaining({step: 2})});
		// A Perstack checkpoint's, where the event's own is good.
		const end = parsed({type: 'continueToNextStep', id: 'e', jobId: 'j', runId: 'r', stepNumber: 2, checkpoint: {status: 'proceeding', stepNumber: -2}});
		expect(end).toMatchObject({
			kind: 'event',
			event: {step: 2},
			note: {reason: expect.stringContaining('continueToNextStep event: checkpoint.stepNumber -2 is not a step number')},
		});
	});
});

describe('readLine: text before the JSON on a line', () => {
	it('reads the object after text glued in front of it (Gemini CLI’s MCP notice), and notes the text', () => {
		const item = readLine(line('MCP issues detected. Run /mcp list for status.{"type":"init","session_id":"abc","model":"gemini-2.5-pro"}'));
		expect(item).toMatchObject({
			kind: 'record',
			value: {type: 'init', session_id: 'abc'},
			note: {line: 7, reason: 'text before the event on this line was left out: "MCP issues detected. Run /mcp list for status."'},
		});
	});

	it('a cut event line whose tail is an object is a bad line, not text before an event', () => {
		const item = readLine(line('{"type":"callTools","id":"e1","checkpoint":{"a":1}'));
		expect(item).toMatchObject({kind: 'diagnostic', diagnostic: {reason: expect.stringMatching(/^not JSON/)}});
	});
});
