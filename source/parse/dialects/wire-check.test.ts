import {z} from 'zod';
import {describe, expect, it} from 'vitest';
import {toNumber, timestampOf} from './common.js';
import {daemonEventTypes, daemonSchemas} from './daemon/schema.js';
import {droverEventKinds, droverEventSchema} from './drover/schema.js';
import {perstackEventTypes, perstackReaders} from './perstack/fast-reader.js';
import {perstackSchemas} from './perstack/schema.js';
import {specDifferences, typeListDifferences, unionDifferences} from './wire-check.js';
import {array, literal, object, optional, string, transform, union, unknown, withDefault} from './wire-reader.js';

/* The build's wire check (scripts/check-wire.mjs) passes for the real reader and fails for any difference. */

describe('the wire check', () => {
	it('finds the Perstack fast reader equal to the schema', () => {
		expect(unionDifferences(perstackSchemas().event, perstackReaders, 'type')).toEqual([]);
	});

	it('reports a field the reader does not read, and one the schema does not declare', () => {
		const schema = z.object({a: z.string(), b: z.string()});
		expect(specDifferences(schema, object({a: string, c: string}).spec, 'e')).toEqual(['e.b: in the schema, not read by the reader', 'e.c: read by the reader, not in the schema']);
	});

	it('reports a field read as another kind, however deep', () => {
		const schema = z.object({list: z.array(z.object({id: z.string().optional()}))});
		expect(specDifferences(schema, object({list: array(object({id: string}))}).spec, 'e')).toEqual(['e.list[].id: the schema has optional, the reader string']);
	});

	it('reports another transform, default, literal or union order', () => {
		expect(specDifferences(z.unknown().transform(toNumber).optional(), optional(transform(unknown, timestampOf)).spec, 'n')).toEqual([
			'n: the schema transforms with another function than the reader',
		]);
		expect(specDifferences(z.string().default(''), withDefault(string, '-').spec, 'd')).toEqual(['d: the schema\'s default is "", the reader\'s "-"']);
		expect(specDifferences(z.literal('a'), literal('b').spec, 't')).toEqual(['t: the schema has literal ["a"], the reader literal "b"']);
		expect(specDifferences(z.union([z.string(), z.array(z.string())]), union(array(string), string).spec, 'u')).toHaveLength(2);
	});

	it('reports a construct the readers do not know, or a check they do not make', () => {
		expect(specDifferences(z.number(), unknown.spec, 'x')).toEqual(['x: the schema uses number, which the readers do not know']);
		expect(specDifferences(z.string().min(1), string.spec, 'x')).toEqual(['x: the schema checks the string further, the reader does not']);
		expect(specDifferences(z.object({}).catchall(z.string()), object({}).spec, 'x')).toEqual(['x: the schema reads unknown keys, the reader does not']);
	});

	it('reports an event type with no reader, and a reader with no event type', () => {
		const events = z.discriminatedUnion('type', [z.object({type: z.literal('a')}), z.object({type: z.literal('b')})]);
		expect(unionDifferences(events, {a: object({type: literal('a')}), c: object({type: literal('c')})}, 'type')).toEqual(['b: in the schema, no reader', 'c: a reader, not in the schema']);
	});
});

describe('the check of event type lists', () => {
	it('finds each dialect’s list equal to its schema’s types', () => {
		expect(typeListDifferences(perstackSchemas().event, perstackEventTypes, 'type')).toEqual([]);
		expect(typeListDifferences(droverEventSchema(), droverEventKinds, 'kind')).toEqual([]);
		expect(typeListDifferences(daemonSchemas().event, daemonEventTypes, 'type')).toEqual([]);
	});

	it('reports a type missing from either side', () => {
		const events = z.discriminatedUnion('kind', [z.object({kind: z.literal('a')}), z.object({kind: z.literal('b')})]);
		expect(typeListDifferences(events, new Set(['a', 'c']), 'kind')).toEqual(['b: in the schema, not in the list', 'c: in the list, not in the schema']);
	});
});
