import {describe, expect, it} from 'vitest';
import {hasTmux, selectUp, sessionsKilledAfterEach, waitForFrame} from './tmux.js';

/*
 * Claude Code in the viewer, as people run it: `perscope -- claude -p … --output-format stream-json --verbose
 * --include-partial-messages`, the command being test/e2e/fixtures/fake-claude/claude, which prints a stream the
 * real CLI printed (fixtures/claude-code/partial-messages.ndjson), a line every 40 ms. The answer's live text is
 * looked for in every frame the viewer draws, not in the screen now and then, so the stream need not crawl for it
 * to be seen.
 */

const start = sessionsKilledAfterEach();

const command =
	'PATH="$PWD/test/e2e/fixtures/fake-claude:$PATH" FAKE_CLAUDE_STREAM=fixtures/claude-code/partial-messages.ndjson FAKE_CLAUDE_GAP_MS=40 ' +
	"node dist/bin/perscope.js -- claude -p 'Summarise greet.txt for me.' --output-format stream-json --verbose --include-partial-messages";

describe.skipIf(!hasTmux())('Claude Code in the viewer', () => {
	it('shows the answer as it streams, the sub-agent’s pane under its delegation, and a tool’s own result in the inspector', async () => {
		const tty = start(command, {width: 110, height: 24});
		const written = tty.recordOutput();
		// The answer's deltas, before its whole text has come: live text under the run's last activity.
		const {frame: live} = await waitForFrame(written, frame => /│ greet\.txt says "Helo world": a/.test(frame) && !frame.includes('✅ complete'), 15_000);
		expect(live).toContain('● running');
		expect(live).toContain('🤝 delegate general-purpose: Check the spelling in greet.txt');

		const done = await tty.waitFor(screen => screen.includes('✅ complete greet.txt says "Helo world"') && screen.includes('exited 0'), 15_000);
		expect(done).toContain('▸ general-purpose ✓ completed · 1 step');
		expect(done).toContain('✓ One misspelling: Helo should be Hello.');

		// The sub-agent's pane, unfolded: its query and its own Read.
		await selectUp(tty, '▸ general-purpose');
		tty.keys('l');
		const unfolded = await tty.waitFor('💬 query Check the spelling in greet.txt');
		expect(unfolded).toContain('▾ general-purpose');

		// The main loop's Read, inspected: its result as text, then the tool's own result, as Claude Code gave it.
		await selectUp(tty, '🔧 Read greet.txt');
		tty.keys('Enter');
		await tty.waitFor('Inspector');
		// Found with the inspector's own find, wherever the sections above it leave it.
		tty.keys('/', 'own result', 'Enter');
		const inspector = await tty.waitFor(screen => screen.includes('The tool’s own result') && screen.includes('"filePath": "greet.txt"'));
		expect(inspector).toContain('"filePath": "greet.txt"');

		tty.keys('Escape', 'q');
		expect(await tty.exitCode()).toBe(0);
	});
});
