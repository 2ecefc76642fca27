import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectedLine, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * Search in the viewer over a log too large to search on the key (issue #22): the prompt answers at once with
 * how far the search has got, and the search goes on between keys until its count is exact.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-search-'));
const start = sessionsKilledAfterEach();

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe.skipIf(!hasTmux())('search over a large log', () => {
	it('200,000 tool calls: the prompt shows the query and "searching…" while the scan runs, then the exact count, and lands on the one match', async () => {
		const log = join(dir, 'tools-200000.ndjson');
		execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--shape', 'tools', '--runs', '200000', '--out', log], {stdio: 'ignore'});
		const tty = start(`node dist/cli/main.js ${shellQuote(log)}`, {width: 120, height: 30});
		await tty.waitFor(' · ended', 120_000);
		// The run's last activity, its answer: the only match, so the search must go through every activity.
		tty.keys('g', '/', 'done run-0');
		const running = await tty.waitFor(/\/done run-0 .*searching… \d+%/, 30_000);
		expect(running).toMatch(/\d+ match(es)? so far/);
		const done = await tty.waitFor(/\/done run-0 .* 1\/1 matches/, 60_000);
		expect(done).not.toContain('searching…');
		expect(selectedLine(tty.screenWithStyles())).toContain('done run-0');
		tty.keys('Enter', 'q');
		expect(await tty.exitCode(30_000)).toBe(0);
	}, 240_000);
});
