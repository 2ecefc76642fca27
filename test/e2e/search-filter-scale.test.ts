import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectedLine, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * Search and filter in the viewer over a log too large to search or filter on the key (issue #22): the search's
 * prompt answers at once with how far it has got, and the search goes on between keys until its count is exact; a
 * filter's Enter closes the prompt at once, the footer says how far the filter has got while the tree keeps what it
 * showed, then the filtered tree. One viewer on one log (400 MB, a million events) does both: generating and
 * loading it is most of the time, and was paid once for each.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-scale-'));
const start = sessionsKilledAfterEach();

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe.skipIf(!hasTmux())('search and filter over a large log', () => {
	it('200,000 tool calls: the search shows "searching…" while the scan runs, then the exact count, and lands on the one match; a filter\'s Enter closes the prompt, the footer says "filtering…", then the tree shows the one match', async () => {
		const log = join(dir, 'tools-200000.ndjson');
		execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--shape', 'tools', '--runs', '200000', '--out', log], {stdio: 'ignore'});
		const tty = start(`node dist/cli/main.js ${shellQuote(log)}`, {width: 120, height: 30});
		await tty.waitFor(' · ended', 120_000);

		// The run's last activity, its answer: the only match, so the search must go through every activity.
		tty.keys('g', '/', 'done run-0');
		const searching = await tty.waitFor(/\/done run-0 .*searching… \d+%/, 30_000);
		expect(searching).toMatch(/\d+ match(es)? so far/);
		const found = await tty.waitFor(/\/done run-0 .* 1\/1 matches/, 60_000);
		expect(found).not.toContain('searching…');
		expect(selectedLine(tty.screenWithStyles())).toContain('done run-0');
		tty.keys('Enter');

		// A text term: every activity's text is read, most of them made again past the texts kept.
		tty.keys(':', '"done run-0"', 'Enter');
		const filtering = await tty.waitFor(/filtering… \d+%/, 30_000);
		// The tree still shows the unfiltered log meanwhile, and the prompt is closed.
		expect(filtering).not.toContain('filter: ');
		expect(filtering).not.toMatch(/^:/m);
		// Should the sources say `ended` while the worker's last pieces of the model still go in, the filter is worked
		// out again over the whole model: the count comes to every call but the match.
		const filtered = await tty.waitFor(screen => /filter: "done run-0"/.test(screen) && screen.includes('(200002 hidden)'), 60_000);
		expect(filtered).not.toContain('filtering…');
		expect(filtered).toContain('done run-0');
		expect(filtered).toContain('(200002 hidden)');
		expect(filtered).toMatch(/complete done run-0/);
		tty.keys('q');
		expect(await tty.exitCode(30_000)).toBe(0);
	}, 360_000);
});
