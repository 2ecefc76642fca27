import {describe, expect, it} from 'vitest';
import {jsonText, stringField} from './json-values.js';

/* Values that came out of JSON.parse, shown as JSON text or read as string fields, without ever throwing. */

describe('jsonText', () => {
	it('gives the JSON text of a value, as a tool’s arguments are shown', () => {
		expect(jsonText({path: 'a.ts', lines: [1, 2]})).toBe('{"path":"a.ts","lines":[1,2]}');
		expect(jsonText('plain')).toBe('"plain"');
		expect(jsonText(null)).toBe('null');
	});

	it('gives an empty text for what JSON has no text for', () => {
		expect(jsonText(undefined)).toBe('');
	});

	it('gives a placeholder, not an exception, for a value too deep to stringify', () => {
		const depth = 100_000;
		const deep: unknown = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
		expect(jsonText(deep)).toBe('[value too deep to show]');
	});
});

describe('stringField', () => {
	it('reads a field that is a string', () => {
		expect(stringField({runId: 'r1'}, 'runId')).toBe('r1');
		expect(stringField({runId: ''}, 'runId')).toBe('');
	});

	it('gives undefined for a missing field or one of another type', () => {
		expect(stringField({}, 'runId')).toBeUndefined();
		expect(stringField({runId: 42}, 'runId')).toBeUndefined();
		expect(stringField({runId: null}, 'runId')).toBeUndefined();
		expect(stringField({runId: ['r1']}, 'runId')).toBeUndefined();
	});
});
