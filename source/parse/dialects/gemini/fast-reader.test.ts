import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {describeFastReaderAgreement, expectAgreementOnEveryField, expectSameStream, streamFiles} from '../../../../test/helpers/fast-reader-agreement.js';
import {fixturePath} from '../../../../test/helpers/load.js';
import {readGeminiEvent, readGeminiJsonOutput} from './fast-reader.js';
import {geminiSchemas} from './schema.js';

/*
 * Gemini CLI's lines are read without zod (fast-reader.ts); PERSCOPE_FAST=0 validates each with the schema. Both
 * must make the same events and diagnostics from every recording and sample, a generated stream, lines with any
 * field made wrong, and lines no recording has (test/helpers/fast-reader-agreement.ts).
 */

describeFastReaderAgreement({
	title: 'Gemini CLI read by the fast reader and by the schema',
	streams: [{dialect: 'gemini', files: streamFiles('gemini', 'gemini-cli'), atLeast: 9, session: 'fix-and-delegate.jsonl'}],
	fast: readGeminiEvent,
	schema: value => geminiSchemas().event.safeParse(value),
	everyField: {checks: 1000},
	anyValue: {runs: 300},
});

describe('Gemini CLI’s --output-format json read by the fast reader and by the schema', () => {
	const output = JSON.stringify(JSON.parse(readFileSync(fixturePath('gemini/json-output.json'), 'utf8')));
	// Its one object stands in for a stream of lines; the error object is the CLI's JsonError as its types declare it.
	const failed = JSON.stringify({session_id: 's', error: {type: 'FatalTurnLimitedError', message: 'Reached max session turns', code: 53}});

	it('makes the same events from the recorded output and an error, read fast and with the schema', () => {
		expectSameStream([output], 'json-output.json');
		expectSameStream([failed], 'error');
	});

	it('takes the output with any field made wrong as the schema does', () => {
		expect(expectAgreementOnEveryField(readGeminiJsonOutput, value => geminiSchemas().jsonOutput.safeParse(value), [output, failed])).toBeGreaterThan(200);
	});
});
