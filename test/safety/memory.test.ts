import {describe, expect, it} from 'vitest';
import {Ingest} from '../../source/load/ingest.js';
import {
	maxSkillStderrLineLength,
	maxSkillStderrLines,
	maxSkillTransitions,
	maxStoredDiagnostics,
	maxUnknownTypes,
	otherUnknownTypes,
} from '../../source/model/state.js';
import {capText, TextAccumulator} from '../../source/model/text-accumulator.js';
import {megabyte, settledHeap} from './heap.js';

/*
 * Memory is bounded by what is shown, not by the bytes read. The model keeps what the views draw; the
 * big parts of a log (checkpoints, message histories, streams of deltas) are read, used and let go.
 */

const base = {jobId: 'job-m', runId: 'run-m', expertKey: 'memory-expert'};
let sequence = 0;

function line(type: string, fields: Record<string, unknown>): string {
	sequence++;
	return JSON.stringify({type, id: `m-${sequence}`, timestamp: 1_700_000_000_000 + sequence, ...base, ...fields});
}

/** A message history as the runtime repeats it in every checkpoint: large, and of no use to the viewer. */
function history(bytes: number, step: number): unknown[] {
	const text = `step ${step} `.padEnd(bytes, 'lorem ipsum dolor sit amet ');
	return [
		{type: 'instructionMessage', contents: [{type: 'textPart', text: text.slice(0, bytes / 4)}]},
		{type: 'userMessage', contents: [{type: 'textPart', text: text.slice(0, bytes / 4)}]},
		{type: 'expertMessage', contents: [{type: 'textPart', text: text.slice(0, bytes / 2)}]},
	];
}

/** Feeds lines to an ingest in file-sized chunks, never holding the whole log. */
function feed(ingest: Ingest, lines: Iterable<string>): number {
	const splitter = ingest.splitter('memory.ndjson');
	let bytes = 0;
	for (const text of lines) {
		const chunk = Buffer.from(`${text}\n`);
		bytes += chunk.length;
		splitter.push(chunk);
	}

	splitter.end();
	return bytes;
}

function* checkpointHeavyLog(steps: number, checkpointBytes: number): Generator<string> {
	yield line('startRun', {
		stepNumber: 1,
		initialCheckpoint: {status: 'init', stepNumber: 1, messages: history(checkpointBytes, 0)},
		inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text: 'go'}]}],
	});
	for (let step = 1; step <= steps; step++) {
		yield line('callTools', {stepNumber: step, toolCalls: [{id: `call-${step}`, skillName: '@perstack/base', toolName: 'exec', args: {command: 'true'}}]});
		yield line('resolveToolResults', {
			stepNumber: step,
			toolResults: [{id: `call-${step}`, skillName: '@perstack/base', toolName: 'exec', result: [{type: 'textPart', text: 'ok'}]}],
		});
		yield line('continueToNextStep', {
			stepNumber: step,
			checkpoint: {status: 'proceeding', stepNumber: step, messages: history(checkpointBytes, step), usage: {inputTokens: step}},
			step: {
				stepNumber: step,
				usage: {inputTokens: 1, outputTokens: 1},
				inputMessages: history(checkpointBytes / 4, step),
				newMessages: history(checkpointBytes / 4, step),
			},
		});
	}
}

describe('what the model keeps', () => {
	it('keeps nothing of checkpoints and message histories: the heap grows by a small part of the bytes read', () => {
		const ingest = new Ingest({maxLineBytes: 64 * megabyte});
		const before = settledHeap();
		const bytes = feed(ingest, checkpointHeavyLog(150, 256 * 1024));
		const grown = settledHeap() - before;
		const run = ingest.model.runs.get('run-m');
		expect(run?.endedSteps.length).toBe(150);
		expect(ingest.model.activities).toHaveLength(151);
		expect(bytes).toBeGreaterThan(50 * megabyte);
		// What remains is a few hundred small activities, far below the megabytes of checkpoints read.
		expect(grown).toBeLessThan(bytes / 20);
	});

	it('keeps each run’s streaming text to a head and a tail, however many deltas arrive', () => {
		const ingest = new Ingest({maxLineBytes: 64 * megabyte});
		const delta = 'x'.repeat(4096);
		const deltas = function* () {
			yield line('startRun', {stepNumber: 1, initialCheckpoint: {status: 'init', stepNumber: 1}});
			yield line('startStreamingRunResult', {stepNumber: 1});
			yield line('streamRunResult', {stepNumber: 1, delta: 'HEAD '});
			for (let i = 0; i < 5000; i++) yield line('streamRunResult', {stepNumber: 1, delta});
			yield line('streamRunResult', {stepNumber: 1, delta: ' TAIL'});
		};

		const before = settledHeap();
		feed(ingest, deltas());
		const grown = settledHeap() - before;
		const text = ingest.model.runs.get('run-m')?.streams.get(1)?.result.text ?? '';
		expect(text.startsWith('HEAD ')).toBe(true);
		expect(text.endsWith(' TAIL')).toBe(true);
		expect(text).toMatch(/… \[\d+ characters cut\] …/);
		// Half the cap for the head, and a tail that grows back to the cap before it is cut again.
		expect(text.length).toBeLessThan(1.5 * TextAccumulator.defaultCap + 100);
		expect(grown).toBeLessThan(8 * megabyte);
	});

	it('keeps streams of the latest steps of a run only', () => {
		const ingest = new Ingest({maxLineBytes: 64 * megabyte});
		const steps = function* () {
			yield line('startRun', {stepNumber: 1, initialCheckpoint: {status: 'init', stepNumber: 1}});
			for (let step = 1; step <= 40; step++) yield line('streamReasoning', {stepNumber: step, delta: `thinking in step ${step}`});
		};

		feed(ingest, steps());
		expect([...(ingest.model.runs.get('run-m')?.streams.keys() ?? [])]).toEqual([38, 39, 40]);
	});

	it('keeps the last stderr lines of a skill, each cut to a bounded length', () => {
		const ingest = new Ingest({maxLineBytes: 64 * megabyte});
		const lines = function* () {
			for (let i = 0; i < 5000; i++) yield line('skillStderr', {skillName: 'noisy', message: `${i} `.padEnd(i % 100 === 0 ? 100_000 : 20, '!')});
		};

		feed(ingest, lines());
		const skill = ingest.model.skills.get('noisy');
		expect(skill?.stderrCount).toBe(5000);
		expect(skill?.stderr).toHaveLength(maxSkillStderrLines);
		expect(skill?.stderr.at(-1)?.startsWith('4999 ')).toBe(true);
		expect(Math.max(...(skill?.stderr ?? []).map(text => text.length))).toBeLessThanOrEqual(maxSkillStderrLineLength + 1);
	});

	it('keeps the last states of a skill that reconnects again and again, and counts them all', () => {
		const ingest = new Ingest({maxLineBytes: 64 * megabyte});
		const lines = function* () {
			for (let i = 0; i < 2000; i++) {
				yield line('skillConnected', {skillName: 'flaky', totalDurationMs: i});
				yield line('skillDisconnected', {skillName: 'flaky'});
			}
		};

		feed(ingest, lines());
		const skill = ingest.model.skills.get('flaky');
		expect(skill?.transitionCount).toBe(4000);
		expect(skill?.transitions).toHaveLength(maxSkillTransitions);
		expect(skill?.transitions.at(-2)).toMatchObject({state: 'connected', connectMs: 1999});
		expect(skill?.transitions.at(-1)).toMatchObject({state: 'disconnected', connectMs: undefined});
	});

	it('counts every bad line but keeps a bounded list of them', () => {
		const ingest = new Ingest({maxLineBytes: 64 * megabyte});
		feed(
			ingest,
			(function* () {
				for (let i = 0; i < maxStoredDiagnostics + 5000; i++) yield `not json ${i}`;
			})(),
		);
		expect(ingest.model.diagnosticCount).toBe(maxStoredDiagnostics + 5000);
		expect(ingest.model.diagnostics).toHaveLength(maxStoredDiagnostics);
	});

	it('counts unknown types under a bounded number of bounded names (regression: one made-up type per line grew the map without end)', () => {
		const ingest = new Ingest({maxLineBytes: 64 * megabyte});
		feed(
			ingest,
			(function* () {
				for (let i = 0; i < maxUnknownTypes + 500; i++) yield line(`madeUp${i}`, {});
				yield line('t'.repeat(100_000), {});
			})(),
		);
		const {unknownEvents} = ingest.model;
		expect(unknownEvents.size).toBe(maxUnknownTypes + 1);
		expect(unknownEvents.get(otherUnknownTypes)).toBe(501);
		expect(Math.max(...[...unknownEvents.keys()].map(type => type.length))).toBeLessThanOrEqual(201);
	});
});

describe('TextAccumulator', () => {
	it('keeps everything up to its cap', () => {
		const text = new TextAccumulator(100);
		text.append('hello ');
		text.append('world');
		expect(text.text).toBe('hello world');
		expect(text.isEmpty).toBe(false);
	});

	it('past its cap keeps the head and the tail and says how much was cut', () => {
		const text = new TextAccumulator(20);
		for (let i = 0; i < 10; i++) text.append(String(i).repeat(10));
		// The head is half the cap; the tail is cut back to half the cap whenever it passes the cap.
		expect(text.text).toBe('0000000000\n… [70 characters cut] …\n88888888889999999999');
		text.append('!');
		expect(text.text).toBe('0000000000\n… [81 characters cut] …\n999999999!');
	});

	it('the completed text wins, is capped the same way, and late deltas do not change it', () => {
		const text = new TextAccumulator(20);
		text.append('partial');
		text.complete('a'.repeat(15) + 'b'.repeat(15));
		text.append('late delta');
		expect(text.isComplete).toBe(true);
		expect(text.text).toBe('aaaaaaaaaa\n… [10 characters cut] …\nbbbbbbbbbb');
	});

	it('never cuts a surrogate pair in half', () => {
		const emoji = '😀'.repeat(30);
		const capped = capText(emoji, 21);
		expect(capped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
		const text = new TextAccumulator(21);
		for (let i = 0; i < 50; i++) text.append('😀');
		expect(text.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
	});

	it('regression: a capped text kept the whole original string alive through its slices', () => {
		const before = settledHeap();
		const kept: string[] = [];
		for (let i = 0; i < 10; i++) kept.push(capText(`${i}`.repeat(5 * megabyte), 64 * 1024));
		const single = new TextAccumulator(64 * 1024);
		single.append('y'.repeat(20 * megabyte));
		kept.push(single.text);
		// Ten 5 MB texts and one 20 MB delta, each cut to 64 K characters: without the copy, 70 MB stays.
		expect(settledHeap() - before).toBeLessThan(8 * megabyte);
		expect(kept.every(text => text.length < 70 * 1024)).toBe(true);
	});
});
