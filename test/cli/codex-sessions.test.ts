import {spawnSync} from 'node:child_process';
import {appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {cliPath, repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';
import {scratchDirectories} from '../helpers/scratch.js';

/*
 * Codex's folder of sessions as it lies on disk (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`): the
 * real 0.171.0 rollouts of fixtures/codex/ (a two-turn exec session, the TUI's, a session that spawned a helper and the
 * helper's own), laid out and named as Codex writes them.
 */

const scratch = scratchDirectories('perscope-codex-sessions-');
const day = join('2026', '11', '29');
const rollouts: Array<[fixture: string, name: string]> = [
	['rollout-edit-and-test.jsonl', 'rollout-2026-11-29T19-21-04-01a228c0-f5cd-7bb2-bd63-cdd91677d85d.jsonl'],
	['rollout-sub-agent.jsonl', 'rollout-2026-11-29T19-21-05-01a228c0-fb2e-7dd1-9990-d46a08f84537.jsonl'],
	['rollout-sub-agent-helper.jsonl', 'rollout-2026-11-29T19-21-05-01a228c0-fbec-7f11-ba40-7f4c5d6fef9a.jsonl'],
	['rollout-tui.jsonl', 'rollout-2026-11-29T19-27-16-01a228c6-a3fe-75e1-8a23-7df94192b3e1.jsonl'],
];

function sessionsFolder(): string {
	const sessions = scratch();
	mkdirSync(join(sessions, day), {recursive: true});
	for (const [fixture, name] of rollouts) copyFileSync(join(repoRoot, 'fixtures', 'codex', fixture), join(sessions, day, name));
	return sessions;
}

/** perscope ARGS, run in this process (test/helpers/cli-in-process.ts). */
async function perscope(args: string[]): Promise<{stdout: string; stderr: string; code: number | null}> {
	return perscopeInProcess(args);
}

describe('a folder of Codex sessions', () => {
	it('lists the sessions people started, newest first, each read with its sub-agents’ rollouts', async () => {
		const sessions = sessionsFolder();
		const listed = await perscope(['--print', sessions]);
		expect(listed.code, listed.stderr).toBe(0);
		expect(listed.stdout.split('\n').slice(0, 4)).toEqual([
			expect.stringMatching(/^JOB +EXPERT +STATUS +STEPS +RUNS +STARTED +QUERY$/),
			expect.stringMatching(/^01a228c6-a3fe-75e1-8a23-7df94192b3e1 +codex +✓ completed +6 +2 .* Fix the greeting in greet\.txt and check it\.$/),
			// The helper's rollout is not a session of its own: its two steps and its run are its parent's session's.
			expect.stringMatching(/^01a228c0-fb2e-7dd1-9990-d46a08f84537 +codex +✓ completed +6 +2 .* Ask a helper to check greet\.txt$/),
			expect.stringMatching(/^01a228c0-f5cd-7bb2-bd63-cdd91677d85d +codex +✓ completed +6 +2 .* Fix the greeting in greet\.txt and check it\.$/),
		]);
		expect(listed.stdout.split('\n')).toHaveLength(5);
		// Any folder of it: a year's, a day's.
		expect((await perscope(['--print', join(sessions, '2026')])).stdout).toBe(listed.stdout);
		const summary = await perscope(['--summary', sessions]);
		expect(summary.stdout.match(/^job \S+/gm)).toEqual([
			'job 01a228c0-f5cd-7bb2-bd63-cdd91677d85d',
			'job 01a228c0-fb2e-7dd1-9990-d46a08f84537',
			'job 01a228c6-a3fe-75e1-8a23-7df94192b3e1',
		]);
	});

	it('reads a session’s rollout with its sub-agents’ beside it, in the order their lines were written, and a glob of them once', async () => {
		const sessions = sessionsFolder();
		const parent = join(sessions, day, rollouts[1]![1]);
		const printed = await perscope(['--print', parent]);
		expect(printed.code, printed.stderr).toBe(0);
		const lines = printed.stdout.split('\n').map(line => line.trim());
		const at = (text: string) => {
			const index = lines.findIndex(line => line.includes(text));
			expect(index, `${text}\n${printed.stdout}`).toBeGreaterThan(-1);
			return index;
		};

		// The helper ran its command after it was spawned and before its parent's wait said it was done.
		expect(at('→ delegate codex: Count the lines of greet.txt.')).toBeLessThan(at('🔧 exec_command wc -l greet.txt'));
		expect(at('🔧 exec_command wc -l greet.txt')).toBeLessThan(at('🔧 close_agent'));
		expect(lines.filter(line => line.includes('✅ complete greet.txt has 1 line.'))).toHaveLength(1);

		const day_ = join(sessions, day);
		const globbed = await perscope(['--summary', ...readdirSync(day_).map(name => join(day_, name))]);
		expect(globbed.code, globbed.stderr).toBe(0);
		expect(globbed.stdout).toBe((await perscope(['--summary', sessions])).stdout.replace(/\n\d+ events\n$/, globbed.stdout.match(/\n\d+ events\n$/)![0]));
		expect(globbed.stdout).toMatch(/^job 01a228c0-fb2e-7dd1-9990-d46a08f84537 +✓ completed +6 steps/m);
	});
});

describe('a Codex session followed as it is written (-f)', () => {
	it('reads the rollout of a sub-agent it starts after it was opened (it was never read)', async () => {
		const folder = join(scratch(), day);
		mkdirSync(folder, {recursive: true});
		const parent = join(folder, rollouts[1]![1]);
		const lines = readFileSync(join(repoRoot, 'fixtures', 'codex', rollouts[1]![0]), 'utf8').split(/(?<=\n)/);
		// Up to the spawn_agent call's output: the helper is started, and its rollout not written yet.
		writeFileSync(parent, lines.slice(0, 17).join(''));
		const run = startCli(['--print', '-f', parent]);
		try {
			await waitUntil(() => run.stdout().includes('→ delegate codex: Count the lines of greet.txt.'), 'the delegation', run.stdout);
			copyFileSync(join(repoRoot, 'fixtures', 'codex', rollouts[2]![0]), join(folder, rollouts[2]![1]));
			await waitUntil(() => run.stdout().includes('[codex·01a228c0-fbe] ✓ run completed · 2 steps'), 'the helper’s run', run.stdout);
			expect(run.stdout()).toContain('  [codex·01a228c0-fbe] 🔧 exec_command wc -l greet.txt');
			appendFileSync(parent, lines.slice(17).join(''));
			await waitUntil(() => run.stdout().includes('✅ complete The helper says greet.txt has 1 line.'), 'the answer', run.stdout);
			run.child.kill('SIGTERM');
			expect((await run.exit).code).toBe(0);
			// Stopped, its job counts what reading the finished session does: the helper's steps, tokens and cost included.
			const whole = (await perscope(['--print', parent])).stdout.trimEnd().split('\n').at(-1);
			expect(whole).toMatch(/✓ completed · 6 steps · 6000 in \/ 300 out tokens/);
			expect(run.stdout().trimEnd().split('\n').at(-1)).toBe(whole);
		} finally {
			if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
		}
	});
});

describe('a codex exec stream’s conversation', () => {
	it('is read from the rollout Codex keeps of its thread under $CODEX_HOME/sessions, and said to be missing without one', async () => {
		// The real 0.171.0 stream of two `codex exec` turns and the rollout Codex wrote of the thread meanwhile.
		const stream = join(repoRoot, 'fixtures', 'codex', 'exec-with-rollout.jsonl');
		const thread = '01a228bc-d8ef-7500-8da2-04acc61fc523';
		const run = (args: string[], codexHome: string) =>
			spawnSync(process.execPath, [cliPath, ...args], {
				cwd: repoRoot,
				encoding: 'utf8',
				env: {...process.env, CI: 'true', CODEX_HOME: codexHome},
				timeout: 20_000,
			});
		const home = join(repoRoot, 'fixtures', 'codex', 'exec-with-rollout');
		const second = run(['--conversation', `${thread}#2`, stream], home);
		expect(second.status, second.stderr).toBe(0);
		const lines = second.stdout.split('\n');
		expect(lines[0]).toBe(`  conversation of run ${thread}#2 (codex) at step 1`);
		expect(lines[1]).toMatch(/^ {2}from line \d+ \(the thread's rollout, .*rollout-2026-11-29T19-16-34-01a228bc-d8ef-7500-8da2-04acc61fc523\.jsonl\)$/);
		// The turn's last response: given both prompts and the first turn, it answers.
		expect(second.stdout).toContain('    Fix the greeting in greet.txt and check it.\n');
		expect(second.stdout).toContain('    Now add a farewell file.\n');
		expect(second.stdout).toContain('+   Added farewell.txt (Goodbye, world). In French that is Au revoir.\n');

		const elsewhere = run(['--conversation', thread, stream], scratch());
		expect(elsewhere.status).toBe(1);
		expect(elsewhere.stderr).toMatch(
			/^perscope: --conversation: A codex exec stream does not carry what the model was given, and no rollout of thread 01a228bc-d8ef-7500-8da2-04acc61fc523 is in /,
		);
	});
});

describe('--codex', () => {
	it('lists the Codex sessions that ran in the working directory, from $CODEX_HOME/sessions; says so when none did', async () => {
		const home = scratch();
		const work = scratch();
		const day = join(home, 'sessions', '2026', '11', '29');
		mkdirSync(day, {recursive: true});
		for (const [fixture, name] of rollouts) {
			// The two-turn session ran here; the others elsewhere.
			const text = readFileSync(join(repoRoot, 'fixtures', 'codex', fixture), 'utf8');
			writeFileSync(
				join(day, name),
				fixture === 'rollout-edit-and-test.jsonl' ? text.replaceAll('"cwd":"/home/user/ws/edit"', JSON.stringify({cwd: work}).slice(1, -1)) : text,
			);
		}

		const run = (args: string[], cwd: string) =>
			spawnSync(process.execPath, [cliPath, ...args], {cwd, encoding: 'utf8', env: {...process.env, CI: 'true', CODEX_HOME: home}, timeout: 20_000});
		const here = run(['--codex', '--print'], work);
		expect(here.status, here.stderr).toBe(0);
		expect(here.stdout.split('\n').filter(Boolean)).toEqual([
			expect.stringMatching(/^JOB +EXPERT/),
			expect.stringMatching(/^01a228c0-f5cd-7bb2-bd63-cdd91677d85d +codex +✓ completed +6 +2 .* Fix the greeting in greet\.txt and check it\.$/),
		]);
		const elsewhere = run(['--codex', '--print'], repoRoot);
		expect(elsewhere.status).toBe(1);
		expect(elsewhere.stderr).toBe(
			`perscope: no Codex sessions of ${repoRoot.replace(/\/$/, '')}: none in ${join(home, 'sessions')} (every directory's: perscope ${join(home, 'sessions')})\n`,
		);
		expect(run(['--codex', 'x.jsonl'], work).status).toBe(2);
	});
});

describe('a session that ran past midnight', () => {
	it('reads its sub-agent’s rollout from the next day’s folder too, where Codex wrote it', async () => {
		const sessions = scratch();
		const today = join(sessions, '2026', '11', '30');
		const tomorrow = join(sessions, '2026', '12', '01');
		mkdirSync(today, {recursive: true});
		mkdirSync(tomorrow, {recursive: true});
		copyFileSync(join(repoRoot, 'fixtures', 'codex', rollouts[1]![0]), join(today, rollouts[1]![1]));
		copyFileSync(join(repoRoot, 'fixtures', 'codex', rollouts[2]![0]), join(tomorrow, rollouts[2]![1]));
		const printed = await perscope(['--print', join(today, rollouts[1]![1])]);
		expect(printed.code, printed.stderr).toBe(0);
		expect(printed.stdout).toContain('🔧 exec_command wc -l greet.txt');
	});
});
