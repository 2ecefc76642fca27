import {spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {appendFileSync, chmodSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath, repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';
import {copyAsWritten} from '../helpers/recorded-layout.js';
import {scratchDirectories} from '../helpers/scratch.js';
import {openToEveryone, perscopeUnprivileged} from '../helpers/unprivileged.js';

/*
 * A Gemini CLI stream carries none of what the model was given; the chat the CLI keeps of the session does
 * (`~/.gemini/tmp/<project>/chats/`). fixtures/gemini/stream-with-chats.jsonl is the real 0.61.0 stream, recorded with
 * the chats it wrote meanwhile (fixtures/gemini/stream-with-chats/).
 */

const scratch = scratchDirectories('perscope-gemini-chats-');
const stream = join(repoRoot, 'fixtures/gemini/stream-with-chats.jsonl');
const session = '87be16a9-348b-4b32-baa8-f067a778c15d';

function perscope(args: string[], home: string) {
	const result = spawnSync(process.execPath, [cliPath, ...args], {cwd: repoRoot, encoding: 'utf8', env: {...process.env, CI: 'true', GEMINI_CLI_HOME: home}});
	return {code: result.status, stdout: result.stdout, stderr: result.stderr};
}

describe('a Gemini CLI stream’s conversation', () => {
	it('is read from the chat Gemini CLI keeps of the session under $GEMINI_CLI_HOME/.gemini, run by run, step by step', () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/stream-with-chats'), join(home, '.gemini'));
		const second = perscope(['--conversation', `${session}@2`, stream], home);
		expect(second.code, second.stderr).toBe(0);
		const lines = second.stdout.split('\n');
		expect(lines[0]).toBe(`  conversation of run ${session} (gemini) at step 2`);
		expect(lines[1]).toMatch(/^ {2}from line 10 \(the session's chat, .*\/chats\/session-2026-11-29T21-44-87be16a9\.jsonl\)$/);
		expect(lines[2]).toBe('  tokens this step: 900 input · 40 output · 10 reasoning · 300 cached input');
		expect(second.stdout).toContain('    Fix the greeting in greet.txt, then have a helper check the workspace.');
		expect(second.stdout).toContain('+   call replace · replace__replace_1795988673896_0');

		// The resumed run (the second `gemini -p`): its prompt is new at its first step.
		const resumed = perscope(['--conversation', `${session}#2@1`, stream], home);
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.stdout).toContain('+   Now add a farewell file.');
		expect(resumed.stdout).toContain('+   call write_file · write_file__write_file_1795988676546_0');
	});

	it('says where it looked, exit 1, when the chat is not there', () => {
		const missing = perscope(['--conversation', `${session}@2`, stream], scratch());
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(
			new RegExp(
				`^perscope: --conversation: A Gemini CLI stream does not carry what the model was given at a step, and no chat of session ${session} is in \\S+/\\.gemini/tmp to read it from`,
			),
		);
	});
});

const chat = join(repoRoot, 'fixtures/gemini/stream-with-chats/tmp/tmp-7jg85xlsvx/chats/session-2026-11-29T21-44-87be16a9.ndjson');

describe('a Gemini CLI chat given as the input', () => {
	it('regression: printed 18 bad lines and unknown main, user and gemini events: the session’s runs, steps and tokens, in every mode', () => {
		const summary = perscope(['--summary', chat], scratch());
		expect(summary.code, summary.stderr).toBe(0);
		expect(summary.stderr).toBe('');
		// Five responses of 900 input and 40 output tokens (300 cached, 10 of thinking) in the first run, two in the second.
		expect(summary.stdout.split('\n').map(line => line.trimEnd())).toEqual([
			`job ${session}  ✓ completed  7 steps  6300 in / 280 out tokens  $0.0090  2.9s`,
			'  EXPERT        STATUS       STEPS    IN  OUT     COST  DURATION  ERROR',
			'  gemini        ✓ completed      5  4500  200  $0.0064     339ms',
			'    generalist  ✓ completed      0     0    0       $0      93ms',
			'  gemini        ✓ completed      2  1800   80  $0.0026     127ms',
			'',
			'39 events',
			'',
		]);

		const print = perscope(['--print', chat], scratch());
		expect(print.code, print.stderr).toBe(0);
		expect(print.stdout).toContain('[gemini] 🔧 read_file notes.txt ✗ File not found: /home/user/ws/stream-with-chats/notes.txt\n');
		expect(print.stdout).toContain('[gemini] → delegate generalist: List the files in the workspace and say which ones hold a greeting.\n');
		expect(print.stdout).toContain('[gemini] ✅ complete Added farewell.txt.\n[gemini] ✓ run completed · 2 steps\n');

		const json = perscope(['--summary', '--json', chat], scratch());
		const read = JSON.parse(json.stdout) as {
			events: number;
			diagnosticCount: number;
			unknownEvents: object;
			jobs: Array<{runs: Array<{runId: string; steps: number}>}>;
		};
		expect(read).toMatchObject({events: 39, diagnosticCount: 0, unknownEvents: {}});
		expect(read.jobs[0]!.runs.map(run => `${run.runId} ${run.steps}`)).toEqual([`${session} 5`, `${session}/generalist#1 0`, `${session}#2 2`]);
	});

	it('--conversation reads a step from the chat itself, given as a file or through a pipe', () => {
		const fromFile = perscope(['--conversation', `${session}@2`, chat], scratch());
		expect(fromFile.code, fromFile.stderr).toBe(0);
		const lines = fromFile.stdout.split('\n');
		expect(lines[0]).toBe(`  conversation of run ${session} (gemini) at step 2`);
		expect(lines[1]).toBe('  from line 10 (chat)');
		expect(lines[2]).toBe('  tokens this step: 900 input · 40 output · 10 reasoning · 300 cached input');
		expect(fromFile.stdout).toContain('    Fix the greeting in greet.txt, then have a helper check the workspace.');
		expect(fromFile.stdout).toContain('+   call replace · replace__replace_1795988673896_0');
		const piped = spawnSync(process.execPath, [cliPath, '--conversation', `${session}#2@1`], {
			cwd: repoRoot,
			encoding: 'utf8',
			input: readFileSync(chat),
			env: {...process.env, CI: 'true'},
		});
		expect(piped.status, piped.stderr).toBe(0);
		expect(piped.stdout).toContain('+   Now add a farewell file.');
		expect(piped.stdout).toContain('+   call write_file · write_file__write_file_1795988676546_0');
	});

	it('reads the same from a pipe, and the reference way (PERSCOPE_FAST=0)', () => {
		const file = perscope(['--summary', '--json', chat], scratch());
		const piped = spawnSync(process.execPath, [cliPath, '--summary', '--json'], {
			cwd: repoRoot,
			encoding: 'utf8',
			input: readFileSync(chat),
			env: {...process.env, CI: 'true'},
		});
		expect(piped.status).toBe(0);
		const plain = spawnSync(process.execPath, [cliPath, '--summary', '--json', chat], {
			cwd: repoRoot,
			encoding: 'utf8',
			env: {...process.env, CI: 'true', PERSCOPE_FAST: '0'},
		});
		expect(plain.stdout).toBe(file.stdout);
		// A pipe's lines are its own source: everything but the source's name is the same.
		expect(piped.stdout.replaceAll('stdin', 'X')).toBe(file.stdout.replaceAll(chat.slice(repoRoot.length + 1), 'X'));
	});
});

describe('Gemini CLI’s folder of chats', () => {
	/** `~/.gemini` as Gemini CLI lays it out, with two projects: the recorded `gemini -p` session and the interactive one. */
	function geminiHome(): string {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/stream-with-chats/tmp/tmp-7jg85xlsvx'), join(home, '.gemini', 'tmp', 'stream-with-chats'));
		copyAsWritten(join(repoRoot, 'fixtures/gemini/interactive-chat'), join(home, '.gemini', 'tmp', 'interactive-chat'));
		return home;
	}

	const interactive = '420074c7-0964-409e-9bdf-00ea0e982b2a';

	it('lists the sessions, newest first, from ~/.gemini, its tmp, a project’s folder or its chats; a sub-agent’s chat is not a session', () => {
		const home = geminiHome();
		const all = perscope(['--print', join(home, '.gemini', 'tmp')], home);
		expect(all.code, all.stderr).toBe(0);
		expect(all.stdout.split('\n')).toEqual([
			expect.stringMatching(/^JOB +EXPERT +STATUS +STEPS +RUNS +STARTED +PROJECT +QUERY$/),
			// Each read with its sub-agent's chat: the main loop's 7 steps and the sub-agent's 4.
			expect.stringMatching(new RegExp(`^${interactive} +gemini +✓ completed +11 +3 +2026-11-30 01:37:58 +interactive-chat +Fix the greeting`)),
			expect.stringMatching(new RegExp(`^${session} +gemini +✓ completed +11 +3 +2026-11-29 21:44:33 +stream-with-chats +Fix the greeting`)),
			'',
		]);
		expect(perscope(['--print', join(home, '.gemini')], home).stdout).toBe(all.stdout);
		const project = perscope(['--print', join(home, '.gemini', 'tmp', 'interactive-chat')], home);
		expect(project.stdout.split('\n').slice(1)).toEqual([
			expect.stringMatching(new RegExp(`^${interactive} +gemini +✓ completed +11 +3 .* Fix the greeting`)),
			'',
		]);
		expect(perscope(['--print', join(home, '.gemini', 'tmp', 'interactive-chat', 'chats')], home).stdout).toBe(project.stdout);
		const summary = perscope(['--summary', join(home, '.gemini', 'tmp')], home);
		expect(summary.stdout.match(/^job \S+ .*$/gm)).toEqual([
			`job ${session}  ✓ completed  11 steps  9900 in / 440 out tokens  $0.01  2.9s`,
			`job ${interactive}  ✓ completed  11 steps  9900 in / 440 out tokens  $0.01  3.6s`,
		]);
	});

	it('--gemini lists the sessions that ran in this directory (told by the hash of its path in each chat’s header), and says so when there are none', () => {
		const home = geminiHome();
		const here = scratch();
		// The recorded chat, as if it had run here: Gemini CLI writes the SHA-256 of the directory's path as `projectHash`.
		const chats = join(home, '.gemini', 'tmp', 'here', 'chats');
		mkdirSync(chats, {recursive: true});
		const recorded = readFileSync(join(repoRoot, 'fixtures/gemini/interactive-chat/chats/session-2026-11-30T01-37-420074c7.ndjson'), 'utf8');
		const hash = createHash('sha256').update(realpathSync(here)).digest('hex');
		writeFileSync(join(chats, 'session-2026-11-30T01-37-420074c7.jsonl'), recorded.replace(/"projectHash":"[0-9a-f]+"/g, `"projectHash":"${hash}"`));
		const run = (cwd: string) =>
			spawnSync(process.execPath, [cliPath, '--gemini', '--print'], {cwd, encoding: 'utf8', env: {...process.env, CI: 'true', GEMINI_CLI_HOME: home}});
		const listed = run(here);
		expect(listed.status, listed.stderr).toBe(0);
		// The sub-agent's chat is in the project's folder it ran in: not copied here.
		expect(listed.stdout.split('\n').slice(1)).toEqual([
			expect.stringMatching(new RegExp(`^${interactive} +gemini +✓ completed +7 +3 .* here +Fix the greeting`)),
			'',
		]);
		const elsewhere = run(scratch());
		expect(elsewhere.status).toBe(1);
		expect(elsewhere.stderr).toBe(
			`perscope: no Gemini CLI sessions of ${realpathSync(elsewhere.stderr.match(/sessions of (\S+):/)![1]!)}: none in ${join(home, '.gemini', 'tmp')} (every directory's: perscope ${join(home, '.gemini', 'tmp')})\n`,
		);
		const withFiles = perscope(['--gemini', chat], home);
		expect(withFiles.code).toBe(2);
		expect(withFiles.stderr).toMatch(/--gemini opens the Gemini CLI sessions of this directory; it cannot be combined with files/);
	});
});

describe('a Gemini CLI chat with its sub-agents’ chats beside it', () => {
	it('reads them together, in the order their lines were written: each sub-agent’s steps under its delegation, with the figures the CLI gave', () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/interactive-chat/chats'), join(home, 'chats'));
		const chatFile = join(home, 'chats', 'session-2026-11-30T01-37-420074c7.jsonl');
		const print = perscope(['--print', chatFile], home);
		expect(print.code, print.stderr).toBe(0);
		expect(print.stdout).toContain(
			[
				'[gemini] → delegate generalist: List the files in the workspace and say which ones hold a greeting.',
				'  [generalist] 💬 query List the files in the workspace and say which ones hold a greeting.',
				'  [generalist] 🔧 list_directory .',
				'  [generalist] 🔧 complete_task Only greet.txt holds a greeting. ✗ params/result must be object',
				'',
			].join('\n'),
		);
		expect(print.stdout).toContain(
			"  [generalist] ✅ complete Only greet.txt holds a greeting.\n  [generalist] ✓ run completed · 4 steps\n[gemini] ← generalist: Subagent 'generalist' finished. …\n",
		);
		// `/quit` printed 11 requests, 9,900 input tokens (3,300 cache reads) and 440 output for the session, sub-agent included.
		const json = JSON.parse(perscope(['--summary', '--json', chatFile], home).stdout) as {
			events: number;
			jobs: Array<{usage: {inputTokens: number; outputTokens: number; cachedInputTokens: number}; steps: number; runs: Array<{runId: string; steps: number}>}>;
		};
		expect(json.events).toBe(35 + 19);
		expect(json.jobs[0]!.usage).toMatchObject({inputTokens: 9900, outputTokens: 440, cachedInputTokens: 3300});
		expect(json.jobs[0]!.runs.map(run => `${run.runId} ${run.steps}`)).toEqual([
			'420074c7-0964-409e-9bdf-00ea0e982b2a 5',
			'420074c7-0964-409e-9bdf-00ea0e982b2a/generalist#1 4',
			'420074c7-0964-409e-9bdf-00ea0e982b2a#2 2',
		]);
		// Given together on the command line (a shell's glob), the same; and the reference way of reading, the same.
		const together = perscope(
			['--summary', '--json', chatFile, join(home, 'chats', '420074c7-0964-409e-9bdf-00ea0e982b2a', '44089d6d-a69d-4626-aed7-e972a4e07c4d.jsonl')],
			home,
		);
		expect(together.stdout).toBe(perscope(['--summary', '--json', chatFile], home).stdout);
		const plain = spawnSync(process.execPath, [cliPath, '--summary', '--json', chatFile], {
			cwd: repoRoot,
			encoding: 'utf8',
			env: {...process.env, CI: 'true', PERSCOPE_FAST: '0'},
		});
		expect(plain.stdout).toBe(together.stdout);
	});

	it('gives each run, with its sub-agent’s, the usage the session’s stream counts for it', () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/stream-with-chats/tmp/tmp-7jg85xlsvx/chats'), join(home, 'chats'));
		const chatFile = join(home, 'chats', 'session-2026-11-29T21-44-87be16a9.jsonl');
		type Runs = {jobs: Array<{runs: Array<{runId: string; usage: {inputTokens: number; outputTokens: number}}>}>};
		const byRun = (read: Runs) => {
			const usage = new Map<string, [number, number]>();
			// A sub-agent's usage is its parent run's in the stream's `result.stats`.
			for (const run of read.jobs[0]!.runs) {
				const root = run.runId.split('/')[0]!;
				const [input, output] = usage.get(root) ?? [0, 0];
				usage.set(root, [input + run.usage.inputTokens, output + run.usage.outputTokens]);
			}

			return Object.fromEntries(usage);
		};
		const fromChats = byRun(JSON.parse(perscope(['--summary', '--json', chatFile], home).stdout) as Runs);
		const fromStream = byRun(JSON.parse(perscope(['--summary', '--json', join(repoRoot, 'fixtures/gemini/stream-with-chats.jsonl')], home).stdout) as Runs);
		expect(fromChats).toEqual({[session]: [8100, 360], [`${session}#2`]: [1800, 80]});
		expect(fromChats).toEqual(fromStream);
	});
});

describe('a Gemini CLI chat, what the review found', () => {
	const interactiveChat = join(repoRoot, 'fixtures/gemini/interactive-chat/chats/session-2026-11-30T01-37-420074c7.ndjson');
	const lines = (path: string) =>
		readFileSync(path, 'utf8')
			.split('\n')
			.filter(line => line !== '');

	it('regression: a line shaped like a chat’s header took every line after it in its source, which then showed nothing', () => {
		const stream = lines(join(repoRoot, 'fixtures/gemini/stream-with-chats.jsonl'));
		const file = join(scratch(), 'stream.jsonl');
		writeFileSync(file, `${[...stream.slice(0, 10), lines(interactiveChat)[0], ...stream.slice(10)].join('\n')}\n`);
		const summary = perscope(['--summary', file], scratch());
		expect(summary.stdout.split('\n')[0]).toBe(`job ${session}  ✓ completed  7 steps  9900 in / 440 out tokens  $0.01  2.9s`);
	});

	it('a followed chat leaves its last run going while it is followed; stopped with Ctrl-C, its last response is its answer', async () => {
		const file = join(scratch(), 'session-2026-11-30T01-37-420074c7.jsonl');
		// The first run, whole, up to its answer (line 25) and the `$set` after it: a session waiting for the next prompt.
		writeFileSync(file, `${lines(interactiveChat).slice(0, 26).join('\n')}\n`);
		const run = startCli(['--print', '-f', file]);
		try {
			await waitUntil(() => run.stdout().includes('← generalist:'), 'the delegation’s answer', run.stdout);
			// Followed, the answer may still be written again with calls: nothing says the run is over.
			await new Promise(resolve => setTimeout(resolve, 300));
			expect(run.stdout()).not.toContain('run completed · 5 steps');
			run.child.kill('SIGINT');
			await run.exit;
			expect(run.stdout()).toContain('[gemini] ✅ complete Fixed greet.txt: it now says Hello, world.');
			expect(run.stdout()).toMatch(/── job 420074c7-0964-409e-9bdf-00ea0e982b2a ✓ completed · 5 steps · 4500 in \/ 200 out tokens/);
		} finally {
			run.child.kill('SIGKILL');
		}
	});

	it('regression: a sub-agent’s chat written whole before the call that started it (a followed session’s) lost its steps', async () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/interactive-chat/chats'), join(home, 'chats'));
		const file = join(home, 'chats', 'session-2026-11-30T01-37-420074c7.jsonl');
		const subAgent = join(home, 'chats', '420074c7-0964-409e-9bdf-00ea0e982b2a', '44089d6d-a69d-4626-aed7-e972a4e07c4d.jsonl');
		const main = lines(file);
		const sub = lines(subAgent);
		// As Gemini CLI writes them: the session up to the response that calls the sub-agent, the sub-agent's chat, then the rest.
		writeFileSync(file, `${main.slice(0, 20).join('\n')}\n`);
		rmSync(subAgent);
		const run = startCli(['--print', '-f', file]);
		try {
			await waitUntil(() => run.stdout().includes('run_shell_command'), 'the session so far', run.stdout);
			writeFileSync(subAgent, `${sub.join('\n')}\n`);
			await new Promise(resolve => setTimeout(resolve, 1500));
			appendFileSync(file, `${main.slice(20).join('\n')}\n`);
			// Followed, the second run's answer waits for what follows it; its call is out.
			await waitUntil(() => run.stdout().includes('🔧 write_file farewell.txt'), 'the second run', run.stdout);
			expect(run.stdout()).toContain('  [generalist] 🔧 list_directory .\n');
			expect(run.stdout()).toContain('  [generalist] ✓ run completed · 4 steps\n[gemini] ← generalist:');
			run.child.kill('SIGINT');
			await run.exit;
			expect(run.stdout()).toMatch(/── job 420074c7-0964-409e-9bdf-00ea0e982b2a ✓ completed · 11 steps · 9900 in \/ 440 out tokens/);
		} finally {
			run.child.kill('SIGKILL');
		}
	});

	it('regression: a sub-agent’s chat that could not be read was left out without a word: it is a diagnostic naming it', () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/interactive-chat/chats'), join(home, 'chats'));
		openToEveryone([home], join(home, 'chats'));
		const subAgent = join(home, 'chats', '420074c7-0964-409e-9bdf-00ea0e982b2a', '44089d6d-a69d-4626-aed7-e972a4e07c4d.jsonl');
		chmodSync(subAgent, 0o000);
		const result = perscopeUnprivileged(['--summary', join(home, 'chats', 'session-2026-11-30T01-37-420074c7.jsonl')]);
		expect(result.status).toBe(0);
		// The session is read as without it (its own 35 lines), and the file it could not read is named.
		expect(result.stdout).toMatch(/ 7 steps {2}6300 in \/ 280 out tokens/);
		expect(result.stderr).toContain(`perscope: ${subAgent}: permission denied`);
	});

	it('regression: a turn the next prompt came to with no answer (cancelled) stayed running, and its job failed', () => {
		const error = lines(join(repoRoot, 'fixtures/gemini/interactive-error/chats/session-2026-11-30T01-42-4213b797.ndjson'));
		const chat = lines(interactiveChat);
		// The first prompt, the CLI's notice (a real `info` record), then the second prompt and its answer.
		const file = join(scratch(), 'cancelled.jsonl');
		writeFileSync(file, `${[...chat.slice(0, 4), error[7], ...chat.slice(26)].join('\n')}\n`);
		const summary = perscope(['--summary', file], scratch());
		const rows = summary.stdout.split('\n');
		expect(rows[0]).toMatch(/^job 420074c7-0964-409e-9bdf-00ea0e982b2a {2}✓ completed {2}2 steps/);
		expect(rows[2]).toMatch(/^ {2}gemini {2}✗ stoppedByError +0 .* This request failed\. Press F12 for diagnostics/);
		expect(rows[3]).toMatch(/^ {2}gemini {2}✓ completed +2 /);
	});

	it('regression: a response’s tool-use prompt tokens were counted as thinking (billed as output): they are input', () => {
		const chat = lines(interactiveChat);
		// The second run's answer, its tokens as the API may give them with a tool's prompt in them.
		const file = join(scratch(), 'tool-tokens.jsonl');
		const withTool = chat.map(line =>
			line.includes('"Added farewell.txt."')
				? line.replace(/"tokens":\{[^}]*\}/, '"tokens":{"input":1000,"output":50,"cached":0,"thoughts":20,"tool":5000,"total":6070}')
				: line,
		);
		writeFileSync(file, `${withTool.join('\n')}\n`);
		const read = JSON.parse(perscope(['--summary', '--json', file], scratch()).stdout) as {jobs: Array<{runs: Array<{runId: string; usage: object}>}>};
		// The run's first step as recorded (900 in, 300 cached, 40 out, 10 thinking), then this one.
		expect(read.jobs[0]!.runs.find(run => run.runId.endsWith('#2'))!.usage).toEqual({
			inputTokens: 900 + 6000,
			outputTokens: 40 + 50,
			reasoningTokens: 10 + 20,
			totalTokens: 950 + 6070,
			cachedInputTokens: 300,
		});
	});
});
