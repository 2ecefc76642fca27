import {describe, expect, it} from 'vitest';
import {hasTmux, selectedLine, sessionsKilledAfterEach, type TmuxSession} from './tmux.js';

/*
 * The inspector of a real exec call, in a real terminal: what the tool did is read as a command, its exit
 * status and its output, not as the JSON Perstack wrote. Runs `dist/cli/main.js`, so `npm test` builds first.
 */

const start = sessionsKilledAfterEach();

/** Moves the selection up a row at a time until the selected row contains `text`. */
async function selectUp(tty: TmuxSession, text: string): Promise<void> {
	for (let step = 0; step < 40; step++) {
		if (selectedLine(tty.screenWithStyles())?.includes(text)) return;
		tty.keys('k');
		await new Promise(resolve => setTimeout(resolve, 60));
	}

	await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes(text) === true, 1000);
}

describe.skipIf(!hasTmux())('the inspector in a terminal', () => {
	it('shows an exec as its command, exit status and output', async () => {
		const tty = start('node dist/cli/main.js fixtures/real/tools.ndjson', {width: 100, height: 40});
		await tty.waitFor('exec wc -l notes.md');
		await selectUp(tty, 'exec wc -l notes.md');
		tty.keys('Enter');
		const screen = await tty.waitFor('Inspector');
		const lines = screen.split('\n').map(line => line.trim());
		expect(lines).toContain('Command');
		expect(lines[lines.indexOf('Command') + 1]).toBe('wc -l notes.md');
		expect(lines).toContain('Exit: 0');
		expect(lines[lines.indexOf('Output (stdout and stderr) (1 line)') + 1]).toBe('4 notes.md');
		expect(screen).not.toContain('{"output"');

		tty.keys('Escape');
		await tty.waitFor(current => !current.includes('Inspector'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
