import {describe, expect, it} from 'vitest';
import {hasTmux, sessionsKilledAfterEach} from './tmux.js';

/*
 * A stream that ends while a run is still open: the run will never say how it ended, so the viewer must not go
 * on showing it as running. The fixture is cut in the middle of the delegate's run and piped, as a killed
 * `perstack run | perscope` would leave it.
 */

const start = sessionsKilledAfterEach();

describe.skipIf(!hasTmux())('a run the input left open', () => {
	it('is shown as ended without a final event, and the coordinator waiting for it as ended while waiting', async () => {
		const tty = start('head -n 20 fixtures/real/delegate.ndjson | node dist/bin/perscope.js', {width: 110, height: 24});
		// The sources end a moment before the model hears of it: wait for what the end brings.
		const screen = await tty.waitFor(now => now.includes('· ended') && now.includes('job ended here'));
		const lines = screen.split('\n');
		expect(lines[0]).toMatch(/^perscope · ✗ job ended while waiting · job xrg3kr5eyfy4 · /);
		expect(screen).toMatch(/▾ child-expert ✗ ended without a final event · 1 step/);
		expect(screen).toContain('✗ job ended here · child-expert ended without a final event');
		expect(screen).not.toContain('running');
		expect(screen).not.toContain('last event');
		// The timeline marks the cut run's pane the same way.
		tty.keys('t');
		const timeline = await tty.waitFor('Timeline');
		expect(timeline.split('\n').find(line => /^ {3}child-expert /.test(line))).toMatch(/ ✗ \d+ms$/);
	});

	it('a lone run cut short says so in the header', async () => {
		const tty = start('head -n 5 fixtures/real/simple.ndjson | node dist/bin/perscope.js', {width: 110, height: 24});
		const screen = await tty.waitFor(now => now.includes('· ended') && now.includes('without a final event'));
		expect(screen.split('\n')[0]).toMatch(/^perscope · ✗ ended without a final event · job ivc73wpbhfw5 · /);
		expect(screen).not.toContain('running');
	});
});
