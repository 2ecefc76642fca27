import {z} from 'zod';
import {describe, expect, it} from 'vitest';
import {array, boolean, invalid, isRecord, literal, object, optional, type Reader, string, transform, union, unknown, withDefault} from './wire-reader.js';

/*
 * Each reader combinator accepts what its zod namesake accepts, refuses what it refuses, and gives the same
 * value: the fast reader built from them stands in for the schemas.
 */

type Verdict = {accepted: true; value: unknown} | {accepted: false};

function readerVerdict<T>(reader: Reader<T>, value: unknown): Verdict {
	try {
		return {accepted: true, value: reader.read(value)};
	} catch (error) {
		if (error === invalid) return {accepted: false};
		throw error;
	}
}

function zodVerdict(schema: z.ZodType, value: unknown): Verdict {
	const parsed = schema.safeParse(value);
	return parsed.success ? {accepted: true, value: parsed.data} : {accepted: false};
}

const samples: unknown[] = ['', 'text', 0, 12, true, false, null, undefined, [], ['a', 'b'], ['a', 1], {}, {name: 'n'}, {name: 1}, {name: 'n', extra: true}];

function expectSameAsZod<T>(reader: Reader<T>, schema: z.ZodType, values: unknown[] = samples): void {
	for (const value of values) expect(readerVerdict(reader, value), JSON.stringify(value) ?? 'undefined').toEqual(zodVerdict(schema, value));
}

describe('the wire readers, beside their zod namesakes', () => {
	it('string, boolean and unknown accept what z.string(), z.boolean() and z.unknown() accept', () => {
		expectSameAsZod(string, z.string());
		expectSameAsZod(boolean, z.boolean());
		expectSameAsZod(unknown, z.unknown());
	});

	it('literal accepts only its own value', () => {
		expectSameAsZod(literal('text'), z.literal('text'));
	});

	it('optional lets undefined through, and nothing else the inner reader refuses', () => {
		expectSameAsZod(optional(string), z.string().optional());
	});

	it('withDefault turns undefined into the default and reads anything else as before', () => {
		expectSameAsZod(withDefault(string, 'fallback'), z.string().default('fallback'));
		expect(readerVerdict(withDefault(string, 'fallback'), undefined)).toEqual({accepted: true, value: 'fallback'});
	});

	it('array reads every element, and refuses the array for one bad element', () => {
		expectSameAsZod(array(string), z.array(z.string()));
	});

	it('object reads the keys of its shape, drops the others, and refuses a missing required key', () => {
		expectSameAsZod(object({name: string}), z.object({name: z.string()}));
		expectSameAsZod(object({name: optional(string)}), z.object({name: z.string().optional()}));
		expect(readerVerdict(object({name: string}), {name: 'n', extra: true})).toEqual({accepted: true, value: {name: 'n'}});
	});

	it('union accepts what either option accepts, trying them in order', () => {
		expectSameAsZod(union(string, array(string)), z.union([z.string(), z.array(z.string())]));
		expectSameAsZod(union(literal('a'), literal('text')), z.union([z.literal('a'), z.literal('text')]));
	});

	it('transform applies the very function to what the inner reader gives', () => {
		const length = (text: string) => text.length;
		expectSameAsZod(transform(string, length), z.string().transform(length));
		expect(readerVerdict(transform(string, length), 'four')).toEqual({accepted: true, value: 4});
	});

	it('reads nested events as the schema does', () => {
		const reader = object({
			type: literal('callTools'),
			calls: array(object({id: string, args: optional(unknown)})),
			note: optional(union(string, array(string))),
		});
		const schema = z.object({
			type: z.literal('callTools'),
			calls: z.array(z.object({id: z.string(), args: z.unknown().optional()})),
			note: z.union([z.string(), z.array(z.string())]).optional(),
		});
		expectSameAsZod(reader, schema, [
			{type: 'callTools', calls: [{id: 't1', args: {path: 'a'}}]},
			{type: 'callTools', calls: [{id: 't1'}], note: ['x']},
			{type: 'callTools', calls: [{id: 1}]},
			{type: 'callTools', calls: {}},
			{type: 'startRun', calls: []},
			{type: 'callTools', calls: [], note: 3},
		]);
	});
});

describe('a union whose first option fits by kind', () => {
	it('refuses what a later option would have accepted, leaving the value to the schema', () => {
		const reader = union(object({a: string}), object({b: string}));
		const schema = z.union([z.object({a: z.string()}), z.object({b: z.string()})]);
		expect(zodVerdict(schema, {b: 'x'})).toEqual({accepted: true, value: {b: 'x'}});
		expect(readerVerdict(reader, {b: 'x'})).toEqual({accepted: false});
	});
});

describe('fits', () => {
	it('judges a value by its kind only', () => {
		expect(object({name: string}).fits({})).toBe(true);
		expect(object({name: string}).fits([])).toBe(false);
		expect(array(string).fits([1])).toBe(true);
		expect(optional(string).fits(undefined)).toBe(true);
		expect(withDefault(string, '').fits(undefined)).toBe(true);
		expect(literal('a').fits('b')).toBe(false);
	});
});

describe('isRecord', () => {
	it('takes plain objects, not arrays or null', () => {
		expect(isRecord({})).toBe(true);
		expect(isRecord([])).toBe(false);
		expect(isRecord(null)).toBe(false);
		expect(isRecord('object')).toBe(false);
	});
});
