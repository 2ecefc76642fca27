import {describeFastReaderAgreement, streamFiles} from '../../../../test/helpers/fast-reader-agreement.js';
import {readCodexEvent} from './fast-reader.js';
import {codexSchemas} from './schema.js';

/*
 * Codex's lines are read without zod (fast-reader.ts); PERSCOPE_FAST=0 validates each with the schema. Both
 * must make the same events and diagnostics from every recording and sample, a generated stream, lines with any
 * field made wrong, and lines no recording has (test/helpers/fast-reader-agreement.ts).
 */

describeFastReaderAgreement({
	title: 'Codex read by the fast reader and by the schema',
	streams: [{dialect: 'codex', files: streamFiles('codex', 'codex'), atLeast: 9, session: 'edit-and-test.jsonl'}],
	fast: readCodexEvent,
	schema: value => codexSchemas().event.safeParse(value),
	everyField: {checks: 1000},
	anyValue: {runs: 300},
});
