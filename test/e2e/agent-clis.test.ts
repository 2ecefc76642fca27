import {copyFileSync, mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {copyAsWritten} from '../helpers/recorded-layout.js';
import {scratchDirectories} from '../helpers/scratch.js';
import {hasTmux, repoRoot, selectedLine, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * Codex, Gemini CLI and opencode in the viewer, in a real terminal: `perscope -- codex exec --json …` and
 * `perscope -- opencode run --format json …` live (a stand-in replays a real recording at its pace), a Gemini log
 * with a sub-agent, and an opencode log's failed command in the inspector. Runs `dist/bin/perscope.js`.
 */

const start = sessionsKilledAfterEach();
const scratch = scratchDirectories('perscope-e2e-agent-clis-');

describe.skipIf(!hasTmux())('agent CLIs in the viewer', () => {
	it('a live Codex command: both runs of the thread, their times as they arrived, and the inspector says so', async () => {
		const tty = start('node dist/bin/perscope.js -- node fixtures/scripts/replay-cli.mjs fixtures/codex/edit-and-test.jsonl 40', {width: 110, height: 32});
		const screen = await tty.waitFor(now => now.includes('node … exited 0') && now.includes('web_search goodbye in French'), 20_000);
		const panes = screen.split('\n').filter(line => /^ +▾ codex /.test(line));
		expect(panes).toHaveLength(2);
		// Each run lasted as long as its lines took to arrive: a duration, not `–`.
		for (const pane of panes) expect(pane).toMatch(/✓ completed · 1 step · .* · \d+(\.\d+)?m?s$/);
		expect(screen).toContain('command_execution /bin/bash -lc "grep -c \'Hello, world\' greet.txt && cat CHANGELOG.md" ✗ exit code 1');
		// The tree's own search selects the failed command: no counting of key presses.
		tty.keys('/', 'cat CHANGELOG');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('exit code 1') === true);
		tty.keys('Enter');
		await tty.waitFor(now => !now.includes('enter keep'));
		tty.keys('Enter');
		const inspector = await tty.waitFor('Inspector');
		expect(inspector).toMatch(/time: \d{4}-\d\d-\d\dT[\d:.]+Z \(when it arrived: Codex prints no times\)/);
		expect(inspector).toContain('cat: CHANGELOG.md: No such file or directory');
		tty.keys('Escape');
		await tty.waitFor(now => !now.includes('Inspector'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('a Gemini log: the sub-agent as a pane under its delegation, a failed read with its error', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/gemini/fix-and-delegate.jsonl', {width: 110, height: 32});
		const screen = await tty.waitFor('✅ complete Added farewell.txt.');
		const lines = screen.split('\n');
		const delegation = lines.findIndex(line => line.includes('🤝 delegate generalist: List the files in the workspace'));
		expect(delegation).toBeGreaterThan(0);
		expect(lines[delegation + 1]).toMatch(/^ +▸ generalist ✓ completed/);
		expect(screen).toContain('read_file notes.txt ✗ File not found: /home/user/ws/fix-and-delegate/notes.txt');
		expect(lines[0]).toContain('✓ completed');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
	it('a chat Gemini CLI keeps: the session’s runs, calls and sub-agent as its stream shows them, and c reads the step from the chat', async () => {
		const chat = 'fixtures/gemini/stream-with-chats/tmp/tmp-7jg85xlsvx/chats/session-2026-11-29T21-44-87be16a9.ndjson';
		const tty = start(`node dist/bin/perscope.js ${chat}`, {width: 120, height: 32});
		const screen = await tty.waitFor(now => now.includes('· ended') && now.includes('✅ complete Added farewell.txt.'));
		expect(screen).not.toMatch(/bad line|unknown/);
		expect(screen).toContain('tokens 6.3k in / 280 out / 2.1k cached');
		const lines = screen.split('\n');
		const delegation = lines.findIndex(line => line.includes('🤝 delegate generalist: List the files in the workspace'));
		// The chat says what the stream does not: the sub-agent ended without finishing its task.
		expect(lines[delegation + 1]).toMatch(/^ +▸ generalist ✗ error .* ERROR_NO_COMPLETE_TASK_CALL/);
		expect(screen).toContain('read_file notes.txt ✗ File not found: /home/user/ws/stream-with-chats/notes.txt');
		// The tree's own search selects the edit; `c` shows what the model had been given at its step.
		tty.keys('/', 'Fix the typo');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('replace greet.txt') === true);
		tty.keys('Enter');
		await tty.waitFor(now => !now.includes('enter keep'));
		tty.keys('c');
		const conversation = await tty.waitFor(now => now.includes('conversation of run') && now.includes('at step 2'));
		expect(conversation).toContain('Fix the greeting in greet.txt, then have a helper check the workspace.');
		tty.keys('Escape');
		await tty.waitFor(now => !now.includes('conversation of run'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('a chat Gemini CLI 0.36.0 kept as one JSON document: its runs and sub-agent, and c reads the step from the document', async () => {
		const chat = 'fixtures/gemini/chat-document/chats/session-2026-11-30T03-22-5cb65d08.json';
		const tty = start(`node dist/bin/perscope.js ${chat}`, {width: 120, height: 32});
		const screen = await tty.waitFor(now => now.includes('· ended') && now.includes('✅ complete Added farewell.txt.'));
		expect(screen).not.toMatch(/bad line|unknown/);
		// One document, one event (not `1 events`).
		expect(screen).toContain('1 event · 7 steps · tokens 6.3k in / 280 out / 2.1k cached');
		const lines = screen.split('\n');
		const delegation = lines.findIndex(line => line.includes('🤝 delegate generalist: List the files in the workspace'));
		expect(lines[delegation + 1]).toMatch(/^ +▸ generalist ✓ completed/);
		tty.keys('/', 'Fix the typo');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('replace greet.txt') === true);
		tty.keys('Enter');
		await tty.waitFor(now => !now.includes('enter keep'));
		tty.keys('c');
		const conversation = await tty.waitFor(now => now.includes('conversation of run') && now.includes('at step 2'));
		expect(conversation).toContain('Fix the greeting in greet.txt, then have a helper check the workspace.');
		expect(conversation).toContain('call read_file · read_file_1796008950891_0');
		tty.keys('Escape');
		await tty.waitFor(now => !now.includes('conversation of run'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('Gemini CLI’s chats: the sessions of every project listed newest first, one opened with enter, backspace back to the list', async () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/stream-with-chats/tmp/tmp-7jg85xlsvx'), join(home, '.gemini', 'tmp', 'stream-with-chats'));
		copyAsWritten(join(repoRoot, 'fixtures/gemini/interactive-chat'), join(home, '.gemini', 'tmp', 'interactive-chat'));
		const tty = start(`node dist/bin/perscope.js ${shellQuote(join(home, '.gemini'))}`, {width: 140, height: 24});
		const list = await tty.waitFor(now => now.includes('2 jobs in') && now.includes('stream-with-chats'));
		const rows = list.split('\n').filter(line => /gemini +✓ completed/.test(line));
		expect(rows).toHaveLength(2);
		expect(rows[0]).toMatch(/^› 420074c7-.* interactive-chat /);
		expect(rows[1]).toMatch(/^ {2}87be16a9-.* stream-with-chats /);
		tty.keys('Enter');
		const session = await tty.waitFor(now => now.includes('· ended') && now.includes('✅ complete Added farewell.txt.'));
		// With its sub-agent's chat: the sub-agent's pane has its steps.
		expect(session).toContain('tokens 9.9k in / 440 out / 3.3k cached');
		expect(session).toMatch(/▸ generalist ✗ error · 4 steps/);
		tty.keys('BSpace');
		await tty.waitFor(now => now.includes('2 jobs in'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('Gemini CLI’s --output-format json: the session’s run with its answer and tokens, read from a pipe', async () => {
		const tty = start('cat fixtures/gemini/json-output.json | node dist/bin/perscope.js', {width: 110, height: 12});
		const screen = await tty.waitFor(now => now.includes('· ended') && now.includes('✅ complete Fixed greet.txt'));
		expect(screen).toContain('tokens 8.1k in / 360 out / 2.7k cached');
		expect(screen).toMatch(/▾ gemini ✓ completed · 1 step/);
		expect(screen).not.toContain('bad line');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('a live opencode command: the task call’s sub-agent as a pane under its delegation, the cost opencode reported', async () => {
		const tty = start('node dist/bin/perscope.js -- node fixtures/scripts/replay-cli.mjs fixtures/opencode/sub-agent.jsonl 40', {width: 110, height: 32});
		const screen = await tty.waitFor(now => now.includes('node … exited 0') && now.includes('✅ complete notes-b.txt is the longest (3 lines).'), 20_000);
		const lines = screen.split('\n');
		const delegation = lines.findIndex(line => line.includes('🤝 delegate general: Count the lines of each notes file'));
		expect(delegation).toBeGreaterThan(0);
		expect(lines[delegation]).toContain('✓ notes-a.txt has 2 lines, notes-b.txt has 3.');
		expect(lines[delegation + 1]).toMatch(/^ +▸ general ✓ completed/);
		// Two steps of $0.00276 each, as opencode said.
		expect(lines[1]).toContain('2 steps · tokens 1.6k in / 40 out / 400 cached · $0.0055');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('an opencode log: a command that exited non-zero is an error, its output in the inspector', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/opencode/failing-tools.jsonl', {width: 110, height: 32});
		const screen = await tty.waitFor('✅ complete missing.txt does not exist; present.txt does.');
		expect(screen).toContain('read missing.txt ✗ File not found: /home/user/ws/failing-tools/missing.txt');
		tty.keys('/', 'cat missing');
		await tty.waitFor(() => selectedLine(tty.screenWithStyles())?.includes('exit code 1') === true);
		tty.keys('Enter');
		await tty.waitFor(now => !now.includes('enter keep'));
		tty.keys('Enter');
		const inspector = await tty.waitFor('Inspector');
		expect(inspector).toContain('Result — error: exit code 1: cat: missing.txt: No such file or directory');
		// The tool's metadata, as opencode gave it.
		expect(inspector).toContain('The tool’s own result');
		expect(inspector).toContain('"exit": 1');
		tty.keys('Escape');
		await tty.waitFor(now => !now.includes('Inspector'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('Codex’s folder of sessions: the chooser lists the sessions, and one opens with its helper’s steps under its spawn', async () => {
		// The real 0.171.0 rollouts, where and as Codex writes them.
		const sessions = scratch();
		const day = join(sessions, '2026', '11', '29');
		mkdirSync(day, {recursive: true});
		for (const [fixture, name] of [
			['rollout-edit-and-test.jsonl', 'rollout-2026-11-29T19-21-04-01a228c0-f5cd-7bb2-bd63-cdd91677d85d.jsonl'],
			['rollout-sub-agent.jsonl', 'rollout-2026-11-29T19-21-05-01a228c0-fb2e-7dd1-9990-d46a08f84537.jsonl'],
			['rollout-sub-agent-helper.jsonl', 'rollout-2026-11-29T19-21-05-01a228c0-fbec-7f11-ba40-7f4c5d6fef9a.jsonl'],
		] as const)
			copyFileSync(join(repoRoot, 'fixtures', 'codex', fixture), join(day, name));

		const tty = start(`node dist/bin/perscope.js ${shellQuote(sessions)}`, {width: 130, height: 20});
		// Once both are read (the chooser shows a list at once and reads it in slices).
		const list = await tty.waitFor(screen => screen.includes('↑↓ choose · enter open · / find · q quit') && !screen.includes('reading'));
		expect(list).toContain('2 jobs in');
		expect(list).toMatch(/› 01a228c0-fb2e-7dd1-9990- codex +✓ completed +6 +2 .* Ask a helper to check greet\.txt/);
		tty.keys('Enter');
		await tty.waitFor(screen => screen.includes('job 01a228c0-fb2') && screen.includes('· ended'));
		tty.keys('e');
		const opened = await tty.waitFor(screen => screen.includes('▾ codex ✓ completed · 2 steps') && screen.includes('close_agent'));
		const rows = opened.split('\n');
		const at = (text: string) => rows.findIndex(row => row.includes(text));
		// The helper's command between its spawn and its parent's wait, as it happened.
		expect(at('🤝 delegate codex: Count the lines of greet.txt.')).toBeLessThan(at('🔧 exec_command wc -l greet.txt'));
		expect(at('🔧 exec_command wc -l greet.txt')).toBeLessThan(at('🔧 wait_agent'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
