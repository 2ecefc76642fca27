import {describe, expect, it} from 'vitest';
import {hasTmux, selectedLine, sessionsKilledAfterEach} from './tmux.js';

/*
 * Filters in a real terminal: a match inside a folded pane must be seen without unfolding anything, and a
 * filter that matches nothing must say so rather than leave the screen empty. These run `dist/bin/perscope.js`.
 */

const start = sessionsKilledAfterEach();

describe.skipIf(!hasTmux())('filters in a terminal', () => {
	it('x shows the failed child error without unfolding, hides the pane without errors and counts it, and x again folds back', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/delegate-failure.ndjson');
		await tty.waitFor('▸ changelog-writer');
		tty.keys('x');
		const errors = await tty.waitFor('filter errors');
		expect(errors).toContain('▾ changelog-writer');
		expect(errors).toContain('error AI_APICallError: Overloaded');
		expect(errors).toContain('1 pane without matches hidden');
		expect(errors).not.toContain('docs-checker');
		tty.keys('x');
		const cleared = await tty.waitFor(screen => !screen.includes('filter errors'));
		expect(cleared).toContain('▸ changelog-writer');
		expect(cleared).toContain('docs-checker');
		expect(cleared).not.toContain('❌ error AI_APICallError');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('x includes a run that ended without a final event and the job that ended while waiting for it, as --print --filter errors does, and the selection stays on a shown row', async () => {
		const tty = start('head -n 20 fixtures/real/delegate.ndjson | node dist/bin/perscope.js', {width: 110, height: 24});
		await tty.waitFor(now => now.includes('· ended') && now.includes('job ended here'));
		// Paused on the coordinator's query, which errors-only hides.
		tty.keys('g');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('coordinator') === true);
		tty.keys('j');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('💬 query Find out') === true);
		tty.keys('x');
		const errors = await tty.waitFor(now => now.includes('filter errors') && now.includes('✗ job ended here'));
		expect(errors).not.toContain('no errors');
		expect(errors).toMatch(/▾ child-expert ✗ ended without a final event/);
		// Where the child was cut off, and the delegation the coordinator waited on.
		expect(errors).toContain('📄 read README.txt');
		expect(errors).toContain('🤝 delegate child-expert');
		expect(errors).not.toContain('💬 query Find out');
		expect(selectedLine(tty.screenWithStyles())).toBeDefined();
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('x on a log without errors says "no errors"', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/simple.ndjson');
		await tty.waitFor('completed');
		tty.keys('x');
		const screen = await tty.waitFor('filter errors');
		expect(screen).toContain('no errors');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('--filter that matches nothing names the filter', async () => {
		const tty = start('node dist/bin/perscope.js --filter type:exec fixtures/real/simple.ndjson');
		const screen = await tty.waitFor('nothing matches');
		expect(screen).toContain('nothing matches type:exec');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
