import {describe, expect, it} from 'vitest';
import {hasTmux, selectedLine, sessionsKilledAfterEach, type TmuxSession} from './tmux.js';

/*
 * A query pasted into a prompt, tens of thousands of characters long (issue #34): each character used to be
 * its own edit, search and frame over the whole line, so 40,000 of them held the viewer (and the `q` after
 * them) for half a minute; at the inspector's `/` the query's regular expression overflowed the stack.
 */

const start = sessionsKilledAfterEach();

/** Types `text` as a paste does: tmux sends a command's keys in one write, and a command line has a limit. */
function paste(tty: TmuxSession, text: string): void {
	for (let at = 0; at < text.length; at += 4000) tty.keys('-l', text.slice(at, at + 4000));
}

/** 40,100 characters: a run of spaces in it too, which the prompt once matched with a backtracking / *$/. */
const query = `${'x'.repeat(100)}${' '.repeat(20_000)}${'abcdefghij'.repeat(2000)}`;

describe.skipIf(!hasTmux())('a pasted query tens of thousands of characters long', () => {
	it('at `/`: the prompt shows its end at once with its count, and Enter then q quits within seconds', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/demo.ndjson', {width: 100, height: 20});
		await tty.waitFor(' · ended');
		tty.keys('/');
		await tty.waitFor('type to search');
		const pasted = Date.now();
		paste(tty, query);
		// The window keeps the cursor (the end) in sight, and the count after it.
		await tty.waitFor(/^\/….*hij {3}no matches\s*$/m, 15_000);
		tty.keys('Enter', 'q');
		expect(await tty.exitCode(15_000)).toBe(0);
		expect(Date.now() - pasted).toBeLessThan(20_000);
	}, 60_000);

	it('at the inspector’s `/`: it finds nothing and the viewer goes on (it crashed), then quits', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/tools.ndjson', {width: 100, height: 30});
		await tty.waitFor('exec wc -l notes.md');
		// The tree's own search selects the exec, Enter keeps the search, Enter again opens the inspector.
		tty.keys('/', 'wc -l');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('exec wc -l notes.md') === true);
		tty.keys('Enter');
		await tty.waitFor(screen => !screen.includes('enter keep'));
		tty.keys('Enter');
		await tty.waitFor(' Inspector');
		tty.keys('/');
		await tty.waitFor('type to find in this activity');
		paste(tty, query.slice(20_100));
		await tty.waitFor(/^\/….*hij {3}no match · enter keep · esc clear$/m, 15_000);
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('enter keep'));
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes(' Inspector'));
		tty.keys('q');
		expect(await tty.exitCode(15_000)).toBe(0);
	}, 60_000);
});
