import {execFileSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {hasTmux, sessionsKilledAfterEach} from './tmux.js';

// The end-to-end tests read screens and type keys through a tmux control client (tmux-control.ts): what they
// read must be what the `tmux` program prints, and what they type must reach the program as it was written.
describe.skipIf(!hasTmux())('the tests’ tmux control client', () => {
	const start = sessionsKilledAfterEach();

	it('reads the screen as `tmux capture-pane` prints it, styles and wide characters included, at the size given', async () => {
		const tty = start(`printf '\\033[7mselected\\033[0m 日本語 é\\n%%end 1 2 1\\n'; cat`, {width: 77, height: 13});
		await tty.waitFor('%end 1 2 1');
		for (const args of [
			['capture-pane', '-p', '-t', tty.name],
			['capture-pane', '-p', '-e', '-t', tty.name],
		]) {
			expect(tty.tmux(...args)).toBe(execFileSync('tmux', ['-L', tty.socket, ...args], {encoding: 'utf8'}));
		}

		expect(execFileSync('tmux', ['-L', tty.socket, 'display-message', '-p', '-t', tty.name, '#{window_width}x#{window_height}'], {encoding: 'utf8'})).toBe(
			'77x13\n',
		);
	});

	it('types text with quotes, `;`, `$`, `~` and `#{}` as written', async () => {
		const tty = start('cat');
		const text = `it's "q" $HOME ~ ; #{pane_id} \\ end`;
		tty.keys(text, 'Enter');
		const screen = await tty.waitFor(screen => screen.split('\n').filter(line => line === text).length === 2);
		expect(screen).toContain(text);
	});
});
