import {copyFileSync, mkdirSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {copyAsWritten} from '../helpers/recorded-layout.js';
import {scratchDirectories} from '../helpers/scratch.js';
import {hasTmux, repoRoot, selectUp, sessionsKilledAfterEach, shellQuote, waitForFrame} from './tmux.js';

/*
 * Claude Code in the viewer, as people run it: `perscope -- claude -p … --output-format stream-json --verbose
 * --include-partial-messages`, the command being test/e2e/fixtures/fake-claude/claude, which prints a stream the
 * real CLI printed (fixtures/claude-code/partial-messages.ndjson), a line every 40 ms. The answer's live text is
 * looked for in every frame the viewer draws, not in the screen now and then, so the stream need not crawl for it
 * to be seen.
 */

const start = sessionsKilledAfterEach();
const scratch = scratchDirectories('perscope-e2e-claude-');

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

	it('claude-code-action’s execution file (one JSON array) opens as the stream it was made of, sub-agents and the raw event included', async () => {
		const tty = start('node dist/bin/perscope.js fixtures/claude-code/action-execution-file.json', {width: 110, height: 30});
		const screen = await tty.waitFor(now => now.includes('· ended') && now.includes('✅ complete The longest notes file is b.txt'));
		expect(screen).toContain('19 events · 3 steps');
		expect(screen).toContain('▸ general-purpose ✓ completed');
		expect(screen).not.toContain('bad line');
		// The last activity's raw event: the array's element, read back as it came.
		tty.keys('G', 'Enter');
		const inspector = await tty.waitFor('Raw event (line 19 of fixtures/claude-code/action-execution-file.json)');
		expect(inspector).toContain('✅ complete · claude · step 2');
	});

	it('a folder of sessions opens a chooser of them; the one chosen opens with its sub-agents, and backspace goes back to the list', async () => {
		// The two recorded transcripts, laid out as Claude Code keeps a project's sessions.
		const folder = scratch();
		for (const [recorded, session] of [
			['session-transcript-cc2.1.197', '0ccdcfe9-b26c-42b6-bd34-9894be0511a7'],
			['session-transcript-interactive-cc2.1.197', 'a9c2eaab-e8dd-4111-990b-0c9d77d216e4'],
		] as const) {
			const from = join(repoRoot, 'fixtures/claude-code', recorded);
			copyFileSync(`${from}.ndjson`, join(folder, `${session}.jsonl`));
			mkdirSync(join(folder, session, 'subagents'), {recursive: true});
			for (const name of readdirSync(join(from, 'subagents')).filter(file => file.endsWith('.ndjson')))
				copyFileSync(join(from, 'subagents', name), join(folder, session, 'subagents', name.replace(/\.ndjson$/, '.jsonl')));
		}

		const tty = start(`node dist/bin/perscope.js ${shellQuote(folder)}`, {width: 120, height: 24});
		const list = await tty.waitFor(screen => screen.includes('↑↓ choose · enter open · / find · q quit') && !screen.includes('reading'));
		expect(list).toContain('2 jobs in');
		// Each with its first prompt, cut at the screen's edge.
		expect(list).toMatch(/› a9c2eaab-e8dd-4111-990b- claude +✓ completed +8 +5 .* Which notes file is longest/);
		tty.keys('j', 'Enter');
		// The older session, whose sub-agents' files are read with it.
		const opened = await tty.waitFor(screen => screen.includes('job 0ccdcfe9-b26') && screen.includes('▸ general-purpose'));
		expect(opened).toContain('6 steps');
		// c on the main loop's answer: what the model was given at that step, read from the session's lines.
		tty.keys('c');
		// The transcript is read off the viewer's thread: the view says so until it is.
		const conversation = await tty.waitFor(screen => screen.includes('Conversation · claude · step 2') && screen.includes('#1 user'));
		expect(conversation).toContain('from line 10 (transcript)');
		expect(conversation).toContain('#1 user');
		expect(conversation).toContain('Which notes file is longest? Use a sub-agent.');
		tty.keys('G');
		const end = await tty.waitFor('+   The longest notes file is b.txt (3 lines).');
		expect(end).toContain('+ #6 assistant');
		tty.keys('Escape');
		await tty.waitFor(screen => !screen.includes('Conversation · claude'));
		tty.keys('BSpace');
		const back = await tty.waitFor(screen => screen.includes('↑↓ choose · enter open · / find · q quit') && !screen.includes('reading'));
		expect(back).toMatch(/› 0ccdcfe9-b26c-42b6-bd34-/);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('every project’s sessions together (~/.claude/projects): the chooser says which project each is of', async () => {
		const projects = scratch();
		for (const [recorded, session, project] of [
			['session-transcript-cc2.1.197', '0ccdcfe9-b26c-42b6-bd34-9894be0511a7', '-home-me-app'],
			['session-transcript-resumed-cc2.1.197', 'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209', '-home-me-other'],
		] as const) {
			mkdirSync(join(projects, project), {recursive: true});
			copyFileSync(join(repoRoot, 'fixtures/claude-code', `${recorded}.ndjson`), join(projects, project, `${session}.jsonl`));
		}

		const tty = start(`node dist/bin/perscope.js ${shellQuote(projects)}`, {width: 140, height: 12});
		const list = await tty.waitFor(screen => screen.includes('↑↓ choose · enter open · / find · q quit') && !screen.includes('reading'));
		expect(list).toMatch(/STARTED +PROJECT +QUERY/);
		expect(list).toMatch(/› c17ceeb0-3c4e-4bb0-8e5f- claude .* -home-me-other +What does greet/);
		expect(list).toMatch(/ {2}0ccdcfe9-b26c-42b6-bd34- claude .* -home-me-app +Which notes file/);
		tty.keys('Enter');
		await tty.waitFor(screen => screen.includes('job c17ceeb0-3c4') && screen.includes('What does greet.txt say?'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('/ in the list of sessions finds one by its first prompt as you type, and enter opens it', async () => {
		const project = scratch();
		for (const [recorded, session] of [
			['session-transcript-cc2.1.197', '0ccdcfe9-b26c-42b6-bd34-9894be0511a7'],
			['session-transcript-resumed-cc2.1.197', 'c17ceeb0-3c4e-4bb0-8e5f-2a750074d209'],
		] as const)
			copyFileSync(join(repoRoot, 'fixtures/claude-code', `${recorded}.ndjson`), join(project, `${session}.jsonl`));

		const tty = start(`node dist/bin/perscope.js ${shellQuote(project)}`, {width: 120, height: 12});
		await tty.waitFor(screen => screen.includes('↑↓ choose · enter open · / find · q quit') && !screen.includes('reading'));
		tty.keys('/', 'longest');
		const found = await tty.waitFor('1 of 2 jobs in');
		expect(found).toMatch(/^› 0ccdcfe9-b26c-42b6-bd34- claude .* Which notes file is longest/m);
		expect(found).not.toContain('c17ceeb0');
		expect(found).toContain('/longest');
		tty.keys('Enter');
		await tty.waitFor(screen => screen.includes('job 0ccdcfe9-b26') && screen.includes('▸ general-purpose'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('c on a live claude -p shows what the model was given, from the transcript Claude Code keeps of the session', async () => {
		// The transcript the real CLI wrote while it printed the stream the stand-in replays, where Claude Code keeps it.
		const config = scratch();
		const recorded = join(repoRoot, 'fixtures/claude-code/stream-with-transcript-cc2.1.197');
		copyAsWritten(join(recorded, 'projects'), join(config, 'projects'));
		const tty = start(
			`CLAUDE_CONFIG_DIR=${shellQuote(config)} PATH="$PWD/test/e2e/fixtures/fake-claude:$PATH" FAKE_CLAUDE_STREAM=fixtures/claude-code/stream-with-transcript-cc2.1.197.ndjson ` +
				"node dist/bin/perscope.js -- claude -p 'Which notes file is longest? Use a sub-agent.' --output-format stream-json --verbose",
			{width: 120, height: 30},
		);
		await tty.waitFor(screen => screen.includes('✅ complete The longest notes file is b.txt') && screen.includes('exited 0'), 15_000);
		tty.keys('c');
		const conversation = await tty.waitFor(screen => screen.includes('Conversation · claude · step 2') && screen.includes("the session's transcript"));
		// The prompt, which the stream does not carry.
		expect(conversation).toContain('Which notes file is longest? Use a sub-agent.');
		expect(conversation).toContain("the session's transcript");
		tty.keys('Escape', 'q');
		expect(await tty.exitCode()).toBe(0);
	});
});
