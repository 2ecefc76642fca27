import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {ParsedLine} from '../model/events.js';
import type {StreamDialect, WireRecord} from './dialects/stream-dialect.js';
import {readLine} from './normalise.js';
import {StreamReaders} from './stream-readers.js';

/*
 * A stream's dialect is told from the first of its lines some dialect read per stream recognises, and from then
 * on every line of that stream goes to one reader of it, which keeps what it needs between lines; another
 * stream has a reader of its own. Two made-up dialects stand in for the registry's.
 */

/** A dialect whose reader numbers the lines it is given: what it keeps between lines shows in the events. */
function counting(name: 'claude-code' | 'codex', marker: string): StreamDialect {
	return {
		name,
		recognises: value => value['type'] === marker,
		reader() {
			let seen = 0;
			return {
				read(record, out) {
					seen++;
					const wireType = String(record.value['type']);
					out({
						kind: 'event',
						event: {
							kind: 'marker',
							dialect: name,
							wireType,
							id: `${name}#${seen}`,
							jobId: '',
							runId: '',
							expertKey: undefined,
							step: undefined,
							timestamp: undefined,
							agent: undefined,
							ref: record.ref,
						},
					});
				},
			};
		},
	};
}

const dialects = [counting('claude-code', 'hello'), counting('codex', 'thread.started')];

function record(value: Record<string, unknown>, source = 'a', line = 1): WireRecord {
	const item = readLine({source, line, offset: 0, text: JSON.stringify(value)});
	if (item.kind !== 'record') throw new Error(`expected a record, got ${item.kind}`);
	return item;
}

function readAll(readers: StreamReaders, records: WireRecord[]): ParsedLine[] {
	const out: ParsedLine[] = [];
	for (const item of records) readers.read(item, parsed => out.push(parsed));
	return out;
}

function described(parsed: ParsedLine[]): string[] {
	return parsed.map(item => (item.kind === 'event' ? `${item.event.dialect}:${item.event.wireType}:${item.event.id}` : `diagnostic ${item.diagnostic.reason}`));
}

describe('StreamReaders', () => {
	it('tells a stream’s dialect from its first line a dialect recognises, and gives it every later line', () => {
		const readers = new StreamReaders(undefined, dialects);
		const out = readAll(readers, [record({type: 'hello'}, 'a', 1), record({type: 'thread.started'}, 'a', 2), record({type: 'other'}, 'a', 3)]);
		expect(described(out)).toEqual(['claude-code:hello:claude-code#1', 'claude-code:thread.started:claude-code#2', 'claude-code:other:claude-code#3']);
	});

	it('keeps a line no dialect recognises, before the stream’s dialect is known, as an unknown event', () => {
		const out = readAll(new StreamReaders(undefined, dialects), [record({type: 'other'}, 'a', 1), record({type: 'thread.started'}, 'a', 2)]);
		expect(out[0]).toMatchObject({kind: 'event', event: {kind: 'unknown', dialect: 'daemon', wireType: 'other'}});
		expect(described(out.slice(1))).toEqual(['codex:thread.started:codex#1']);
	});

	it('tells each source’s dialect apart, however their lines interleave, and gives a dialect’s sources its one reader', () => {
		const out = readAll(new StreamReaders(undefined, dialects), [
			record({type: 'hello'}, 'a'),
			record({type: 'thread.started'}, 'b'),
			record({type: 'hello'}, 'b'),
			record({type: 'x'}, 'a'),
			record({type: 'y'}, 'c'),
			record({type: 'hello'}, 'c'),
		]);
		// c's first line is no dialect's: it goes to the dialect told last (b's), c staying undecided; its second
		// line makes it Claude Code's, read on by the reader a read before.
		expect(described(out)).toEqual([
			'claude-code:hello:claude-code#1',
			'codex:thread.started:codex#1',
			'codex:hello:codex#2',
			'claude-code:x:claude-code#2',
			'codex:y:codex#3',
			'claude-code:hello:claude-code#3',
		]);
	});

	it('a stream cut into several files reads as it does whole: a file whose first lines no dialect is sure of goes on in the dialect of the file before (codex/retry-exhausted.jsonl cut before its `error` lines)', () => {
		const whole = [
			record({type: 'thread.started'}, 'a', 1),
			record({type: 'error'}, 'a', 2),
			record({type: 'error'}, 'a', 3),
			record({type: 'turn.failed'}, 'a', 4),
		];
		const cut = [
			record({type: 'thread.started'}, 'a', 1),
			record({type: 'error'}, 'b', 1),
			record({type: 'error'}, 'b', 2),
			record({type: 'turn.failed'}, 'b', 3),
		];
		const names = (parsed: ParsedLine[]) => described(parsed).map(name => name.replace(/:[^:]*$/, ''));
		expect(names(readAll(new StreamReaders(undefined, dialects), cut))).toEqual(names(readAll(new StreamReaders(undefined, dialects), whole)));
		expect(names(readAll(new StreamReaders(undefined, dialects), cut))).toEqual(['codex:thread.started', 'codex:error', 'codex:error', 'codex:turn.failed']);
	});

	it('the recorded Codex stream whose turn fails after five reconnects, cut after any of its lines, gives the events it gives whole', () => {
		const lines = readFileSync(new URL('../../fixtures/codex/retry-exhausted.jsonl', import.meta.url), 'utf8')
			.trimEnd()
			.split('\n');
		const records = (cutAt: number) =>
			lines.map((text, index) => {
				const item = readLine({source: index < cutAt ? 'a' : 'b', line: index < cutAt ? index + 1 : index - cutAt + 1, offset: 0, text});
				if (item.kind !== 'record') throw new Error(`expected a record, got ${item.kind}`);
				return item;
			});
		const shown = (parsed: ParsedLine[]) => parsed.map(item => (item.kind === 'event' ? `${item.event.kind} ${item.event.dialect}` : 'diagnostic'));
		const whole = shown(readAll(new StreamReaders(undefined), records(lines.length)));
		expect(whole).not.toContain('unknown codex');
		for (let cutAt = 1; cutAt < lines.length; cutAt++) expect(shown(readAll(new StreamReaders(undefined), records(cutAt)))).toEqual(whole);
	});

	it('reads every line as the forced dialect’s, whatever it looks like', () => {
		const out = readAll(new StreamReaders('codex', dialects), [record({type: 'hello'}), record({type: 'other'})]);
		expect(described(out)).toEqual(['codex:hello:codex#1', 'codex:other:codex#2']);
	});
});

describe('readLine with a dialect forced', () => {
	const line = (value: unknown) => ({source: 's', line: 4, offset: 0, text: JSON.stringify(value)});
	const perstack = {type: 'retry', id: 'e', jobId: 'j', runId: 'r', expertKey: 'w', timestamp: 1, stepNumber: 1, reason: 'x', newMessages: [], usage: {}};

	it('hands every object on as a record for a dialect read per stream, Perstack’s own types too', () => {
		expect(readLine(line(perstack), {fast: true, dialect: 'claude-code'})).toMatchObject({kind: 'record', value: {type: 'retry'}});
		expect(readLine(line({kind: 'run_start', runId: 'r'}), {fast: true, dialect: 'codex'})).toMatchObject({kind: 'record'});
	});

	it('keeps what is not the forced line dialect’s as an unknown event of it', () => {
		expect(readLine(line(perstack), {fast: true, dialect: 'drover'})).toMatchObject({
			kind: 'event',
			event: {kind: 'unknown', dialect: 'drover', wireType: 'retry'},
		});
		expect(readLine(line({kind: 'run_start', runId: 'r', ts: 1}), {fast: true, dialect: 'perstack'})).toMatchObject({
			kind: 'event',
			event: {kind: 'unknown', dialect: 'perstack', wireType: 'run_start'},
		});
		expect(readLine(line({type: 'step_started', jobId: 'j', runId: 'r', stepName: 's', ts: 1}), {fast: true, dialect: 'daemon'})).toMatchObject({
			kind: 'event',
			event: {kind: 'childRunStart', dialect: 'daemon'},
		});
		expect(readLine(line({type: 'assistant', session_id: 's'}), {fast: true, dialect: 'perstack'})).toMatchObject({
			kind: 'event',
			event: {kind: 'unknown', dialect: 'perstack', wireType: 'assistant'},
		});
	});

	it('reads a line of no dialect it knows as a record, for its stream’s reader', () => {
		expect(readLine(line({type: 'assistant', session_id: 's'}))).toMatchObject({kind: 'record', ref: {source: 's', line: 4}});
	});
});
