import type {AgentEvent, EventRef} from './events.js';
import {fromPerstack, parseLine} from './normalise.js';
import type {PerstackEvent} from './wire/perstack.js';

/*
 * A fast lane for the streaming events that make up most lines of a Perstack log: a `streamReasoning` or
 * `streamRunResult` line per few characters of model output. For a line in exactly the form the runtime
 * writes (keys in its order, no whitespace, string values, whole-number timestamp and step), what JSON.parse
 * and the schema would give is plain: the same strings and numbers. So the fields are read with one regular
 * expression and the event is built by the same function as the slow path (`fromPerstack`), without parsing
 * the line as JSON or running the schema. Any other line, including one that would be invalid, is left to
 * parseLine.
 *
 * If the schemas change so that this no longer holds, the first lines of each type, which are always checked
 * against parseLine, turn the lane off; test/perf compares whole logs both ways.
 */

/** JSON string contents, with only valid escapes and no raw control characters (JSON.parse rejects those). */
const jsonString = String.raw`"((?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*)"`;
/** Whole numbers of up to 15 digits: exact as doubles, and well inside any timestamp or step range. */
const wholeNumber = String.raw`(-?(?:0|[1-9][0-9]{0,14}))`;

function linePattern(type: string, field: 'delta' | 'text' | undefined): RegExp {
	const head = String.raw`^\{"type":"${type}","id":${jsonString},"expertKey":${jsonString},"timestamp":${wholeNumber},"jobId":${jsonString},"runId":${jsonString},"stepNumber":${wholeNumber}`;
	return new RegExp(field === undefined ? `${head}\\}$` : `${head},"${field}":${jsonString}\\}$`);
}

export const streamTypes = [
	'startStreamingReasoning',
	'streamReasoning',
	'completeStreamingReasoning',
	'startStreamingRunResult',
	'streamRunResult',
	'completeStreamingRunResult',
] as const;

export type StreamType = (typeof streamTypes)[number];

const payloadField: Record<StreamType, 'delta' | 'text' | undefined> = {
	startStreamingReasoning: undefined,
	streamReasoning: 'delta',
	completeStreamingReasoning: 'text',
	startStreamingRunResult: undefined,
	streamRunResult: 'delta',
	completeStreamingRunResult: 'text',
};

const patterns: ReadonlyMap<string, {type: StreamType; pattern: RegExp}> = new Map(
	streamTypes.map(type => [type, {type, pattern: linePattern(type, payloadField[type])}]),
);

/** What a streaming line holds (`text` is its `delta` or `text`, or '' for a start). */
export type StreamFields = {
	type: StreamType;
	id: string;
	expertKey: string;
	timestamp: number;
	jobId: string;
	runId: string;
	stepNumber: number;
	text: string;
};

/** How many lines of each type are parsed both ways before the lane is trusted. */
const checkedLines = 16;

function unescape(raw: string): string {
	return raw.includes('\\') ? String(JSON.parse(`"${raw}"`)) : raw;
}

/** What the schema gives for such a line. Written out in full: a spread followed by more keys is slow in V8. */
function wireEvent(fields: StreamFields): PerstackEvent {
	const {type, id, expertKey, timestamp, jobId, runId, stepNumber, text} = fields;
	switch (type) {
		case 'startStreamingReasoning':
		case 'startStreamingRunResult':
			return {id, expertKey, timestamp, jobId, runId, stepNumber, type};
		case 'streamReasoning':
		case 'streamRunResult':
			return {id, expertKey, timestamp, jobId, runId, stepNumber, type, delta: text};
		case 'completeStreamingReasoning':
		case 'completeStreamingRunResult':
			return {id, expertKey, timestamp, jobId, runId, stepNumber, type, text};
	}
}

/** The event of a streaming line, built as parseLine builds it. */
export function streamEvent(fields: StreamFields, ref: EventRef): AgentEvent {
	return fromPerstack(wireEvent(fields), ref);
}

export class StreamLines {
	readonly #checked = new Map<string, number>();
	#trusted = true;

	/** The fields of a streaming line in the runtime's own form, or undefined to parse it the usual way. */
	match(text: string, ref: EventRef): StreamFields | undefined {
		if (!this.#trusted || !text.startsWith('{"type":"')) return undefined;
		const entry = patterns.get(text.slice(9, text.indexOf('"', 9)));
		if (!entry) return undefined;
		const match = entry.pattern.exec(text);
		if (!match) return undefined;
		const fields: StreamFields = {
			type: entry.type,
			id: unescape(match[1] ?? ''),
			expertKey: unescape(match[2] ?? ''),
			timestamp: Number(match[3]),
			jobId: unescape(match[4] ?? ''),
			runId: unescape(match[5] ?? ''),
			stepNumber: Number(match[6]),
			text: unescape(match[7] ?? ''),
		};
		const checked = this.#checked.get(entry.type) ?? 0;
		if (checked >= checkedLines) return fields;
		this.#checked.set(entry.type, checked + 1);
		const slow = parseLine({...ref, text});
		if (slow.kind === 'event' && sameData(slow.event, streamEvent(fields, ref))) return fields;
		this.#trusted = false;
		return undefined;
	}
}

/** Whether two values hold the same plain data: same keys in the same order, same primitives. */
function sameData(a: unknown, b: unknown): boolean {
	if (Object.is(a, b)) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keysA = Object.keys(a);
	const keysB = Object.keys(b);
	if (keysA.length !== keysB.length) return false;
	for (const [index, key] of keysA.entries()) {
		if (keysB[index] !== key || !sameData(Reflect.get(a, key), Reflect.get(b, key))) return false;
	}

	return true;
}
