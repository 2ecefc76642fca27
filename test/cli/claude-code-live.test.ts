import {spawnSync} from 'node:child_process';
import {appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {delimiter, join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {cliPath, repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';

/*
 * Claude Code live, as people run it: `perscope -- claude -p … --output-format stream-json --verbose`, and a
 * stream followed as it is written. The real CLI is not installed here: test/e2e/fixtures/fake-claude/claude
 * prints a recorded stream at its pace, as the real one printed it.
 */

const fakeDir = join(repoRoot, 'test/e2e/fixtures/fake-claude');
const stream = 'fixtures/claude-code/nested-subagents.ndjson';
const scratch = mkdtempSync(join(tmpdir(), 'perscope-claude-live-'));
afterAll(() => rmSync(scratch, {recursive: true, force: true}));

const fake = {PATH: `${fakeDir}${delimiter}${process.env['PATH'] ?? ''}`, FAKE_CLAUDE_STREAM: join(repoRoot, stream), FAKE_CLAUDE_GAP_MS: '40'};

function printOf(path: string): string {
	return spawnSync(process.execPath, [cliPath, '--print', path], {cwd: repoRoot, encoding: 'utf8'}).stdout;
}

describe('Claude Code as a command', () => {
	it('perscope -- claude … shows its stream as it comes, the same as its file, and exits with its code', async () => {
		const run = startCli(['--print', '--', 'claude', '-p', 'Which notes file is longest?', '--output-format', 'stream-json', '--verbose'], {env: fake});
		// The first delegation is shown while the command still writes (its 19 lines take 19 × 40 ms and more).
		await waitUntil(() => run.stdout().includes('→ delegate general-purpose'), 'the first delegation', run.stdout);
		const early = await Promise.race([run.exit, new Promise(resolve => setTimeout(() => resolve('running'), 50))]);
		expect(early).toBe('running');
		const exit = await run.exit;
		expect(exit.code).toBe(0);
		expect(run.stdout()).toBe(printOf(stream));
		expect(run.stderr()).toBe('[stderr] fake claude: done\n');
	});

	it('a claude that refuses its arguments: its stderr and its exit code', async () => {
		const run = startCli(['--summary', '--', 'claude', '-p', 'x', '--output-format', 'stream-json'], {env: fake});
		expect((await run.exit).code).toBe(1);
		expect(run.stderr()).toContain('[stderr] Error: When using --print, --output-format=stream-json requires --verbose');
	});
});

describe('a Claude Code stream followed as it is written', () => {
	it('-f reads the lines as they are appended, its sub-agents and all', async () => {
		const lines = readFileSync(join(repoRoot, stream), 'utf8')
			.split('\n')
			.filter(line => line !== '');
		const path = join(scratch, 'growing.ndjson');
		// Up to the depth-1 sub-agent's delegation (line 10).
		writeFileSync(path, lines.slice(0, 10).join('\n') + '\n');
		const run = startCli(['--print', '-f', path]);
		// A wait that times out must not leave the follower running after the test (it was seen under load).
		try {
			await waitUntil(() => run.stdout().includes('[general-purpose] 💬 query Survey the notes folder'), 'the sub-agent’s query', run.stdout);
			expect(run.stdout()).not.toContain('complete');
			appendFileSync(path, lines.slice(10).join('\n') + '\n');
			await waitUntil(() => run.stdout().includes('[claude] ✅ complete The longest notes file is b.txt (3 lines).'), 'the answer', run.stdout);
			run.child.kill('SIGTERM');
			expect((await run.exit).code).toBe(0);
			// Stopped, it ends the way --print of the whole file does.
			expect(run.stdout()).toBe(printOf(stream));
		} finally {
			if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
		}
	});
});
