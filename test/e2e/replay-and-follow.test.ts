import {describe, expect, it} from 'vitest';
import {hasTmux, selectedLine, sessionsKilledAfterEach, type TmuxSession} from './tmux.js';

/*
 * The keys of a run that is still arriving, in a real terminal (README, Keys): `f` toggles follow, and with
 * `--replay` `space` pauses and resumes while `+` / `-` step through the speeds. A replay of demo.ndjson (a
 * ten-second job at 1×) is the run: paused, its tree holds still while follow is toggled.
 */

const start = sessionsKilledAfterEach();

const selected = (tty: TmuxSession) => selectedLine(tty.screenWithStyles());
const footer = (screen: string) => screen.trimEnd().split('\n').at(-1) ?? '';

describe.skipIf(!hasTmux())('a replay in the viewer: space, + / -, and f', () => {
	it('space pauses and resumes; + / - change the speed; f brings the selection back to the newest activity and lets it go', async () => {
		const tty = start('node dist/bin/perscope.js --replay=1 fixtures/demo.ndjson', {width: 110, height: 40});
		await tty.waitFor(screen => screen.includes('▶ replay 1× (+/-)') && screen.includes('query CI is red on main'));
		tty.keys('Space');
		// Paused, the tree holds still (the frame that says so holds every event let through before it); follow
		// keeps the newest activity selected. A frame is read whole once its first and last lines are there.
		const newest = await tty.waitFor(
			screen => screen.includes('⏸ replay paused (space)') && footer(screen).startsWith('● follow') && selected(tty) !== undefined,
		);
		expect(newest).not.toContain('✅ complete Fixed.');
		const followed = selected(tty)!;
		tty.keys('k');
		await tty.waitFor(screen => footer(screen).startsWith('○ paused (G)'));
		expect(selected(tty)).not.toBe(followed);
		// f: follow again, on the newest activity.
		tty.keys('f');
		await tty.waitFor(screen => footer(screen).startsWith('● follow'));
		await tty.waitFor(() => selected(tty) === followed);
		// f again: follow is off, and the selection stays put as the rest of the run arrives.
		tty.keys('f');
		await tty.waitFor(screen => footer(screen).startsWith('○ paused (G)'));

		tty.keys('Space');
		await tty.waitFor('▶ replay 1× (+/-)');
		tty.keys('+');
		await tty.waitFor('▶ replay 2× (+/-)');
		tty.keys('-', '-');
		await tty.waitFor('▶ replay 0.5× (+/-)');
		// 0.5× would take some twenty seconds more; 1000× (ten steps up) plays the rest at once.
		tty.keys('+', '+', '+', '+', '+', '+', '+', '+', '+', '+');
		const done = await tty.waitFor(screen => screen.includes('✅ complete Fixed.') && screen.includes(' · replayed'));
		expect(footer(done)).toMatch(/^○ paused \(G\)/);
		// Still on the activity it was on (its result may have come in since: its icon and verb are the same), not
		// on the newest one, which follow would have taken it to.
		expect(selected(tty)).not.toContain('✅ complete Fixed.');
		expect(selected(tty)?.slice(0, 12)).toBe(followed.slice(0, 12));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
