import {describeFastReaderAgreement, streamFiles} from '../../../../test/helpers/fast-reader-agreement.js';
import {readRolloutLine} from './rollout-fast-reader.js';
import {rolloutSchemas} from './rollout-schema.js';

/*
 * Codex's rollouts are read without zod (rollout-fast-reader.ts); PERSCOPE_FAST=0 validates each line with the
 * schema. Both must make the same events and diagnostics from every recorded rollout, a generated stream of
 * sessions, lines with any field made wrong, and lines no recording has (test/helpers/fast-reader-agreement.ts).
 */

describeFastReaderAgreement({
	title: 'Codex rollouts read by the fast reader and by the schema',
	streams: [
		{
			dialect: 'codex',
			generated: 'codex-rollout',
			files: streamFiles('codex', 'codex').filter(file => /rollout-[^/]*\.jsonl$/.test(file.name)),
			atLeast: 5,
			session: 'rollout-tui.jsonl',
		},
	],
	fast: readRolloutLine,
	schema: value => rolloutSchemas().line.safeParse(value),
	everyField: {checks: 1000},
	anyValue: {runs: 200},
});
