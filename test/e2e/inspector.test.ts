import {describe, expect, it} from 'vitest';
import {hasTmux, selectUp, selectedLine, sessionsKilledAfterEach} from './tmux.js';

/*
 * The inspector of a real exec call, in a real terminal: what the tool did is read as a command, its exit
 * status and its output, not as the JSON Perstack wrote. Runs `dist/bin/perscope.js`, so `npm test` builds first.
 */

const start = sessionsKilledAfterEach();

describe.skipIf(!hasTmux())('the inspector in a terminal', () => {
	it('shows an exec as its command, exit status and output', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/tools.ndjson', {width: 100, height: 40});
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

	it('finds text inside the inspector with /, highlights and counts the matches, and n moves to the next', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/tools.ndjson', {width: 100, height: 30});
		await tty.waitFor('exec wc -l notes.md');
		// The tree's own search selects the exec: no counting of key presses.
		tty.keys('/', 'wc -l');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('exec wc -l notes.md') === true);
		tty.keys('Enter');
		await tty.waitFor(screen => !screen.includes('enter keep'));
		tty.keys('Enter');
		const opened = await tty.waitFor('Inspector');
		// The footer lists the inspector's keys, not the tree's.
		expect(opened).toContain('/ find · n/N next/prev');
		expect(opened).not.toContain('x errors');
		tty.keys('/');
		await tty.waitFor('type to find in this activity');
		tty.keys('notes.md');
		const found = await tty.waitFor(/\/notes\.md +1\/\d+ · enter keep/);
		const count = Number(/1\/(\d+) · enter keep/.exec(found)?.[1]);
		expect(count).toBeGreaterThan(1);
		// The current match is drawn on a yellow background.
		expect(tty.screenWithStyles()).toMatch(/\u001B\[[0-9;]*43[0-9;]*m(?:\u001B\[[0-9;]*m)*notes\.md/);
		tty.keys('Enter');
		await tty.waitFor(`/notes.md 1/${count}`);
		tty.keys('n');
		await tty.waitFor(`/notes.md 2/${count}`);
		tty.keys('N', 'N');
		await tty.waitFor(`/notes.md ${count}/${count}`);
		// The first esc clears the search, the second closes the inspector.
		tty.keys('Escape');
		await tty.waitFor(screen => screen.includes('Inspector') && !screen.includes('/notes.md'));
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Inspector'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('opens the skills overlay with S: states over time and the stderr lines the skills bar counts', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/skills.ndjson', {width: 100, height: 30});
		await tty.waitFor('S: details');
		tty.keys('S');
		const screen = await tty.waitFor('Skills (2)');
		const lines = screen.split('\n').map(line => line.trimEnd());
		expect(lines).toContain('○ fetch  disconnected');
		expect(lines.some(line => /^ {4}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}\+568ms {2}● connected in 746ms$/.test(line))).toBe(true);
		expect(lines).toContain('  stderr: 3 lines');
		expect(lines).toContain('    Installed 41 packages in 212ms');
		tty.keys('Escape');
		await tty.waitFor(current => !current.includes('Skills (2)'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
