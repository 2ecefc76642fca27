import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectUp, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * `c` on a real log in a real terminal: the conversation of the selected activity's step, read again from
 * the file (or, piped, from the recent lines kept), with what is new at the step marked. Runs
 * `dist/bin/perscope.js`, so `npm test` builds first.
 */

const start = sessionsKilledAfterEach();
const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-conversation-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe.skipIf(!hasTmux())('the conversation view in a terminal', () => {
	it('c on an activity shows the messages of its step, the new ones marked; esc goes back', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/real/tools.ndjson', {width: 110, height: 40});
		await tty.waitFor('exec wc -l notes.md');
		await selectUp(tty, 'exec wc -l notes.md');
		tty.keys('c');
		const top = await tty.waitFor('Conversation · tools-expert · step 4');
		expect(top).toContain('conversation of run yx0qylj95kkijg52otg17vwe (tools-expert) at step 4');
		expect(top).toContain('tokens this step: 1589 input · 28 output');
		expect(top).toMatch(/#2 user\n\s+Create a notes file, check it and report back\./);
		tty.keys('G');
		const end = await tty.waitFor('+ #10 tool');
		expect(end).toMatch(/^\+ +call exec · toolu_mockmwqwj6fk005c$/m);
		expect(end).toMatch(/^\+ +"output": \|\n\+ +4 notes\.md$/m);
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Conversation ·') && screen.includes('exec wc -l notes.md'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('c works on a log piped in, from the recent lines kept', async () => {
		const tty = start('cat fixtures/real/delegate.ndjson | node dist/bin/perscope.js', {width: 110, height: 40});
		await tty.waitFor('ended');
		tty.keys('c');
		const screen = await tty.waitFor('Conversation · coordinator · step 6');
		expect(screen).toContain('from line 49 (completeRun)');
		expect(screen).toContain('#2 user');
		tty.keys('Escape', 'q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('c on a step whose stepNumber is written "4" (a string) shows its messages: it said they were no longer available', async () => {
		const log = join(dir, 'tools-string-steps.ndjson');
		writeFileSync(log, readFileSync(join(repoRoot, 'fixtures/real/tools.ndjson'), 'utf8').replaceAll(/"stepNumber":4([,}])/g, '"stepNumber":"4"$1'));
		const tty = start(`node dist/bin/perscope.js ${shellQuote(log)}`, {width: 110, height: 40});
		await tty.waitFor('exec wc -l notes.md');
		await selectUp(tty, 'exec wc -l notes.md');
		tty.keys('c');
		const top = await tty.waitFor('Conversation · tools-expert · step 4');
		expect(top).toContain('tokens this step: 1589 input · 28 output');
		expect(top).not.toContain('no longer available');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Conversation ·'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
