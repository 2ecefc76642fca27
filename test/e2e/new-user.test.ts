import {describe, expect, it} from 'vitest';
import {hasTmux, sessionsKilledAfterEach} from './tmux.js';

/*
 * #32, what a new user tripped over, in a real terminal: with nothing to read, a headless mode says so instead of
 * printing the bundled demo, and `perscope` alone plays the demo as a live run arrives.
 */

const start = sessionsKilledAfterEach();

describe.skipIf(!hasTmux())('a new user at a terminal', () => {
	it('a headless mode with no file and a terminal on stdin is a usage error, not the bundled demo', async () => {
		const tty = start('node dist/cli/main.js --summary');
		expect(await tty.exitCode()).toBe(2);
		const screen = tty.screen();
		expect(screen).toContain('perscope: no input: give a file, pipe events on stdin, or a command after -- (see perscope --help)');
		expect(screen).not.toContain('bugfix-lead');
	});

	it('--print into a pipe with a terminal on stdin is the same usage error', async () => {
		const tty = start('node dist/cli/main.js | cat; echo "pipe done"');
		await tty.waitFor('pipe done');
		expect(tty.screen()).toContain('perscope: no input');
	});

	it('perscope alone plays the demo live, at its recorded pace', async () => {
		const tty = start('node dist/cli/main.js', {width: 110, height: 30});
		// At first only part of the demo's 223 events is in, and the header says the run is live.
		const first = await tty.waitFor(/\d+ events/);
		expect(first).toMatch(/perscope · .* · demo · ▶ replay 1×/);
		expect(first).not.toContain('223 events');
		// The demo was recorded over 10.2 s: it plays to its end.
		await tty.waitFor('223 events', 20_000);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	}, 40_000);
});
