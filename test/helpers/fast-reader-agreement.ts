import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {Dialect} from '../../source/model/events.js';
import {readLine} from '../../source/parse/normalise.js';
import type {ParsedItem} from '../../source/parse/dialects/stream-dialect.js';
import {StreamReaders} from '../../source/parse/stream-readers.js';
import {agentStreamLines, type AgentDialect} from '../../tools/agent-stream-log.js';
import {expectEqual, expectSame, messageOf, type Message} from './expect-same.js';
import {root} from './fixture-files.js';

/*
 * What the agent CLIs' fast readers (parse/dialects/<dialect>/fast-reader.ts) are held to: a stream read with
 * them makes exactly the events and diagnostics it makes with every line validated by the dialect's zod schema
 * (PERSCOPE_FAST=0), and a value the fast reader takes is the value the schema gives.
 */

export type StreamFile = {name: string; lines: string[]};

/** The lines of every recording and sample of a dialect: fixtures/<folder> and ../shared/agent-streams/<folder>. */
export function streamFiles(fixtureFolder: string, sharedFolder: string): StreamFile[] {
	const files: string[] = [];
	const walk = (dir: string) => {
		if (!existsSync(dir)) return;
		for (const name of readdirSync(dir).sort()) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (/\.(jsonl|ndjson)$/.test(name)) files.push(path);
		}
	};

	walk(join(root, 'fixtures', fixtureFolder));
	// The collected samples, where the checkout has them beside it (the material).
	walk(join(root, '..', 'shared', 'agent-streams', sharedFolder));
	return files.map(path => ({
		name: path.slice(root.length),
		lines: readFileSync(path, 'utf8')
			.split('\n')
			.filter(line => line.trim() !== ''),
	}));
}

/** A stream of generated sessions (`npm run gen -- --dialect`), `count` lines long. */
export function generatedLines(dialect: AgentDialect, count: number): string[] {
	const lines: string[] = [];
	for (const line of agentStreamLines(dialect, () => lines.length < count)) lines.push(line);
	return lines;
}

/** Everything a stream's lines make, in order: events, diagnostics, and the notes of lines read in part. */
export function readStream(lines: readonly string[], fast: boolean, forced?: Dialect): unknown[] {
	const readers = new StreamReaders(forced, undefined, {fast});
	const made: unknown[] = [];
	for (const [index, text] of lines.entries()) {
		const item: ParsedItem = readLine({source: 's', line: index + 1, offset: 0, text}, {fast, dialect: forced});
		if (item.kind !== 'record') {
			made.push(item);
			continue;
		}

		if (item.note) made.push(item.note);
		readers.read(item, parsed => made.push(parsed));
	}

	return made;
}

export function expectSameStream(lines: readonly string[], label: string, forced?: Dialect): void {
	expectSame(readStream(lines, true, forced), readStream(lines, false, forced), label);
}

/** Every path to a value inside `value` (object keys and array indexes). */
export function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
	if (typeof value !== 'object' || value === null) return [];
	const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((element, index) => [index, element]) : Object.entries(value);
	return entries.flatMap(([key, element]) => [[...prefix, key], ...pathsOf(element, [...prefix, key])]);
}

export const deleted = Symbol('deleted');

/**
 * `value` with the value at `path` replaced (or deleted, for `deleted`): the objects and arrays on the path are
 * copied, the rest is shared with `value` (readers and schemas only read what they are given). A deep copy of
 * the whole event for each of the thousands of values tried was most of these tests' time.
 */
export function withValueAt(value: unknown, path: ReadonlyArray<string | number>, replacement: unknown, at = 0): unknown {
	if (at === path.length || typeof value !== 'object' || value === null) return value;
	const copy: unknown = Array.isArray(value) ? [...value] : Object.fromEntries(Object.entries(value));
	const key = path[at]!;
	if (at === path.length - 1) {
		if (replacement === deleted) Reflect.deleteProperty(Object(copy), key);
		else Reflect.set(Object(copy), key, replacement);
	} else {
		Reflect.set(Object(copy), key, withValueAt(Reflect.get(Object(value), key), path, replacement, at + 1));
	}

	return copy;
}

/** Values of every JSON kind, and the edges the readers turn: empty, negative, fractional, numeric text, huge. */
export const wrongValues: unknown[] = [
	deleted,
	null,
	'text',
	'',
	0,
	-1,
	1.5,
	'12',
	true,
	false,
	[],
	['text'],
	{},
	{type: 'text'},
	Number.MAX_VALUE,
	Infinity,
	'2025-10-29T10:36:07.534Z',
];

type SafeParse = (value: unknown) => {success: true; data: unknown} | {success: false};

/** The fast reader gives what the schema gives, or nothing (then the schema reads the value). */
export function expectAgreement(fast: (value: Record<string, unknown>) => unknown, schema: SafeParse, value: unknown, label: Message): void {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
	const read = fast(Object.fromEntries(Object.entries(value)));
	const parsed = schema(value);
	// expect() only when it fails: this runs for thousands of values.
	if (!parsed.success) {
		if (read !== undefined) expect(read, messageOf(label)).toBeUndefined();
	} else if (read !== undefined) expectEqual(read, parsed.data, label);
}

/**
 * Each line of `lines` with each of its fields made wrong in every way: the fast reader agrees with the schema.
 * Fields deeper than `depth` (inside what the schema takes as it is) are left alone.
 */
export function expectAgreementOnEveryField(
	fast: (value: Record<string, unknown>) => unknown,
	schema: SafeParse,
	lines: readonly string[],
	depth = Infinity,
): number {
	let checked = 0;
	for (const line of lines) {
		const value: unknown = JSON.parse(line);
		for (const path of pathsOf(value)) {
			if (path.length > depth) continue;
			for (const wrong of wrongValues) {
				expectAgreement(fast, schema, withValueAt(value, path, wrong), () => `${line.slice(0, 160)} ${path.join('.')} = ${String(wrong)}`);
				checked++;
			}
		}
	}

	return checked;
}

/** Streams with one field of one line replaced by any JSON value: the same events and diagnostics either way. */
export function expectSameStreamsWithAnyValue(files: readonly StreamFile[], runs: number): void {
	fc.assert(
		fc.property(fc.nat(), fc.nat(), fc.nat(), fc.jsonValue(), (pickFile, pickLine, pickPath, replacement) => {
			const file = files[pickFile % files.length]!;
			const index = pickLine % file.lines.length;
			const line = file.lines[index]!;
			// A line with text before its JSON (a recording has one) is left as it is.
			if (!line.startsWith('{')) return;
			const value: unknown = JSON.parse(line);
			const paths = pathsOf(value);
			const path = paths[pickPath % Math.max(1, paths.length)];
			if (!path) return;
			const lines = [...file.lines];
			lines[index] = JSON.stringify(withValueAt(value, path, replacement));
			expectSameStream(lines, `${file.name}:${index + 1} ${path.join('.')}`);
		}),
		{numRuns: runs},
	);
}

/** Lines no recording has: broken JSON, other JSON, text before the event, keys that are traps, numbers JSON.parse makes infinite. */
export const hostileLines: readonly string[] = [
	'',
	'not json',
	'{"type":',
	'[]',
	'null',
	'"text"',
	'42',
	'{}',
	'{"type":null}',
	'{"type":42}',
	'{"type":"no-such-type"}',
	'{"type":"__proto__"}',
	'{"type":"constructor"}',
	'{"type":"toString"}',
	'{"__proto__":{"type":"init"},"type":"init"}',
	'MCP issues detected. Run /mcp list for status.{"type":"init","session_id":"s","model":"m"}',
	'{"type":"init","session_id":"s","timestamp":1e999}',
	'{"type":"turn.completed","usage":{"input_tokens":1e999,"output_tokens":-5}}',
];

/** The recordings and samples of one dialect a reader reads. */
export type AgreementStreams = {
	dialect: Dialect;
	files: StreamFile[];
	/** How many there are at least: the repository's own (../shared's join them where it is there, not in CI). */
	atLeast: number;
	/** The file (by how its name ends) read after lines no recording has; the first when not said. */
	session?: string;
};

/**
 * The suite every agent CLI's fast reader is held to: the same events and diagnostics from every recording and
 * sample, a generated stream, lines with any field made wrong, streams with any JSON value put anywhere, and
 * lines no recording has. `streams[0]` is the dialect the reader is for (its generated stream, and lines no
 * recording has around one of its sessions); the others are read by the same reader (Amp: Claude Code's envelope).
 */
export function describeFastReaderAgreement(suite: {
	title: string;
	/** The first: the dialect's files, and the generated stream of that dialect (or of `generated`, when another). */
	streams: readonly [AgreementStreams & ({dialect: Extract<Dialect, AgentDialect>} | {generated: AgentDialect}), ...AgreementStreams[]];
	fast: (value: Record<string, unknown>) => unknown;
	schema: SafeParse;
	/** Each field made wrong in every way, no deeper than `depth`, on the lines `pick` keeps (all when none); at least `checks` checks. */
	everyField: {checks: number; depth?: number; pick?: (lines: string[]) => string[]};
	/** Streams with one value replaced, `runs` times, of the files `files` keeps (all when none). */
	anyValue: {runs: number; files?: (file: StreamFile) => boolean};
}): void {
	const [main] = suite.streams;
	const files = suite.streams.flatMap(streams => streams.files);
	describe(suite.title, () => {
		it('makes the same events and diagnostics from every recording and sample', () => {
			for (const streams of suite.streams) expect(streams.files.length, streams.dialect).toBeGreaterThanOrEqual(streams.atLeast);
			for (const file of files) expectSameStream(file.lines, file.name);
		});

		it('makes the same from a generated stream of many sessions', () => {
			expectSameStream(generatedLines('generated' in main ? main.generated : main.dialect, 3000), 'generated');
		});

		it('takes a line with any field made wrong as the schema does', () => {
			const lines = files.flatMap(file => file.lines).filter(line => line.startsWith('{'));
			const picked = suite.everyField.pick ? suite.everyField.pick(lines) : lines;
			expect(expectAgreementOnEveryField(suite.fast, suite.schema, picked, suite.everyField.depth)).toBeGreaterThan(suite.everyField.checks);
		});

		it('makes the same from streams with any JSON value put anywhere', () => {
			const keep = suite.anyValue.files;
			expectSameStreamsWithAnyValue(keep ? files.filter(keep) : files, suite.anyValue.runs);
		});

		it('makes the same from lines no recording has, before and after a session’s lines', () => {
			for (const [index, streams] of suite.streams.entries()) {
				const {session} = streams;
				const lines = (session === undefined ? streams.files[0] : streams.files.find(file => file.name.endsWith(session)))!.lines;
				if (index === 0) expectSameStream([...hostileLines, ...lines, ...hostileLines], 'hostile');
				expectSameStream([...hostileLines, ...lines], `hostile, forced ${streams.dialect}`, streams.dialect);
			}
		});
	});
}
