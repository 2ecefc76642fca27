import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, selectedLine, sessionsKilledAfterEach, shellQuote, type TmuxSession} from './tmux.js';

/*
 * Live: never hide the work that is running. The runtime's own recording of boss → manager → writer ∥ checker is
 * trickled into the viewer as `perstack run … | perscope` would see it, and held at chosen lines (feed-slowly's
 * gates) so that each moment of the run is read off the screen while it lasts.
 */

const start = sessionsKilledAfterEach();
const gates = mkdtempSync(join(tmpdir(), 'perscope-e2e-live-'));
afterAll(() => {
	rmSync(gates, {recursive: true, force: true});
});

let feeds = 0;

/** The recording fed 10 ms a line, held after each of `stops` lines until `open(n)` is called. */
function feed(stops: number[]): {tty: TmuxSession; open: (stop: number) => void} {
	const gate = join(gates, String(++feeds));
	mkdirSync(gate);
	const tty = start(
		`node test/e2e/fixtures/feed-slowly.mjs fixtures/real/boss-nested-parallel.ndjson 10 600000 ${stops.join(',')} ${shellQuote(gate)} 2>/dev/null | node dist/bin/perscope.js`,
		{width: 100, height: 30},
	);
	return {
		tty,
		open(stop) {
			writeFileSync(join(gate, String(stop)), '');
		},
	};
}

/** The line of a pane's header: `▾ writer ● running · …`. */
function paneLine(screen: string, expert: string): string | undefined {
	return screen.split('\n').find(line => new RegExp(`[▾▸] ${expert} `).test(line));
}

describe.skipIf(!hasTmux())('a live run in the viewer', () => {
	it('a pane with a live descendant stays open: manager waits for writer ∥ checker, and both are on screen while they run', async () => {
		const {tty} = feed([55]);
		// 55 lines in: writer has its query, checker has read spec.txt; manager waits for both.
		const screen = await tty.waitFor(now => now.includes('55 events') && now.includes('📄 read spec.txt') && /▾ manager /.test(now), 15_000);
		expect(paneLine(screen, 'manager')).toMatch(/^ +▾ manager ⏸ waiting for delegates/);
		expect(paneLine(screen, 'writer')).toMatch(/^ +▾ writer ● running/);
		expect(paneLine(screen, 'checker')).toMatch(/^ +▾ checker ● running/);
		expect(screen).toContain('💬 query Write draft.md with a title and one bullet.');
		expect(screen).toContain('📄 read spec.txt');
	});

	it('a resumed run reads as running, not "waiting for delegates"', async () => {
		const {tty, open} = feed([55, 91]);
		await tty.waitFor(now => now.includes('55 events'), 15_000);
		open(55);
		// 91 lines in: writer and checker are done, and manager has just resumed (its new run's startRun).
		// A frame is read whole once it says all of it: tmux can catch Ink half way through redrawing.
		const screen = await tty.waitFor(now => now.includes('91 events') && /^ +▾ manager ● running .*↻1/.test(paneLine(now, 'manager') ?? ''), 15_000);
		expect(paneLine(screen, 'writer')).toMatch(/▸ writer ✓ completed/);
		// The header speaks of the coordinator, which does wait for manager.
		expect(screen.split('\n')[0]).toMatch(/^perscope · ⏸ waiting for delegates · job ulqs960ie5m8 /);
	});

	it('follow mode tracks the newest live activity: writer at work, not the finished checker folded below it', async () => {
		const {tty, open} = feed([55, 72]);
		await tty.waitFor(now => now.includes('55 events'), 15_000);
		open(55);
		// 72 lines in: checker completed (and folded, below writer), writer has just written draft.md.
		await tty.waitFor(now => now.includes('72 events') && (paneLine(now, 'checker')?.includes('completed') ?? false) && now.includes('● follow'), 15_000);
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('✏️ write draft.md') === true);
		// Paused and followed again with G, it goes back to writer's newest activity.
		tty.keys('k');
		await tty.waitFor('paused');
		tty.keys('G');
		await tty.waitFor(now => now.includes('● follow') && selectedLine(tty.screenWithStyles())?.includes('✏️ write draft.md') === true);
	});
});
