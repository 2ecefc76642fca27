import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {expectEqual, expectSame, messageOf, type Message} from '../../../../test/helpers/expect-same.js';
import {deleted, pathsOf, withValueAt} from '../../../../test/helpers/fast-reader-agreement.js';
import {fromPerstack} from './normalise.js';
import {perstackEventTypes, readPerstackEvent} from './fast-reader.js';
import {perstackSchemas} from './schema.js';
import {fixtureFiles} from '../../../../test/helpers/fixture-files.js';

/*
 * Perstack events are read without zod (fast-reader.ts). For any value, that reader must
 * give what the schema gives, or nothing (then the schema reads the line). Checked on events holding every
 * field the schema declares, on each of those fields made wrong in every way, on every fixture line, and on
 * fixture events with random JSON put anywhere.
 */

const ref = {source: 's', line: 1, offset: 0};

function defOf(schema: unknown): Record<string, unknown> | undefined {
	const zodInternals: unknown = typeof schema === 'object' && schema !== null ? Reflect.get(schema, '_zod') : undefined;
	const def: unknown = typeof zodInternals === 'object' && zodInternals !== null ? Reflect.get(zodInternals, 'def') : undefined;
	return typeof def === 'object' && def !== null ? Object.fromEntries(Object.entries(def)) : undefined;
}

/** A valid value for the schema with every optional field present, strings telling where they are. */
function fullValue(schema: unknown, path: string): unknown {
	const def = defOf(schema);
	if (!def) throw new Error(`no schema at ${path}`);
	switch (def['type']) {
		case 'object': {
			const shape = def['shape'];
			if (typeof shape !== 'object' || shape === null) throw new Error(`no shape at ${path}`);
			return Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, fullValue(value, `${path}.${key}`)]));
		}

		case 'string':
			return `${path}!`;
		case 'boolean':
			return true;
		case 'literal': {
			const values = def['values'];
			return Array.isArray(values) ? values[0] : undefined;
		}

		case 'unknown':
			return {kept: [path, 1, null]};
		case 'optional':
		case 'default':
			return fullValue(def['innerType'], path);
		case 'array':
			return [fullValue(def['element'], `${path}.0`), fullValue(def['element'], `${path}.1`)];
		case 'union': {
			// The last option is the richest (a list of parts rather than a string).
			const options = def['options'];
			return Array.isArray(options) ? fullValue(options.at(-1), path) : undefined;
		}

		case 'pipe': {
			const input = defOf(def['in']);
			// A number sent as a string: what looseNumber, timestamps and token counts are there for.
			return input?.['type'] === 'unknown' ? '1795000000000' : fullValue(def['in'], path);
		}

		default:
			throw new Error(`unexpected schema type ${String(def['type'])} at ${path}`);
	}
}

function fullEvent(type: string): Record<string, unknown> {
	const option = perstackSchemas().event.options.find(candidate => candidate.shape.type.value === type);
	const value = fullValue(option, type);
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(type);
	return Object.fromEntries(Object.entries(value));
}

/** The reader gives an event exactly when the schema does, and then the same one (and the same AgentEvent). */
function expectAgreement(value: unknown, label: Message): void {
	const type = typeof value === 'object' && value !== null ? Reflect.get(value, 'type') : undefined;
	if (typeof type !== 'string') return;
	const read = readPerstackEvent(value, type);
	const parsed = perstackSchemas().event.safeParse(value);
	// expect() only when it fails, and isDeepStrictEqual first (expect-same.ts): this runs for every value of thousands of generated events.
	if (!parsed.success) {
		if (read !== undefined) expect(read, messageOf(label)).toBeUndefined();
		return;
	}

	expectEqual(read, parsed.data, label);
	if (read) expectSame(fromPerstack(read, ref), fromPerstack(parsed.data, ref), label);
}

const wrongValues: unknown[] = [deleted, null, 'text', '', 0, -1, 1.5, '12', true, [], ['text'], {}, {type: 'textPart'}, Number.MAX_VALUE];

function fixtureLines(): string[] {
	return fixtureFiles(['.ndjson', '.json'])
		.flatMap(path => readFileSync(path, 'utf8').split('\n'))
		.filter(line => line.trim() !== '');
}

function parsedObjects(lines: string[]): Array<Record<string, unknown>> {
	const out: Array<Record<string, unknown>> = [];
	for (const line of lines) {
		try {
			const value: unknown = JSON.parse(line);
			if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push(Object.fromEntries(Object.entries(value)));
		} catch {
			// Not JSON: not an event for either.
		}
	}

	return out;
}

describe('the event types known without building the schema are the schema’s own', () => {
	it('Perstack', () => {
		expect([...perstackEventTypes].sort()).toEqual(
			perstackSchemas()
				.event.options.map(option => option.shape.type.value)
				.sort(),
		);
	});
});

describe('readPerstackEvent gives what the schema gives, or leaves the event to it', () => {
	it('for an event of each type with every field the schema declares', () => {
		for (const type of perstackEventTypes) {
			const event = fullEvent(type);
			expect(readPerstackEvent(event, type), type).toBeDefined();
			expectAgreement(event, type);
		}
	});

	it('for the same events with any one field missing or of another type', () => {
		for (const type of perstackEventTypes) {
			const event = fullEvent(type);
			for (const path of pathsOf(event)) {
				if (path.length === 1 && path[0] === 'type') continue;
				for (const wrong of wrongValues) expectAgreement(withValueAt(event, path, wrong), () => `${type} ${path.join('.')} = ${String(wrong)}`);
			}
		}
	});

	it('for every event of the fixtures', () => {
		const events = parsedObjects(fixtureLines());
		expect(events.length).toBeGreaterThan(100);
		for (const event of events) expectAgreement(event, () => JSON.stringify(event).slice(0, 200));
	});

	it('for fixture events with any JSON value put anywhere', () => {
		const events = parsedObjects(fixtureLines()).filter(event => typeof event['type'] === 'string' && perstackEventTypes.has(event['type']));
		fc.assert(
			fc.property(fc.nat(), fc.nat(), fc.jsonValue(), (pickEvent, pickPath, value) => {
				const event = events[pickEvent % events.length]!;
				const paths = pathsOf(event).filter(path => !(path.length === 1 && path[0] === 'type'));
				const path = paths[pickPath % paths.length];
				if (path) expectAgreement(withValueAt(event, path, value), () => `${JSON.stringify(event).slice(0, 120)} ${path.join('.')}`);
			}),
			{numRuns: 2000},
		);
	});
});
