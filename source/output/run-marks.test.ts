import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fixturePath} from '../../test/helpers/load.js';
import {Ingest} from '../load/ingest.js';
import {createModel, endInput} from '../model/state.js';
import {TranscriptWriter} from './transcript.js';

/** `--print` of some fixtures read one after the other, as `perscope --print a.ndjson b.ndjson` reads them. */
function printOf(...fixtures: string[]): string[] {
	const model = createModel();
	const writer = new TranscriptWriter(model, 'text');
	const ingest = new Ingest({maxLineBytes: 1 << 24, model, afterEvent: () => writer.collect()});
	let out = '';
	for (const fixture of fixtures) {
		const splitter = ingest.splitter(fixture);
		splitter.push(readFileSync(fixturePath(fixture)));
		splitter.end();
		out += writer.take();
	}

	endInput(model, {exitCode: undefined, lastStderr: undefined});
	writer.finish();
	return (out + writer.take()).trimEnd().split('\n');
}

const marks = (lines: string[]) => lines.filter(line => /^ *(──|\[[^\]]*\] [✓✗⏸⏹] run )/.test(line));

describe('--print marks jobs and the stops of runs', () => {
	it('marks where each job starts (id, coordinator, time) and ends (status, steps, tokens, cost, duration)', () => {
		const lines = printOf('real/simple.ndjson', 'max-steps.ndjson');
		expect(marks(lines)).toEqual([
			'── job ivc73wpbhfw5k0eafe5tydni · simple-expert · started 2026-11-21 21:10:00 UTC',
			'[simple-expert] ✓ run completed · 1 step',
			'── job ivc73wpbhfw5k0eafe5tydni ✓ completed · 1 step · 1900 in / 23 out tokens · $0.0060 · 308ms',
			'── job eqtrv4s88wd0z8gv93phbsrj · explorer · started 2026-11-22 21:36:40 UTC',
			'[explorer] ⏹ run stopped at max steps: 3/3',
			'── job eqtrv4s88wd0z8gv93phbsrj ⏹ stopped at max steps · 3 steps · 4665 in / 95 out tokens · $0.02 · 472ms',
		]);
		// A job's lines are between its marks.
		expect(lines[0]).toMatch(/^── job ivc73/);
		expect(lines.at(-1)).toMatch(/^── job eqtrv4s88wd0z8gv93phbsrj ⏹/);
	});

	it('says why a run stopped: the error, the delegates it waits for, the question it asks', () => {
		expect(marks(printOf('stop-error.ndjson'))).toContain('[log-analyst] ✗ run failed: AI_APICallError: prompt is too long: 211403 tokens > 200000 maximum');
		expect(marks(printOf('parallel-delegate.ndjson'))).toContain('[release-coordinator] ⏸ run waits for delegates: changelog-writer, docs-checker');
		expect(marks(printOf('interactive.ndjson'))).toEqual([
			'── job xdx1wi342kltbv0vgyf08e5n · release-notes · started 2026-11-22 21:46:50 UTC',
			'[release-notes] ⏸ run waits for input: Should the announcement be for the blog (long) or for the in-app banner (one sentence)? · answer with: perstack run --runtime local release-notes "<answer>" --continue-job xdx1wi342kltbv0vgyf08e5n -i',
			'── job xdx1wi342kltbv0vgyf08e5n ⏸ waits for input · 2 steps · 2740 in / 53 out tokens · $0.0090 · 318ms',
			'── job xdx1wi342kltbv0vgyf08e5n · release-notes · continues 2026-11-22 21:47:16 UTC',
			'[release-notes] ✓ run completed · 3 steps',
			'── job xdx1wi342kltbv0vgyf08e5n ✓ completed · 5 steps · 8155 in / 114 out tokens · $0.03 · 26.5s',
		]);
	});

	it("writes a stop after the activities that came before it, a delegate's indented under its parent", () => {
		const lines = printOf('nested-delegate.ndjson');
		const researcherStop = lines.indexOf('    [researcher] ✓ run completed · 3 steps');
		expect(researcherStop).toBeGreaterThan(lines.findIndex(line => line.startsWith('    [researcher] ✅ complete')));
		expect(lines.indexOf('[coordinator] ✓ run completed · 2 steps')).toBe(lines.length - 2);
	});

	it('a follow-up run that completes from a completed checkpoint still says so', () => {
		expect(marks(printOf('continue-followup.ndjson')).filter(line => line.includes('run completed'))).toEqual([
			'[writer] ✓ run completed · 2 steps',
			'[writer] ✓ run completed · 1 step',
		]);
	});
});
