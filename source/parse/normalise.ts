import type {z} from 'zod';
import {isDialectLineWithoutType} from './dialects/untyped.js';
import type {Line} from './line-splitter.js';
import type {AgentEvent, Diagnostic, Dialect, EventRef, ParsedLine} from '../model/events.js';
import type {ParsedItem, ParsedOut, WireRecord} from './dialects/stream-dialect.js';
import {badStepNumberReason, isBadStepNumber} from './dialects/common.js';
import {daemonEventTypes, daemonSchemas} from './dialects/daemon/schema.js';
import {fromDaemon} from './dialects/daemon/normalise.js';
import {droverEventKinds, droverEventSchema} from './dialects/drover/schema.js';
import {fromDrover} from './dialects/drover/normalise.js';
import {stringField} from './dialects/json-values.js';
import {perstackEventTypes, readPerstackEvent} from './dialects/perstack/fast-reader.js';
import {fromPerstack} from './dialects/perstack/normalise.js';
import {perstackSchemas} from './dialects/perstack/schema.js';
import {badStepNumber} from './dialects/perstack/step-numbers.js';

/*
 * Which dialect a parsed line is in, and its schema's verdict: the dialects' own reading is in
 * dialects/<name>/normalise.ts. Perstack, drover and the strategy daemon are read line by line, here; a line of
 * any other type is handed on as a record (`readLine`), for the reader of its stream (stream-readers.ts), which
 * tells the stream's dialect from its first lines and keeps what it needs from one line to the next.
 */

export type ParseOptions = {
	/**
	 * false: every Perstack event is validated by the schema itself rather than read by the fast reader (the
	 * reference that test/perf and the bench compare with; PERSCOPE_FAST=0).
	 */
	fast: boolean;
	/** `--dialect`: every line is read as this dialect's, whatever it looks like; undefined tells it per line and stream. */
	dialect?: Dialect | undefined;
};

const fastByDefault: ParseOptions = {fast: true};

/**
 * Turns one line into exactly one of: a valid event, an unknown-but-well-formed event, or a diagnostic.
 * Nothing throws past this function, whatever the line holds. A line that only its stream's reader can read
 * (`readLine` makes it a record) is an unknown event here: read alone, nothing says what it is.
 */
export function parseLine(line: Line, options: ParseOptions = fastByDefault): ParsedLine {
	const item = readLine(line, options);
	return item.kind === 'record' ? unknownEvent(item) : item;
}

/**
 * Turns one line into exactly one of: a valid event, an unknown-but-well-formed event, a diagnostic, or a record
 * of a dialect that is read per stream (its JSON object, for stream-readers.ts). Nothing throws past this function.
 */
export function readLine(line: Line, options: ParseOptions = fastByDefault): ParsedItem {
	let value: unknown;
	try {
		value = JSON.parse(line.text);
	} catch (error) {
		return afterText(line, options) ?? diagnostic(line, `not JSON (${describeJsonError(error)})`);
	}

	try {
		return parseValue(value, line, options);
	} catch (error) {
		// Defensive: a bug in normalisation must cost one line, not the whole stream.
		return diagnostic(line, `could not read event: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/** How many places a JSON object could start at are tried on a line that is not JSON as a whole. */
const maxJsonStarts = 4;

/**
 * A line where other text precedes a JSON object (Gemini CLI prints `MCP issues detected. Run /mcp list for
 * status.{"type":"init",…}` on one line of stdout): the object's event, and a diagnostic for the text before it.
 * Undefined when no `{"` on the line starts an object that runs to its end.
 */
function afterText(line: Line, options: ParseOptions): ParsedItem | undefined {
	// A line that begins as JSON and is not JSON is a cut or broken event, whatever object is left inside it.
	if (/^\s*[[{]/.test(line.text)) return undefined;
	let start = line.text.indexOf('{"', 1);
	for (let tries = 0; start > 0 && tries < maxJsonStarts; tries++, start = line.text.indexOf('{"', start + 1)) {
		let value: unknown;
		try {
			value = JSON.parse(line.text.slice(start));
		} catch {
			continue;
		}

		if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
		const prefix = line.text.slice(0, start);
		const note: Diagnostic = {
			line: line.line,
			source: line.source,
			reason: `text before the event on this line was left out: ${JSON.stringify(prefix.length > 80 ? `${prefix.slice(0, 79)}…` : prefix)}`,
		};
		let item: ParsedItem;
		try {
			item = parseValue(value, line, options);
		} catch {
			return undefined;
		}

		if (item.kind === 'diagnostic') return undefined;
		return item.kind === 'record' ? {...item, note} : {...item, note: item.note ?? note};
	}

	return undefined;
}

function parseValue(value: unknown, line: Line, options: ParseOptions): ParsedItem {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return diagnostic(line, `not an event: JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}, expected an object`);
	}

	const ref: EventRef = {source: line.source, line: line.line, offset: line.offset};
	const kind = 'kind' in value ? value.kind : undefined;
	const type = 'type' in value ? value.type : undefined;
	const forced = options.dialect;
	// A dialect read per stream takes every line as it is: its reader says what is wrong with one.
	if (forced !== undefined && forced !== 'perstack' && forced !== 'drover' && forced !== 'daemon') return record(value as Record<string, unknown>, ref);

	// Before drover's events, which have a `kind` and no `type`: so has a Gemini CLI chat's header (`kind: "main"`).
	if (forced === undefined && typeof type !== 'string' && isDialectLineWithoutType(value as Record<string, unknown>))
		return record(value as Record<string, unknown>, ref);
	if (typeof kind === 'string' && typeof type !== 'string' && (forced === undefined || forced === 'drover')) {
		if (!droverEventKinds.has(kind)) return unknown(value, 'drover', kind, ref);
		const parsed = droverEventSchema().safeParse(value);
		if (!parsed.success) return diagnostic(line, invalid(kind, parsed.error));
		const turn = 'turn' in value ? value.turn : undefined;
		return withNote(fromDrover(parsed.data, ref), isBadStepNumber(turn) ? {path: 'turn', value: turn} : undefined, line);
	}

	if (typeof type !== 'string') {
		if (forced !== undefined && typeof kind === 'string') return unknown(value, forced, kind, ref);
		return diagnostic(line, noType);
	}

	if (forced === 'drover') return unknown(value, 'drover', type, ref);
	if (daemonEventTypes.has(type) && (forced === 'daemon' || (forced === undefined && !('jobId' in value)))) {
		const parsed = daemonSchemas().event.safeParse(value);
		if (!parsed.success) return diagnostic(line, invalid(type, parsed.error));
		return {kind: 'event', event: fromDaemon(parsed.data, ref)};
	}

	if (forced === 'daemon') return unknown(value, 'daemon', type, ref);
	if (!perstackEventTypes.has(type)) return forced === 'perstack' ? unknown(value, 'perstack', type, ref) : record(value as Record<string, unknown>, ref);
	const read = options.fast ? readPerstackEvent(value, type) : undefined;
	if (read) return withNote(fromPerstack(read, ref), badStepNumber(value, read), line);
	const parsed = perstackSchemas().event.safeParse(value);
	if (!parsed.success) return diagnostic(line, invalid(type, parsed.error));
	return withNote(fromPerstack(parsed.data, ref), badStepNumber(value, parsed.data), line);
}

/** An event, with the diagnostic of a step number read as none when there was one. */
function withNote(event: AgentEvent, bad: {path: string; value: unknown} | undefined, line: Line): ParsedLine {
	if (!bad) return {kind: 'event', event};
	return {kind: 'event', event, note: {line: line.line, source: line.source, reason: `${event.wireType} event: ${badStepNumberReason(bad.path, bad.value)}`}};
}

/** The diagnostic of a line with neither `type` nor `kind`. */
const noType = 'not an event: no "type" or "kind" field';

/**
 * A record with no `type` that the reader of its stream's dialect does not know (parseValue let it through for
 * another dialect's, untyped.ts): the bad line such a line is.
 */
export function untypedLine(item: WireRecord): ParsedLine {
	return {kind: 'diagnostic', diagnostic: {line: item.ref.line, source: item.ref.source, reason: noType}};
}

function diagnostic(line: Line, reason: string): ParsedLine {
	return {kind: 'diagnostic', diagnostic: {line: line.line, source: line.source, reason}};
}

function describeJsonError(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	// V8 quotes the offending input in the message; keep the reason short, and never cut a surrogate pair
	// in half (a lone surrogate is not valid UTF-8 once written out).
	if (message.length <= 120) return message;
	const code = message.charCodeAt(116);
	return `${message.slice(0, code >= 0xd800 && code <= 0xdbff ? 116 : 117)}...`;
}

export function invalid(type: string, error: z.ZodError): string {
	const issue = error.issues[0];
	if (!issue) return `invalid ${type} event`;
	const path = issue.path.map(String).join('.');
	return `invalid ${type} event: ${path === '' ? '' : `${path}: `}${issue.message}`;
}

/**
 * An agent CLI's line as its reader takes it: what its fast reader made (`fast`), else what the schema makes of the
 * line, which judges what the fast reader did not take; undefined, said as a diagnostic, when the schema refuses it.
 * The schema is asked for only then: it brings zod.
 */
export function readOrJudge<T>(
	fast: T | undefined,
	schema: () => {safeParse(value: unknown): z.ZodSafeParseResult<T>},
	value: Record<string, unknown>,
	type: string,
	ref: EventRef,
	out: ParsedOut,
): T | undefined {
	if (fast !== undefined) return fast;
	const parsed = schema().safeParse(value);
	if (parsed.success) return parsed.data;
	out({kind: 'diagnostic', diagnostic: {line: ref.line, source: ref.source, reason: invalid(type, parsed.error)}});
	return undefined;
}

function record(value: Record<string, unknown>, ref: EventRef): WireRecord {
	return {kind: 'record', value, ref};
}

/**
 * A record no stream reader took (no dialect read per stream knows its stream): an unknown event, of Perstack when
 * it has Perstack's ids, else of the daemon, as such lines always were.
 */
export function unknownEvent(item: WireRecord): ParsedLine {
	const {value, ref} = item;
	const type = value['type'];
	return unknown(value, 'jobId' in value || 'expertKey' in value ? 'perstack' : 'daemon', typeof type === 'string' ? type : '', ref);
}

function unknown(value: object, dialect: Dialect, wireType: string, ref: EventRef): ParsedLine {
	const runId = stringField(value, 'runId') ?? '';
	return {
		kind: 'event',
		event: {
			kind: 'unknown',
			dialect,
			wireType,
			id: stringField(value, 'id') ?? `${ref.source}:${ref.line}`,
			jobId: stringField(value, 'jobId') ?? '',
			runId,
			expertKey: stringField(value, 'expertKey'),
			step: undefined,
			timestamp: undefined,
			agent: undefined,
			ref,
		},
	};
}
