import {z} from 'zod';
import {describe, expect, it} from 'vitest';
import {toNumber, timestampOf} from './common.js';
import {daemonEventTypes, daemonSchemas} from './daemon/schema.js';
import {droverEventKinds, droverEventSchema} from './drover/schema.js';
import {perstackEventTypes, perstackReaders} from './perstack/fast-reader.js';
import {perstackSchemas} from './perstack/schema.js';
import {specDifferences, typeListDifferences, unionDifferences} from './wire-check.js';
import {array, byKey, literal, nullish, number, object, optional, preprocess, record, string, transform, union, unknown, withDefault} from './wire-reader.js';
import {claudeLineReader} from './claude-code/fast-reader.js';
import {claudeSchemas} from './claude-code/schema.js';
import {codexEventReader} from './codex/fast-reader.js';
import {codexSchemas} from './codex/schema.js';
import {geminiEventReader} from './gemini/fast-reader.js';
import {geminiSchemas} from './gemini/schema.js';

/* The build's wire check (scripts/check-wire.mjs) passes for the real reader and fails for any difference. */

describe('the wire check', () => {
	it('finds the Perstack fast reader equal to the schema', () => {
		expect(unionDifferences(perstackSchemas().event, perstackReaders, 'type')).toEqual([]);
	});

	it('reports a field the reader does not read, and one the schema does not declare', () => {
		const schema = z.object({a: z.string(), b: z.string()});
		expect(specDifferences(schema, object({a: string, c: string}).spec, 'e')).toEqual([
			'e.b: in the schema, not read by the reader',
			'e.c: read by the reader, not in the schema',
		]);
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
		expect(specDifferences(z.bigint(), unknown.spec, 'x')).toEqual(['x: the schema uses bigint, which the readers do not know']);
		expect(specDifferences(z.string().min(1), string.spec, 'x')).toEqual(['x: the schema checks the string further, the reader does not']);
		expect(specDifferences(z.object({}).catchall(z.string()), object({}).spec, 'x')).toEqual(['x: the schema reads unknown keys, the reader does not']);
	});

	it('finds the agent CLIs’ fast readers equal to their schemas', () => {
		expect(specDifferences(claudeSchemas().line, claudeLineReader.spec, 'line')).toEqual([]);
		expect(specDifferences(codexSchemas().event, codexEventReader.spec, 'event')).toEqual([]);
		expect(specDifferences(geminiSchemas().event, geminiEventReader.spec, 'event')).toEqual([]);
	});

	it('reports a nullable, a record, a preprocess or a discriminated union that differ', () => {
		expect(specDifferences(z.string().nullish(), optional(string).spec, 'n')).toEqual(['n: the schema has nullable, the reader string']);
		expect(specDifferences(z.string().nullish(), nullish(number).spec, 'n')).toEqual(['n: the schema has string, the reader number']);
		expect(specDifferences(z.record(z.string(), z.number()), record(string).spec, 'r')).toEqual(['r{}: the schema has number, the reader string']);
		expect(specDifferences(z.record(z.string().min(2), z.number()), record(number).spec, 'r')).toEqual(["r: the schema's record keys are not any string"]);
		expect(specDifferences(z.preprocess(toNumber, z.number()), preprocess(timestampOf, number).spec, 'p')).toEqual([
			'p: the schema preprocesses with another function than the reader',
		]);
		const events = z.discriminatedUnion('type', [z.object({type: z.literal('a')}), z.object({type: z.literal('b'), n: z.number()})]);
		expect(specDifferences(events, byKey('type', {b: object({type: literal('b'), n: number}), a: object({type: literal('a')})}).spec, 'e')).toEqual([
			"e: the schema's options are a, b, the reader's b, a",
		]);
		expect(specDifferences(events, byKey('type', {a: object({type: literal('a')}), b: object({type: literal('b'), n: string})}).spec, 'e')).toEqual([
			'e|b.n: the schema has number, the reader string',
		]);
	});

	it('reports an event type with no reader, and a reader with no event type', () => {
		const events = z.discriminatedUnion('type', [z.object({type: z.literal('a')}), z.object({type: z.literal('b')})]);
		expect(unionDifferences(events, {a: object({type: literal('a')}), c: object({type: literal('c')})}, 'type')).toEqual([
			'b: in the schema, no reader',
			'c: a reader, not in the schema',
		]);
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
