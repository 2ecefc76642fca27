import {describe, expect, it} from 'vitest';
import {waitUntil} from '../helpers/cli-process.js';
import {hasTmux, sessionsKilledAfterEach} from './tmux.js';

/*
 * Keys typed into the chooser and the viewer in a real terminal that the shell shares with them (Ctrl-Z).
 * These run `dist/bin/perscope.js`, so `npm test` builds first.
 */

const start = sessionsKilledAfterEach();

describe.skipIf(!hasTmux())('keys in a terminal: the chooser, going back to it, and Ctrl-Z', () => {
	it('acts on every key of a burst: j j enter written at once opens the job', async () => {
		const tty = start('cd fixtures/jobs && node ../../dist/bin/perscope.js perstack');
		await tty.waitFor('newest first');
		// One write, so the chooser reads the three keys together, as with type-ahead or a slow ssh link.
		tty.keys('-l', 'jj\r');
		const opened = await tty.waitFor('delegate child-expert');
		expect(opened.split('\n')[0]).toContain('xrg3kr5eyfy4evxm775cs81p');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('keys typed with the enter that opens a job act in the job (Enter ? in one write shows its help), and with backspace in the list', async () => {
		const tty = start('cd fixtures/jobs && node ../../dist/bin/perscope.js perstack');
		await tty.waitFor('newest first');
		tty.keys('-l', '\r?');
		const help = await tty.waitFor(' Help\nKeys');
		expect(help.split('\n')[0]).toContain('xrg3kr5eyfy4evxm775cs81p');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes(' Help\nKeys'));
		// Backspace then q in one write: back to the list, which the q then quits.
		tty.keys('-l', '\u007Fq');
		expect(await tty.exitCode()).toBe(0);
	});

	it('backspace in a job opened from the list goes back to the list, on the same job', async () => {
		const tty = start('cd fixtures/jobs && node ../../dist/bin/perscope.js perstack');
		await tty.waitFor('newest first');
		tty.keys('Enter');
		await tty.waitFor('delegate child-expert');
		tty.keys('BSpace');
		const list = await tty.waitFor('newest first');
		expect(list.split('\n').find(line => line.startsWith('›'))).toContain('xrg3kr5eyfy4evxm775cs81p');
		tty.keys('Enter');
		await tty.waitFor('delegate child-expert');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('Ctrl-Z gives the terminal back to the shell, and fg brings the viewer back, redrawn, with its keys working', async () => {
		// An interactive shell, for its job control: it is what reports the stop and what `fg` talks to.
		const tty = start("PS1='shell$ ' bash --norc --noprofile -i");
		await tty.waitFor('shell$');
		tty.keys('node dist/bin/perscope.js fixtures/real/delegate.ndjson', 'Enter');
		await tty.waitFor('▸ child-expert');
		tty.keys('C-z');
		const shell = await tty.waitFor(/Stopped.*\n(.|\n)*shell\$ *$/m);
		// Off the alternate screen, back on the shell's: what was typed is there, nothing of the viewer.
		expect(shell).toContain('BEFORE-PERSCOPE');
		expect(shell).not.toContain('child-expert');
		// The terminal is in its cooked mode: the shell echoes what is typed.
		tty.keys('fg', 'Enter');
		const back = await tty.waitFor(screen => screen.includes('▸ child-expert') && !screen.includes('shell$'));
		expect(back.split('\n')[0]).toContain('perscope');
		tty.keys('e');
		await tty.waitFor('📁 list .');
		tty.keys('q');
		await tty.waitFor(screen => screen.includes('shell$') && !screen.includes('child-expert'));
	});

	it('without a shell doing job control, Ctrl-Z cannot stop the viewer, and it stays drawn and usable', async () => {
		// `sh -c` runs the viewer in an orphaned process group, where the terminal ignores SIGTSTP.
		const tty = start('node dist/bin/perscope.js fixtures/real/delegate.ndjson');
		await tty.waitFor('▸ child-expert');
		const written = tty.recordOutput();
		tty.keys('C-z');
		// Keys typed while the screen is handed back would meet the cooked terminal: wait until the viewer has left
		// the alternate screen, come back to it (its fallback, as no SIGCONT comes) and drawn itself again.
		await waitUntil(() => /\u001B\[\?1049l[^]*\u001B\[\?1049h/.test(written()), 'the viewer to leave the screen and take it back', written);
		await tty.waitFor('▸ child-expert');
		tty.keys('e');
		const screen = await tty.waitFor('📁 list .');
		expect(screen.split('\n')[0]).toContain('perscope');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('edits the / line as a shell does, reopens it selected, and C clears every filter and the search', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/demo.ndjson', {height: 34, width: 120});
		await tty.waitFor('✅ complete Fixed.');
		tty.keys('g', '/', 'vitestx');
		await tty.waitFor('/vitestx');
		// Backspace at the end, then Home and Delete under the cursor, then End and the letter back.
		tty.keys('BSpace', 'Home', 'DC', 'End');
		await tty.waitFor('/itest ');
		tty.keys('C-a', 'v', 'Enter');
		await tty.waitFor('/vitest 1/7');
		// Reopened, the query is selected: typing replaces it.
		tty.keys('/', 'npm');
		await tty.waitFor(/^\/npm +\d+\/\d+ matches/m);
		// Ctrl-U empties the line; ↑ brings back the query entered before.
		tty.keys('C-u');
		await tty.waitFor('type to search');
		tty.keys('Up');
		await tty.waitFor(/^\/vitest +1\/7 matches/m);
		tty.keys('Enter', 'x');
		await tty.waitFor('filter errors');
		tty.keys('C');
		const cleared = await tty.waitFor('filter and search cleared');
		expect(cleared).not.toContain('filter errors');
		expect(cleared).not.toMatch(/\/vitest \d/);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
