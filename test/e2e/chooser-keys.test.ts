import {afterEach, describe, expect, it} from 'vitest';
import {hasTmux, TmuxSession} from './tmux.js';

/*
 * Keys typed into `perscope perstack` in a real terminal. These run `dist/cli/main.js`, so `npm test` builds first.
 */

const sessions: TmuxSession[] = [];
function start(command: string): TmuxSession {
	const session = TmuxSession.start(command);
	sessions.push(session);
	return session;
}

afterEach(() => {
	for (const session of sessions.splice(0)) session.kill();
});

describe.skipIf(!hasTmux())('the job chooser in a terminal', () => {
	it('acts on every key of a burst: j j enter written at once opens the job', async () => {
		const tty = start('cd fixtures/jobs && node ../../dist/cli/main.js perstack');
		await tty.waitFor('newest first');
		// One write, so the chooser reads the three keys together, as with type-ahead or a slow ssh link.
		tty.tmux('send-keys', '-t', tty.name, '-l', 'jj\r');
		const opened = await tty.waitFor('delegate child-expert');
		expect(opened.split('\n')[0]).toContain('perstack/jobs/xrg3kr5eyfy4evxm775cs81p');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
