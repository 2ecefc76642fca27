import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {framesOf, hasTmux, repoRoot, selectedLine, sessionsKilledAfterEach, shellQuote, waitForFrame} from './tmux.js';

/*
 * Search and filter in the viewer over a log too large to search or filter on the key (issue #22): the search's
 * prompt answers at once with how far it has got, and the search goes on between keys until its count is exact; a
 * filter's Enter closes the prompt at once, the footer says how far the filter has got while the tree keeps what it
 * showed, then the filtered tree. One viewer on one log does both: generating and loading it is most of the time.
 *
 * 40,000 tool calls (82 MB, 200,000 events) are past every threshold these behaviours hang on: far more activities
 * than a key's first slice searches (2,048) and than a filter's cut reads between pauses (16,384), over 8 MB (the
 * viewer loads in a worker, whose last pieces go into the model after it says the file is read: the header says
 * `ended` only once they are in, load-in-worker.ts) and over 64 MB (read
 * in parallel on 4 cores or more). The frames are read from what the viewer writes, not from the screen now and
 * then, so a search or filter over in a few frames is still seen under way. The log is under the 48 MB of texts a
 * search keeps (~114,000 of these calls) and the 32 MB of results kept whole: how fast search and filter stay past
 * those, at #22's 500,000 calls, is `npm run bench`'s (bench/bench-viewer-shapes.mjs). 200,000 calls here took 30 s
 * on an idle machine, and over a minute on two busy cores.
 */

const calls = 40_000;
const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-scale-'));
const start = sessionsKilledAfterEach();

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe.skipIf(!hasTmux())('search and filter over a large log', () => {
	it('40,000 tool calls: the search shows "searching…" while the scan runs, then the exact count, and lands on the one match; a filter\'s Enter closes the prompt, the footer says "filtering…", then the tree shows the one match', async () => {
		const log = join(dir, `tools-${calls}.ndjson`);
		execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--shape', 'tools', '--runs', String(calls), '--out', log], {
			stdio: 'ignore',
		});
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 120, height: 30});
		await tty.waitFor(' · ended', 120_000);
		const written = tty.recordOutput();

		// The run's last activity, its answer: the only match, so the search must go through every activity.
		tty.keys('g', '/', 'done run-0');
		const searching = await waitForFrame(written, frame => /\/done run-0 .*searching… \d+%/.test(frame), 30_000);
		expect(searching.frame).toMatch(/\d+ match(es)? so far/);
		const found = await waitForFrame(written, frame => /\/done run-0 .* 1\/1 matches/.test(frame), 60_000, searching.index);
		expect(found.frame).not.toContain('searching…');
		await tty.waitFor(/\/done run-0 .* 1\/1 matches/);
		expect(selectedLine(tty.screenWithStyles())).toContain('done run-0');
		tty.keys('Enter');
		const beforeFilter = framesOf(written()).length;

		// A text term: every activity's text is read.
		tty.keys(':', '"done run-0"', 'Enter');
		const filtering = await waitForFrame(written, frame => /filtering… \d+%/.test(frame), 30_000, beforeFilter);
		// The prompt is closed, in every frame that says how far the filter has got, and the tree still shows the
		// unfiltered log meanwhile.
		for (const frame of framesOf(written()).filter(frame => /filtering… \d+%/.test(frame))) {
			expect(frame).not.toContain('filter: ');
			expect(frame).not.toMatch(/^:/m);
		}

		expect(filtering.frame).toContain('exec ');
		// The filter is of the whole model (the header said `ended` once the worker's last pieces were in; a filter is
		// worked out again should the model change meanwhile): the count comes to every call but the match.
		const hidden = `(${calls + 2} hidden)`;
		const filtered = await tty.waitFor(screen => /filter: "done run-0"/.test(screen) && screen.includes(hidden), 60_000);
		expect(filtered).not.toContain('filtering…');
		expect(filtered).toContain('done run-0');
		expect(filtered).toContain(hidden);
		expect(filtered).toMatch(/complete done run-0/);
		tty.keys('q');
		expect(await tty.exitCode(30_000)).toBe(0);
	}, 180_000);
});
