import {describeFastReaderAgreement, streamFiles} from '../../../../test/helpers/fast-reader-agreement.js';
import {readGeminiEvent} from './fast-reader.js';
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
