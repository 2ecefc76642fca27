import {describe, expect, it} from 'vitest';
import {
	expectAgreementOnEveryField,
	pathsOf,
	expectSameStream,
	expectSameStreamsWithAnyValue,
	generatedLines,
	hostileLines,
	streamFiles,
} from '../../../../test/helpers/fast-reader-agreement.js';
import {readClaudeLine} from './fast-reader.js';
import {claudeSchemas} from './schema.js';

/*
 * Claude Code's lines (and Amp's, the same envelope) are read without zod (fast-reader.ts); PERSCOPE_FAST=0
 * validates each with the schema. Both must make the same events and diagnostics from every recording and sample,
 * a generated stream, lines with any field made wrong, and lines no recording has.
 */

const claude = streamFiles('claude-code', 'claude-code');
const amp = streamFiles('amp', 'amp');
const schema = (value: unknown) => claudeSchemas().line.safeParse(value);

/** A value's JSON kind; a string by its value where it names a kind (`type`, `subtype`). */
function kindOf(value: unknown, key: string | number | undefined): string {
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'string' && (key === 'type' || key === 'subtype')) return value;
	return value === null ? 'null' : typeof value;
}

describe('Claude Code and Amp read by the fast reader and by the schema', () => {
	it('makes the same events and diagnostics from every recording and sample', () => {
		// The repository's own recordings and samples (13 and 2); ../shared's join them where it is there (not in CI).
		expect(claude.length).toBeGreaterThanOrEqual(13);
		expect(amp.length).toBeGreaterThanOrEqual(2);
		for (const file of [...claude, ...amp]) expectSameStream(file.lines, file.name);
	});

	it('makes the same from a generated stream of many sessions', () => {
		expectSameStream(generatedLines('claude-code', 3000), 'generated');
	});

	it('takes a line with any field made wrong as the schema does', () => {
		// The schema reads no deeper than a message's content blocks' fields (message.content.0.text): below that, a
		// tool's input and result are taken as they are.
		// One line of each shape (type, subtype, event type, block types) is enough: the rest repeat them.
		const lines = [...claude, ...amp].flatMap(file => file.lines).filter(line => line.startsWith('{'));
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

		expect(expectAgreementOnEveryField(readClaudeLine, schema, [...byShape.values()], 4)).toBeGreaterThan(10_000);
	});

	it('makes the same from streams with any JSON value put anywhere', () => {
		expectSameStreamsWithAnyValue(
			[...claude, ...amp].filter(file => file.lines.length < 200),
			200,
		);
	});

	it('makes the same from lines no recording has, before and after a session’s lines', () => {
		const session = claude.find(file => file.name.endsWith('nested-subagents.ndjson'))!.lines;
		expectSameStream([...hostileLines, ...session, ...hostileLines], 'hostile');
		expectSameStream([...hostileLines, ...session], 'hostile, forced', 'claude-code');
		expectSameStream([...hostileLines, ...amp[0]!.lines], 'hostile, amp', 'amp');
	});
});
