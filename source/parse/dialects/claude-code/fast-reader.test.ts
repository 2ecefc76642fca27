import {describeFastReaderAgreement, pathsOf, streamFiles} from '../../../../test/helpers/fast-reader-agreement.js';
import {readClaudeLine} from './fast-reader.js';
import {claudeSchemas} from './schema.js';

/*
 * Claude Code's lines (and Amp's, the same envelope) are read without zod (fast-reader.ts); PERSCOPE_FAST=0
 * validates each with the schema. Both must make the same events and diagnostics from every recording and sample,
 * a generated stream, lines with any field made wrong, and lines no recording has
 * (test/helpers/fast-reader-agreement.ts).
 */

/** A value's JSON kind; a string by its value where it names a kind (`type`, `subtype`). */
function kindOf(value: unknown, key: string | number | undefined): string {
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'string' && (key === 'type' || key === 'subtype')) return value;
	return value === null ? 'null' : typeof value;
}

/** One line of each shape (type, subtype, event type, block types), the shortest: the rest repeat them. */
function onePerShape(lines: string[]): string[] {
	const byShape = new Map<string, string>();
	for (const line of lines) {
		const value: unknown = JSON.parse(line);
		const kinds = pathsOf(value)
			.filter(path => path.length <= 4)
			.map(
				path =>
					`${path.map(key => (typeof key === 'number' ? '#' : key)).join('.')}:${kindOf(
						path.reduce<unknown>((at, key) => Reflect.get(Object(at), key), value),
						path.at(-1),
					)}`,
			);
		const shape = [...new Set(kinds)].sort().join(' ');
		const known = byShape.get(shape);
		if (known === undefined || line.length < known.length) byShape.set(shape, line);
	}

	return [...byShape.values()];
}

describeFastReaderAgreement({
	title: 'Claude Code and Amp read by the fast reader and by the schema',
	// The repository's own recordings and samples (13 and 2); ../shared's join them where it is there (not in CI).
	streams: [
		{dialect: 'claude-code', files: streamFiles('claude-code', 'claude-code'), atLeast: 13, session: 'nested-subagents.ndjson'},
		{dialect: 'amp', files: streamFiles('amp', 'amp'), atLeast: 2},
	],
	fast: readClaudeLine,
	schema: value => claudeSchemas().line.safeParse(value),
	// The schema reads no deeper than a message's content blocks' fields (message.content.0.text): below that, a
	// tool's input and result are taken as they are.
	everyField: {checks: 10_000, depth: 4, pick: onePerShape},
	anyValue: {runs: 200, files: file => file.lines.length < 200},
});
