import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * A filter's Enter in the viewer over a log too large to filter on the key (issue #22): the prompt closes at
 * once, the footer says how far the filter has got while the tree keeps what it showed, then the filtered tree.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-filter-'));
const start = sessionsKilledAfterEach();

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe.skipIf(!hasTmux())('filter over a large log', () => {
	it('200,000 tool calls: Enter closes the prompt, the footer says "filtering…", then the tree shows the one match', async () => {
		const log = join(dir, 'tools-200000.ndjson');
		execFileSync(process.execPath, [join(repoRoot, 'build/tools/generate-log.js'), '--shape', 'tools', '--runs', '200000', '--out', log], {stdio: 'ignore'});
		const tty = start(`node dist/cli/main.js ${shellQuote(log)}`, {width: 120, height: 30});
		await tty.waitFor(' · ended', 120_000);
		// A text term: every activity's text is read, most of them made again past the texts kept.
		tty.keys(':', '"done run-0"', 'Enter');
		const running = await tty.waitFor(/filtering… \d+%/, 30_000);
		// The tree still shows the unfiltered log meanwhile, and the prompt is closed.
		expect(running).not.toContain('filter: ');
		expect(running).not.toMatch(/^:/m);
		// The sources say `ended` while the worker's last pieces of the model still go in: the filter is then worked
		// out again over the whole model, and the count comes to every call but the match.
		const done = await tty.waitFor(screen => /filter: "done run-0"/.test(screen) && screen.includes('(200002 hidden)'), 60_000);
		expect(done).not.toContain('filtering…');
		expect(done).toContain('done run-0');
		expect(done).toContain('(200002 hidden)');
		expect(done).toMatch(/complete done run-0/);
		tty.keys('q');
		expect(await tty.exitCode(30_000)).toBe(0);
	}, 240_000);
});
