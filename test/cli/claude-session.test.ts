import {spawnSync} from 'node:child_process';
import {appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {RawEvents} from '../../source/input/reread/raw-events.js';
import {resolveInputs} from '../../source/input/inputs.js';
import {cliPath, repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';
import {copyAsWritten} from '../helpers/recorded-layout.js';
import {scratchDirectories} from '../helpers/scratch.js';

/*
 * A Claude Code session as it lies on disk (`~/.claude/projects/<folder>/<session>.jsonl`, its sub-agents'
 * transcripts in `<session>/subagents/agent-<id>.jsonl`): the real 2.1.197 recording of a session whose sub-agent
 * started a sub-agent of its own (fixtures/claude-code/session-transcript-cc2.1.197*), laid out as Claude Code
 * writes it. Its lines, by their times: the main loop's Agent call (14:24:09.887), the first sub-agent's prompt
 * (.895) and Agent call (.932), the second's prompt (.935), its Bash call (.967) and answer (10.062), the first's
 * answer (10.086), the main loop's (10.129).
 */

const session = '0ccdcfe9-b26c-42b6-bd34-9894be0511a7';
const scratch = scratchDirectories('perscope-claude-session-');

/** The recorded files, at their names in a session folder: the session's, and each sub-agent's. */
function recordedFiles(recorded = join(repoRoot, 'fixtures/claude-code/session-transcript-cc2.1.197'), id = session): Array<{from: string; to: string}> {
	const subagents = readdirSync(join(recorded, 'subagents')).filter(name => name.endsWith('.ndjson'));
	return [
		{from: `${recorded}.ndjson`, to: `${id}.jsonl`},
		...subagents.map(name => ({from: join(recorded, 'subagents', name), to: join(id, 'subagents', name.replace(/\.ndjson$/, '.jsonl'))})),
	];
}

function laidOut(files = recordedFiles()): string {
	const folder = scratch();
	for (const {from, to} of files) {
		mkdirSync(dirname(join(folder, to)), {recursive: true});
		copyFileSync(from, join(folder, to));
	}

	return folder;
}

function perscope(args: string[], cwd: string): {stdout: string; stderr: string; code: number | null} {
	const result = spawnSync(process.execPath, [cliPath, ...args], {cwd, encoding: 'utf8', env: {...process.env, CI: 'true'}, timeout: 20_000});
	return {stdout: result.stdout, stderr: result.stderr, code: result.status};
}

const bash = '[general-purpose·toolu_mockkqxs130004] 🔧 Bash wc -l notes/a.txt notes/b.txt';
const firstAnswer = '[claude] ← general-purpose·toolu_mockkqxs130002: b.txt is longest: 3 lines (a.txt has 1).';

describe('a Claude Code session read with its sub-agents', () => {
	it('the session file alone brings its sub-agents, their steps between their call and their answer', () => {
		const folder = laidOut();
		const {stdout, stderr, code} = perscope(['--print', `${session}.jsonl`], folder);
		expect(code, stderr).toBe(0);
		const lines = stdout.split('\n').map(line => line.trim());
		const at = (line: string) => {
			const index = lines.indexOf(line);
			expect(index, `${line}\n${stdout}`).toBeGreaterThan(-1);
			return index;
		};

		// Read one file after another, the sub-agents' steps came after the main loop's answer.
		expect(at('[claude] → delegate general-purpose: Survey the notes folder and say which file is longest.')).toBeLessThan(at(bash));
		expect(at(bash)).toBeLessThan(at(firstAnswer));
		expect(at(firstAnswer)).toBeLessThan(at('[claude] ✅ complete The longest notes file is b.txt (3 lines).'));
		expect(lines.at(-2)).toMatch(/^── job 0ccdcfe9-b26c-42b6-bd34-9894be0511a7 ✓ completed · 6 steps · 4800 in \/ 120 out tokens · \$0\.03 · 338ms$/);
	});

	it('--conversation shows what the model was given at a step and what the step added, a sub-agent’s from its own file', () => {
		const folder = laidOut();
		const main = perscope(['--conversation', session, `${session}.jsonl`], folder);
		expect(main.code, main.stderr).toBe(0);
		const lines = main.stdout.split('\n');
		// The main loop's last step (its answer), at its line in the session's file.
		expect(lines.slice(0, 4)).toEqual([
			`  conversation of run ${session} (claude) at step 2`,
			'  from line 10 (transcript)',
			'  tokens this step: 800 input · 20 output · ? reasoning · 200 cached input',
			'  given to the model: 5 messages · added by the step: 1 message · lines new at this step are marked +',
		]);
		const headings = lines.filter(line => /^[+ ] (#\d+ |── )/.test(line));
		expect(headings).toEqual([
			'  ── given to the model ──',
			'  #1 user',
			'  #2 context',
			'  #3 context',
			'  #4 assistant',
			'  #5 tool',
			'+ ── new at this step: the answer and its tools’ results ──',
			'+ #6 assistant',
		]);
		expect(main.stdout).toContain('    call Agent · toolu_mockkqxs130002\n');
		expect(main.stdout).toContain('    result of Agent · toolu_mockkqxs130002\n');
		expect(main.stdout).toContain('+   The longest notes file is b.txt (3 lines).\n');

		// The inner sub-agent's Bash step: its prompt given, its call and the command's output added.
		const agent = perscope(['--conversation', 'toolu_mockkqxs130004@1', `${session}.jsonl`], folder);
		expect(agent.code, agent.stderr).toBe(0);
		expect(agent.stdout).toContain('  from line 3 (transcript)\n');
		expect(agent.stdout).toContain('+ #1 user\n+   Count the lines of each file in notes/ and list them.\n');
		expect(agent.stdout).toContain('+   call Bash · toolu_mockkqxs130006\n');
		expect(agent.stdout).toContain('+ #4 tool\n+   result of Bash · toolu_mockkqxs130006\n+      1 notes/a.txt\n+      3 notes/b.txt\n+      4 total\n');
	});

	it('--conversation on a -p stream reads the step from the transcript Claude Code keeps of its session, and says where none is', () => {
		// The real 2.1.197 CLI's stream and the transcript it wrote meanwhile in its HOME, laid out in a config folder.
		const recorded = join(repoRoot, 'fixtures/claude-code/stream-with-transcript-cc2.1.197');
		const config = scratch();
		copyAsWritten(join(recorded, 'projects'), join(config, 'projects'));
		const stream = `${recorded}.ndjson`;
		const run = (args: string[], env: Record<string, string>) =>
			spawnSync(process.execPath, [cliPath, ...args], {cwd: repoRoot, encoding: 'utf8', env: {...process.env, CI: 'true', ...env}, timeout: 20_000});
		const main = run(['--conversation', 'f1d7fd6c-b241-4cb3-88c5-3e279274bcb6', stream], {CLAUDE_CONFIG_DIR: config});
		expect(main.status, main.stderr).toBe(0);
		const session = join(config, 'projects', '-home-user-ws-stream-with-transcript', '1e93a4ec-0653-4559-a9db-c8267ad768eb.jsonl');
		expect(main.stdout.split('\n').slice(0, 4)).toEqual([
			'  conversation of run f1d7fd6c-b241-4cb3-88c5-3e279274bcb6 (claude) at step 2',
			`  from line 18 (the session's transcript, ${session})`,
			'  tokens this step: 800 input · 20 output · ? reasoning · 200 cached input',
			'  given to the model: 5 messages · added by the step: 1 message · lines new at this step are marked +',
		]);
		// The prompt, which the stream does not carry, is in it.
		expect(main.stdout).toContain('  #1 user\n    Which notes file is longest? Use a sub-agent.\n');
		expect(main.stdout).toContain('+   The longest notes file is b.txt (3 lines).\n');

		// The sub-agent's step, from its own transcript.
		const agent = run(['--conversation', 'toolu_mockdckb2i0002', stream], {CLAUDE_CONFIG_DIR: config});
		expect(agent.status, agent.stderr).toBe(0);
		expect(agent.stdout).toContain('/subagents/agent-ab628a40bd26263ac.jsonl)\n');
		expect(agent.stdout).toContain('+ #1 user\n+   Survey the notes folder and say which file is longest.\n');
		// The sub-agent's own sub-agent: the stream has none of its responses.
		const inner = run(['--conversation', 'toolu_mockdckb2i0004', stream], {CLAUDE_CONFIG_DIR: config});
		expect(inner.status).toBe(2);
		expect(inner.stderr).toContain('none of its responses is in the log');

		// Without the transcript (another machine): what is missing and where it was looked for, exit 1.
		const elsewhere = run(['--conversation', 'f1d7fd6c', stream], {CLAUDE_CONFIG_DIR: scratch()});
		expect(elsewhere.status).toBe(1);
		expect(elsewhere.stderr).toMatch(
			/^perscope: --conversation: A Claude Code stream does not carry what the model was given at a step, and no transcript of session 1e93a4ec-0653-4559-a9db-c8267ad768eb is in \S+\/projects to read it from/,
		);
	});

	it('a folder of projects (~/.claude/projects) lists the sessions of every project, newest first, each with its project', () => {
		const projects = scratch();
		for (const [project, files] of [
			['-home-me-app', recordedFiles()],
			[
				'-home-me-other',
				recordedFiles(join(repoRoot, 'fixtures/claude-code/session-transcript-interactive-cc2.1.197'), 'a9c2eaab-e8dd-4111-990b-0c9d77d216e4'),
			],
		] as const) {
			for (const {from, to} of files) {
				mkdirSync(dirname(join(projects, project, to)), {recursive: true});
				copyFileSync(from, join(projects, project, to));
			}
		}

		const printed = perscope(['--print', projects], repoRoot);
		expect(printed.code, printed.stderr).toBe(0);
		const rows = printed.stdout.split('\n');
		expect(rows[0]).toMatch(/^JOB +EXPERT +STATUS +STEPS +RUNS +STARTED +PROJECT +QUERY$/);
		// The interactive session (16:57) is newer than the other (14:24); each read with its sub-agents.
		expect(rows[1]).toMatch(/^a9c2eaab-e8dd-4111-990b-0c9d77d216e4 +claude +✓ completed +8 +5 +\S+ \S+ +-home-me-other +Which notes file is longest\?/);
		expect(rows[2]).toMatch(/^0ccdcfe9-b26c-42b6-bd34-9894be0511a7 +claude +✓ completed +6 +3 +\S+ \S+ +-home-me-app +Which notes file is longest\?/);
		const listed = JSON.parse(perscope(['--json', projects], repoRoot).stdout) as {jobs: Array<{jobId: string; project: string; path: string}>};
		expect(listed.jobs.map(job => [job.jobId, job.project])).toEqual([
			['a9c2eaab-e8dd-4111-990b-0c9d77d216e4', '-home-me-other'],
			['0ccdcfe9-b26c-42b6-bd34-9894be0511a7', '-home-me-app'],
		]);
		// --summary sums every session, oldest first, as for one project's folder.
		const summary = perscope(['--summary', projects], repoRoot);
		expect(summary.stdout.match(/^job \S+/gm)).toEqual(['job 0ccdcfe9-b26c-42b6-bd34-9894be0511a7', 'job a9c2eaab-e8dd-4111-990b-0c9d77d216e4']);
	});

	it('its sub-agents given beside it (a glob) are read once, not twice', () => {
		const folder = laidOut();
		const alone = perscope(['--summary', `${session}.jsonl`], folder);
		const globbed = perscope(
			['--summary', `${session}.jsonl`, ...readdirSync(join(folder, session, 'subagents')).map(name => join(session, 'subagents', name))],
			folder,
		);
		expect(globbed.code, globbed.stderr).toBe(0);
		expect(globbed.stdout).toBe(alone.stdout);
		expect(alone.stdout).toMatch(/✓ completed {2}6 steps {2}4800 in \/ 120 out tokens/);
	});

	it('an unreadable sub-agent file is said and the rest is read; a FIFO in its place does not hang it', () => {
		const folder = laidOut();
		const fifo = join(folder, session, 'subagents', 'agent-zzfifo.jsonl');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		const {stdout, stderr, code} = perscope(['--print', `${session}.jsonl`], folder);
		expect(stderr).toContain(`${join(session, 'subagents', 'agent-zzfifo.jsonl')}: not read: it is a FIFO, not a regular file`);
		expect(stdout).toContain(bash);
		expect(code).not.toBe(null);
	});

	it('its lines are read again by offset, the sub-agents\u2019 too (the inspector\u2019s raw event)', () => {
		const folder = laidOut();
		const path = join(folder, `${session}.jsonl`);
		const plan = resolveInputs([path], {stdinIsTTY: true});
		expect(plan.inputs.map(input => input.kind)).toEqual(['session']);
		const raw = new RawEvents();
		raw.addPlan(plan);
		expect(raw.readsEveryLineAgain(plan)).toBe(true);
		const subagent = join(folder, session, 'subagents', 'agent-a9fb83d788ae2790b.jsonl');
		const text = readFileSync(subagent, 'utf8');
		const third = text.split('\n')[2]!;
		expect(raw.read({source: subagent, line: 3, offset: Buffer.byteLength(text.slice(0, text.indexOf(third)))})).toBe(third);
	});

	it('-f follows a session as Claude Code writes it, sub-agents started meanwhile included', async () => {
		const folder = scratch();
		const run = startCli(['-f', '--print', `${session}.jsonl`], {cwd: folder});
		// Every line written at its recorded time, slowed down five times: the files appear as the session goes.
		const lines = recordedFiles().flatMap(({from, to}) => {
			let time = 0;
			return readFileSync(from, 'utf8')
				.split('\n')
				.filter(line => line !== '')
				.map(line => {
					time = Date.parse((JSON.parse(line) as {timestamp?: string}).timestamp ?? '') || time;
					return {time, to: join(folder, to), line};
				});
		});
		lines.sort((a, b) => a.time - b.time);
		const started = Date.now();
		for (const {time, to, line} of lines) {
			const wait = started + (time - lines[0]!.time) * 5 - Date.now();
			if (wait > 0) await new Promise(resolve => setTimeout(resolve, wait));
			mkdirSync(dirname(to), {recursive: true});
			appendFileSync(to, `${line}\n`);
		}

		await waitUntil(() => run.stdout().includes('── job 0ccdcfe9-b26c-42b6-bd34-9894be0511a7 ✓ completed'), 'the session to end', run.stdout);
		run.child.kill('SIGINT');
		await run.exit;
		expect(run.stdout()).toContain(bash);
		expect(run.stdout()).toBe(perscope(['--print', `${session}.jsonl`], laidOut()).stdout);
	});

	it('an interactive session (2.1.197 in a terminal): a prompt with sub-agents, /usage, a second prompt, `! ls notes`, with no unknown lines', () => {
		const id = 'a9c2eaab-e8dd-4111-990b-0c9d77d216e4';
		const folder = laidOut(recordedFiles(join(repoRoot, 'fixtures/claude-code/session-transcript-interactive-cc2.1.197'), id));
		const summary = JSON.parse(perscope(['--summary', '--json', `${id}.jsonl`], folder).stdout) as {
			unknownEvents: object;
			diagnostics: unknown[];
			events: number;
		};
		// Its `file-history-snapshot` lines (no session named), `permission-mode`, `system` `turn_duration` and `local_command`.
		expect(summary.unknownEvents).toEqual({});
		expect(summary.diagnostics).toEqual([]);
		const printed = perscope(['--print', `${id}.jsonl`], folder).stdout.split('\n');
		const shell = printed.indexOf('[claude] 💬 query ! ls notes');
		expect(shell, printed.join('\n')).toBeGreaterThan(printed.indexOf('[claude] 💬 query Thanks. And which is shortest?'));
		expect(printed[shell + 1]).toBe('[claude] 💬 query a.txt ↵ b.txt');
		expect(printed.filter(line => line.startsWith('── job') && line.includes('✓ completed'))).toHaveLength(3);
		expect(printed.indexOf('    [general-purpose·toolu_mockc7x7450006] 🔧 Bash wc -l notes/a.txt notes/b.txt')).toBeLessThan(
			printed.indexOf('[claude] ✅ complete The longest notes file is b.txt (3 lines).'),
		);
	});

	it('a folder of sessions (`~/.claude/projects/<folder>`) lists them newest first with their first prompt; --summary reads each with its sub-agents, oldest first', () => {
		const interactive = 'a9c2eaab-e8dd-4111-990b-0c9d77d216e4';
		const folder = laidOut([
			...recordedFiles(),
			...recordedFiles(join(repoRoot, 'fixtures/claude-code/session-transcript-interactive-cc2.1.197'), interactive),
		]);
		const listed = perscope(['--print', folder], folder);
		expect(listed.code, listed.stderr).toBe(0);
		const rows = listed.stdout.trimEnd().split('\n');
		expect(rows[0]).toMatch(/^JOB\s+EXPERT\s+STATUS\s+STEPS\s+RUNS\s+STARTED\s+QUERY$/);
		expect(rows.slice(1).map(row => row.split(/\s{2,}/).filter((_cell, column) => column !== 5))).toEqual([
			[interactive, 'claude', '✓ completed', '8', '5', 'Which notes file is longest? Use a sub-agent.'],
			[session, 'claude', '✓ completed', '6', '3', 'Which notes file is longest? Use a sub-agent.'],
		]);
		const summary = perscope(['--summary', folder], folder).stdout;
		expect(summary.split('\n').filter(line => line.startsWith('job '))).toEqual([
			`job ${session}  ✓ completed  6 steps  4800 in / 120 out tokens  $0.03  338ms`,
			`job ${interactive}  ✓ completed  8 steps  6400 in / 160 out tokens  $0.04  27.5s`,
		]);
	});

	it('--claude lists the sessions of the directory it runs in, from ~/.claude/projects (or $CLAUDE_CONFIG_DIR); none is said, exit 1', () => {
		const home = scratch();
		const work = join(scratch(), 'my.app_x y');
		mkdirSync(work);
		// As Claude Code 2.1.197 names a working directory's folder: every character but a letter or a digit as `-`.
		const projects = join(home, '.claude', 'projects', work.replace(/[^A-Za-z0-9]/g, '-'));
		const run = (args: string[], env: Record<string, string>) =>
			spawnSync(process.execPath, [cliPath, ...args], {cwd: work, encoding: 'utf8', env: {...process.env, CI: 'true', HOME: home, ...env}, timeout: 20_000});
		const none = run(['--claude', '--print'], {});
		expect(none.status).toBe(1);
		expect(none.stderr).toBe(`perscope: no Claude Code sessions of ${work}: none in ${projects} (every project's: perscope ${dirname(projects)})\n`);

		for (const {from, to} of recordedFiles()) {
			mkdirSync(dirname(join(projects, to)), {recursive: true});
			copyFileSync(from, join(projects, to));
		}

		const listed = run(['--claude', '--print'], {});
		expect(listed.status, listed.stderr).toBe(0);
		expect(listed.stdout.split('\n')[1]).toMatch(new RegExp(`^${session} +claude +✓ completed +6 +3 `));
		expect(run(['--claude', '--summary'], {}).stdout).toContain(`job ${session}  ✓ completed  6 steps  4800 in / 120 out tokens`);
		// Claude Code's own variable for its config folder.
		expect(run(['--claude', '--print'], {CLAUDE_CONFIG_DIR: join(home, 'elsewhere')}).status).toBe(1);
		expect(run(['--claude', 'x.ndjson'], {}).stderr).toContain('--claude opens the Claude Code sessions of this directory; it cannot be combined with files');
	});

	it('a session is listed as it opens: its sub-agents in time order, though the nested one\u2019s file sorts first (a real -p session carried on by a)', () => {
		const id = '8b80faad-2dad-4582-920e-b5e2083e16d8';
		const folder = laidOut(recordedFiles(join(repoRoot, 'fixtures/claude-code/session-transcript-continued-cc2.1.197'), id));
		// agent-af620… is the sub-agent's own sub-agent (spawnDepth 2), agent-af806… the sub-agent: read by name, the
		// first was a sub-agent of the main loop of its own, still running.
		const cells = perscope(['--print', folder], folder)
			.stdout.trimEnd()
			.split('\n')[1]!
			.split(/\s{2,}/);
		expect(cells.slice(0, 5)).toEqual([id, 'claude', '✓ completed', '7', '4']);
		expect(perscope(['--summary', `${id}.jsonl`], folder).stdout).toMatch(new RegExp(`^job ${id}  ✓ completed  7 steps  5600 in / 140 out tokens`));
	});

	it('a transcript with the stream of a turn run by --resume beside it: the job costs the transcript\u2019s turns by the table and that turn as reported', () => {
		// The stream's result reports $0.0046 for its own turn; the transcript's two turns, no report, $0.0092 and $0.0046.
		const {stdout} = perscope(
			['--summary', '--json', 'fixtures/claude-code/session-transcript-continued-cc2.1.197.ndjson', 'fixtures/claude-code/continued-resumed-cc2.1.197.ndjson'],
			repoRoot,
		);
		const [job] = (JSON.parse(stdout) as {jobs: Array<{costUsd: number; runs: Array<{costUsd: number}>}>}).jobs;
		expect(job!.runs.map(run => run.costUsd)).toEqual([0.0092, 0, 0.0046, 0.0046]);
		expect(job!.costUsd).toBe(0.0184);
	});
});
