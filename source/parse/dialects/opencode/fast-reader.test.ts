import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {expectEqual} from '../../../../test/helpers/expect-same.js';
import {deleted, pathsOf, withValueAt} from '../../../../test/helpers/fast-reader-agreement.js';
import {fixtureFiles} from '../../../../test/helpers/fixture-files.js';
import {isOpencodeType, opencodeEventTypes, readOpencodeEvent} from './fast-reader.js';
import {opencodeSchemas} from './schema.js';

/*
 * opencode events are read without zod (fast-reader.ts). For any value, that reader must give what the schema
 * gives, or nothing (then the schema judges the line): on an event of each type with every field the schema
 * declares, on each of its fields missing or of another kind, on every line of the opencode fixtures, and on those
 * lines with random JSON put anywhere.
 */

function defOf(schema: unknown): Record<string, unknown> | undefined {
	const internals: unknown = typeof schema === 'object' && schema !== null ? Reflect.get(schema, '_zod') : undefined;
	const def: unknown = typeof internals === 'object' && internals !== null ? Reflect.get(internals, 'def') : undefined;
	return typeof def === 'object' && def !== null ? Object.fromEntries(Object.entries(def)) : undefined;
}

/** A valid value for the schema with every optional field present. */
function fullValue(schema: unknown, path: string): unknown {
	const def = defOf(schema);
	switch (def?.['type']) {
		case 'object':
			return Object.fromEntries(Object.entries(Object(def['shape'])).map(([key, field]) => [key, fullValue(field, `${path}.${key}`)]));
		case 'string':
			return `${path}!`;
		case 'literal':
			return Array.isArray(def['values']) ? def['values'][0] : undefined;
		case 'unknown':
			return {kept: [path, 1, null]};
		case 'optional':
			return fullValue(def['innerType'], path);
		case 'array':
			return [fullValue(def['element'], `${path}.0`), fullValue(def['element'], `${path}.1`)];
		case 'pipe':
			// A number sent as a string: what timestamps, token counts and the cost are read from too.
			return '1795000000000';
		default:
			throw new Error(`unexpected schema ${String(def?.['type'])} at ${path}`);
	}
}

function fullEvent(type: string): Record<string, unknown> {
	const option = opencodeSchemas().event.options.find(candidate => candidate.shape.type.value === type);
	return Object.fromEntries(Object.entries(Object(fullValue(option, type))));
}

function expectAgreement(value: unknown, label: string): void {
	const type: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, 'type') : undefined;
	if (typeof type !== 'string' || !isOpencodeType(type)) return;
	const read = readOpencodeEvent(value, type);
	const parsed = opencodeSchemas().event.safeParse(value);
	if (parsed.success) expectEqual(read, parsed.data, label);
	else expect(read, label).toBeUndefined();
}

const wrongValues: unknown[] = [deleted, null, 'text', '', 0, -1, 1.5, '12', true, [], ['text'], {}, Number.MAX_VALUE];

function fixtureEvents(): Array<Record<string, unknown>> {
	return fixtureFiles(['.jsonl'])
		.filter(path => path.includes('/opencode/'))
		.flatMap(path => readFileSync(path, 'utf8').split('\n'))
		.filter(line => line.trim() !== '')
		.map(line => Object.fromEntries(Object.entries(Object(JSON.parse(line)))));
}

describe('readOpencodeEvent gives what the schema gives, or leaves the event to it', () => {
	it('knows the schema’s event types', () => {
		expect([...opencodeEventTypes].sort()).toEqual(
			opencodeSchemas()
				.event.options.map(option => option.shape.type.value)
				.sort(),
		);
	});

	it('for an event of each type with every field the schema declares', () => {
		for (const type of opencodeEventTypes) {
			const event = fullEvent(type);
			expect(isOpencodeType(type) && readOpencodeEvent(event, type), type).toBeTruthy();
			expectAgreement(event, type);
		}
	});

	it('for the same events with any one field missing or of another kind', () => {
		for (const type of opencodeEventTypes) {
			const event = fullEvent(type);
			for (const path of pathsOf(event)) {
				if (path.length === 1 && path[0] === 'type') continue;
				for (const wrong of wrongValues) expectAgreement(withValueAt(event, path, wrong), `${type} ${path.join('.')} = ${String(wrong)}`);
			}
		}
	});

	it('for every line of the opencode fixtures, each of which it reads itself', () => {
		const events = fixtureEvents();
		expect(events.length).toBeGreaterThan(30);
		for (const event of events) {
			expectAgreement(event, JSON.stringify(event).slice(0, 200));
			const type = String(event['type']);
			expect(isOpencodeType(type) && readOpencodeEvent(event, type), type).toBeTruthy();
		}
	});

	it('for fixture lines with any JSON value put anywhere', () => {
		const events = fixtureEvents();
		fc.assert(
			fc.property(fc.nat(), fc.nat(), fc.jsonValue(), (pickEvent, pickPath, value) => {
				const event = events[pickEvent % events.length]!;
				const paths = pathsOf(event).filter(path => !(path.length === 1 && path[0] === 'type'));
				const path = paths[pickPath % paths.length];
				if (path) expectAgreement(withValueAt(event, path, value), `${JSON.stringify(event).slice(0, 120)} ${path.join('.')}`);
			}),
			{numRuns: 2000},
		);
	});
});
