import {describe, expect, it} from 'vitest';
import {
	expectAgreementOnEveryField,
	expectSameStream,
	expectSameStreamsWithAnyValue,
	generatedLines,
	hostileLines,
	streamFiles,
} from '../../../../test/helpers/fast-reader-agreement.js';
import {readGeminiEvent} from './fast-reader.js';
import {geminiSchemas} from './schema.js';

/*
 * Gemini CLI's lines are read without zod (fast-reader.ts); PERSCOPE_FAST=0 validates each with the schema. Both
 * must make the same events and diagnostics from every recording and sample, a generated stream, lines with any
 * field made wrong, and lines no recording has.
 */

const files = streamFiles('gemini', 'gemini-cli');
const schema = (value: unknown) => geminiSchemas().event.safeParse(value);

describe('Gemini CLI read by the fast reader and by the schema', () => {
	it('makes the same events and diagnostics from every recording and sample', () => {
		expect(files.length).toBeGreaterThan(8);
		for (const file of files) expectSameStream(file.lines, file.name);
	});

	it('makes the same from a generated stream of many sessions', () => {
		expectSameStream(generatedLines('gemini', 3000), 'generated');
	});

	it('takes a line with any field made wrong as the schema does', () => {
		const lines = files.flatMap(file => file.lines).filter(line => line.startsWith('{'));
		expect(expectAgreementOnEveryField(readGeminiEvent, schema, lines)).toBeGreaterThan(1000);
	});

	it('makes the same from streams with any JSON value put anywhere', () => {
		expectSameStreamsWithAnyValue(files, 300);
	});

	it('makes the same from lines no recording has, before and after a session’s lines', () => {
		const session = files.find(file => file.name.endsWith('fix-and-delegate.jsonl'))!.lines;
		expectSameStream([...hostileLines, ...session, ...hostileLines], 'hostile');
		expectSameStream([...hostileLines, ...session], 'hostile, forced', 'gemini');
	});
});
