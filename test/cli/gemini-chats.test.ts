import {spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {appendFileSync, chmodSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath, repoRoot, startCli, waitUntil} from '../helpers/cli-process.js';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
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

/** perscope ARGS with $GEMINI_CLI_HOME at `home`, run in this process (test/helpers/cli-in-process.ts). */
async function perscope(args: string[], home: string) {
	return perscopeInProcess(args, undefined, {GEMINI_CLI_HOME: home});
}

describe('a Gemini CLI stream’s conversation', () => {
	it('is read from the chat Gemini CLI keeps of the session under $GEMINI_CLI_HOME/.gemini, run by run, step by step', async () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/stream-with-chats'), join(home, '.gemini'));
		const second = await perscope(['--conversation', `${session}@2`, stream], home);
		expect(second.code, second.stderr).toBe(0);
		const lines = second.stdout.split('\n');
		expect(lines[0]).toBe(`  conversation of run ${session} (gemini) at step 2`);
		expect(lines[1]).toMatch(/^ {2}from line 10 \(the session's chat, .*\/chats\/session-2026-11-29T21-44-87be16a9\.jsonl\)$/);
		expect(lines[2]).toBe('  tokens this step: 900 input · 40 output · 10 reasoning · 300 cached input');
		expect(second.stdout).toContain('    Fix the greeting in greet.txt, then have a helper check the workspace.');
		expect(second.stdout).toContain('+   call replace · replace__replace_1795988673896_0');

		// The resumed run (the second `gemini -p`): its prompt is new at its first step.
		const resumed = await perscope(['--conversation', `${session}#2@1`, stream], home);
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.stdout).toContain('+   Now add a farewell file.');
		expect(resumed.stdout).toContain('+   call write_file · write_file__write_file_1795988676546_0');
	});

	it('says where it looked, exit 1, when the chat is not there', async () => {
		const missing = await perscope(['--conversation', `${session}@2`, stream], scratch());
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
	it('regression: printed 18 bad lines and unknown main, user and gemini events: the session’s runs, steps and tokens, in every mode', async () => {
		const summary = await perscope(['--summary', chat], scratch());
		expect(summary.code, summary.stderr).toBe(0);
		expect(summary.stderr).toBe('');
		// Five responses of 900 input and 40 output tokens (300 cached, 10 of thinking) in the first run, two in the second.
		// The sub-agent never finished its task: the CLI says so in the call's `resultDisplay` (its stream does not).
		expect(summary.stdout.split('\n').map(line => line.trimEnd())).toEqual([
			`job ${session}  ✓ completed  7 steps  6300 in / 280 out tokens  $0.0090  2.9s`,
			'  EXPERT        STATUS            STEPS    IN  OUT     COST  DURATION  ERROR',
			'  gemini        ✓ completed           5  4500  200  $0.0064     339ms',
			"    generalist  ✗ stoppedByError      0     0    0       $0      93ms  ERROR_NO_COMPLETE_TASK_CALL: Agent stopped calling tools but did not call 'complete_task'.",
			'  gemini        ✓ completed           2  1800   80  $0.0026     127ms',
			'',
			'39 events',
			'',
		]);

		const print = await perscope(['--print', chat], scratch());
		expect(print.code, print.stderr).toBe(0);
		expect(print.stdout).toContain('[gemini] 🔧 read_file notes.txt ✗ File not found: /home/user/ws/stream-with-chats/notes.txt\n');
		expect(print.stdout).toContain('[gemini] → delegate generalist: List the files in the workspace and say which ones hold a greeting.\n');
		expect(print.stdout).toContain('[gemini] ✅ complete Added farewell.txt.\n[gemini] ✓ run completed · 2 steps\n');

		const json = await perscope(['--summary', '--json', chat], scratch());
		const read = JSON.parse(json.stdout) as {
			events: number;
			diagnosticCount: number;
			unknownEvents: object;
			jobs: Array<{runs: Array<{runId: string; steps: number}>}>;
		};
		expect(read).toMatchObject({events: 39, diagnosticCount: 0, unknownEvents: {}});
		expect(read.jobs[0]!.runs.map(run => `${run.runId} ${run.steps}`)).toEqual([`${session} 5`, `${session}/generalist#1 0`, `${session}#2 2`]);
	});

	it('--conversation reads a step from the chat itself, given as a file or through a pipe', async () => {
		const fromFile = await perscope(['--conversation', `${session}@2`, chat], scratch());
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

	it('reads the same from a pipe, and the reference way (PERSCOPE_FAST=0)', async () => {
		const file = await perscope(['--summary', '--json', chat], scratch());
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

	it('lists the sessions, newest first, from ~/.gemini, its tmp, a project’s folder or its chats; a sub-agent’s chat is not a session', async () => {
		const home = geminiHome();
		const all = await perscope(['--print', join(home, '.gemini', 'tmp')], home);
		expect(all.code, all.stderr).toBe(0);
		expect(all.stdout.split('\n')).toEqual([
			expect.stringMatching(/^JOB +EXPERT +STATUS +STEPS +RUNS +STARTED +PROJECT +QUERY$/),
			// Each read with its sub-agent's chat: the main loop's 7 steps and the sub-agent's 4.
			expect.stringMatching(new RegExp(`^${interactive} +gemini +✓ completed +11 +3 +2026-11-30 01:37:58 +interactive-chat +Fix the greeting`)),
			expect.stringMatching(new RegExp(`^${session} +gemini +✓ completed +11 +3 +2026-11-29 21:44:33 +stream-with-chats +Fix the greeting`)),
			'',
		]);
		expect((await perscope(['--print', join(home, '.gemini')], home)).stdout).toBe(all.stdout);
		const project = await perscope(['--print', join(home, '.gemini', 'tmp', 'interactive-chat')], home);
		expect(project.stdout.split('\n').slice(1)).toEqual([
			expect.stringMatching(new RegExp(`^${interactive} +gemini +✓ completed +11 +3 .* Fix the greeting`)),
			'',
		]);
		expect((await perscope(['--print', join(home, '.gemini', 'tmp', 'interactive-chat', 'chats')], home)).stdout).toBe(project.stdout);
		const summary = await perscope(['--summary', join(home, '.gemini', 'tmp')], home);
		expect(summary.stdout.match(/^job \S+ .*$/gm)).toEqual([
			`job ${session}  ✓ completed  11 steps  9900 in / 440 out tokens  $0.01  2.9s`,
			`job ${interactive}  ✓ completed  11 steps  9900 in / 440 out tokens  $0.01  3.6s`,
		]);
	});

	it('--gemini lists the sessions that ran in this directory (told by the hash of its path in each chat’s header), and says so when there are none', async () => {
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
		const withFiles = await perscope(['--gemini', chat], home);
		expect(withFiles.code).toBe(2);
		expect(withFiles.stderr).toMatch(/--gemini opens the Gemini CLI sessions of this directory; it cannot be combined with files/);
	});
});

/*
 * Gemini CLI before 0.40 kept a session's chat as one JSON document, written again whole as it grew
 * (`session-<time>-<id>.json`), and ran a sub-agent as a tool named after it. fixtures/gemini/chat-document/ is an
 * interactive session of two prompts recorded with 0.36.0, whose `/quit` printed 9 requests, 5,400 input tokens and
 * 2,700 cache reads, 360 output: of those, the sub-agent's 2 requests (1,800 input, 80 output) are in no chat.
 */
describe('a chat Gemini CLI kept as one JSON document (0.36.0)', () => {
	const document = join(repoRoot, 'fixtures/gemini/chat-document/chats/session-2026-11-30T03-22-5cb65d08.json');
	const oldSession = '5cb65d08-9708-44fa-a074-b37d5efce019';

	it('regression: read as one event with nothing in it: the session’s runs, steps, tokens and sub-agent, in every mode', async () => {
		const summary = await perscope(['--summary', document], scratch());
		expect(summary.code, summary.stderr).toBe(0);
		expect(summary.stderr).toBe('');
		// Five responses of 900 input and 40 output tokens (300 cached, 10 of thinking) for the first prompt, two for the second.
		expect(summary.stdout.split('\n').map(line => line.trimEnd())).toEqual([
			`job ${oldSession}  ✓ completed  7 steps  6300 in / 280 out tokens  $0.0090  4.2s`,
			'  EXPERT        STATUS       STEPS    IN  OUT     COST  DURATION  ERROR',
			'  gemini        ✓ completed      5  4500  200  $0.0064      1.0s',
			'    generalist  ✓ completed      0     0    0       $0     157ms',
			'  gemini        ✓ completed      2  1800   80  $0.0026     174ms',
			'',
			'1 event',
			'',
		]);

		const print = await perscope(['--print', document], scratch());
		expect(print.code, print.stderr).toBe(0);
		// The `generalist` tool ran the sub-agent (the chat shows its progress): a delegation, asked its `request`.
		expect(print.stdout).toContain(
			[
				'[gemini] → delegate generalist: List the files in the workspace and say which ones hold a greeting.',
				'  [generalist] 💬 query List the files in the workspace and say which ones hold a greeting.',
				'  [generalist] ✅ complete Subagent \'generalist\' finished. ↵ Termination Reason: GOAL ↵ Result: ↵ { ↵ "response": "Only greet.txt holds a greeting." ↵ }',
				'  [generalist] ✓ run completed · 0 steps',
				'',
			].join('\n'),
		);
		expect(print.stdout).toContain('[gemini] ✅ complete Added farewell.txt.\n[gemini] ✓ run completed · 2 steps\n');

		const json = JSON.parse((await perscope(['--summary', '--json', document], scratch())).stdout) as {
			events: number;
			diagnosticCount: number;
			unknownEvents: object;
			jobs: Array<{runs: Array<{runId: string; steps: number}>}>;
		};
		expect(json).toMatchObject({events: 1, diagnosticCount: 0, unknownEvents: {}});
		expect(json.jobs[0]!.runs.map(run => `${run.runId} ${run.steps}`)).toEqual([`${oldSession} 5`, `${oldSession}/generalist#1 0`, `${oldSession}#2 2`]);
	});

	it('the first prompt of a session failed with the error the CLI showed, the same prompt again answered', async () => {
		const failed = await perscope(['--summary', join(repoRoot, 'fixtures/gemini/chat-document-error/chats/session-2026-11-30T03-22-27fef613.json')], scratch());
		expect(failed.code, failed.stderr).toBe(0);
		expect(
			failed.stdout
				.split('\n')
				.slice(1, 4)
				.map(line => line.trimEnd()),
		).toEqual([
			'  EXPERT  STATUS            STEPS    IN  OUT     COST  DURATION  ERROR',
			'  gemini  ✗ stoppedByError      0     0    0       $0      83ms  error: [API Error: {"error":{"code":400,"message":"scripted failure 400","status":"UNAVAILABLE"}}]',
			'  gemini  ✓ completed           2  1800   80  $0.0026     165ms',
		]);
	});

	it('--conversation reads a step from the document itself, the same from a file or a pipe', async () => {
		const fromFile = await perscope(['--conversation', `${oldSession}@2`, document], scratch());
		expect(fromFile.code, fromFile.stderr).toBe(0);
		const lines = fromFile.stdout.split('\n');
		expect(lines[0]).toBe(`  conversation of run ${oldSession} (gemini) at step 2`);
		expect(lines[2]).toBe('  tokens this step: 900 input · 40 output · 10 reasoning · 300 cached input');
		// The document keeps a call's result in the call: given as the model was given it, after the response.
		expect(fromFile.stdout).toContain('  #3 tool\n    result of read_file · read_file_1796008950891_0\n      Helo, world\n');
		expect(fromFile.stdout).toContain('+   call replace · replace_1796008951040_0');

		const second = await perscope(['--conversation', `${oldSession}#2@1`, document], scratch());
		expect(second.code, second.stderr).toBe(0);
		expect(second.stdout).toContain('+   Now add a farewell file.');
		expect(second.stdout).toContain('+   call write_file · write_file_1796008954883_0');
		const piped = spawnSync(process.execPath, [cliPath, '--conversation', `${oldSession}#2@1`], {
			cwd: repoRoot,
			encoding: 'utf8',
			input: readFileSync(document),
			env: {...process.env, CI: 'true', GEMINI_CLI_HOME: scratch()},
		});
		expect(piped.status, piped.stderr).toBe(0);
		expect(piped.stdout).toBe(second.stdout);
	});

	it('regression: through a pipe after another session’s document, the conversation read the first document (another session’s), and one with a byte order mark none', async () => {
		const other = join(repoRoot, 'fixtures/gemini/chat-document-error/chats/session-2026-11-30T03-22-27fef613.json');
		const piped = (input: Buffer, run: string) =>
			spawnSync(process.execPath, [cliPath, '--conversation', run], {
				cwd: repoRoot,
				encoding: 'utf8',
				input,
				env: {...process.env, CI: 'true', GEMINI_CLI_HOME: scratch()},
			});
		const second = piped(Buffer.concat([readFileSync(document), readFileSync(other)]), '27fef613-9526-4c92-803c-b47df5b3a400#2@1');
		expect(second.status, second.stderr).toBe(0);
		expect(second.stdout).toContain('+   Now add a farewell file.');
		expect(second.stdout).not.toContain('Fix the greeting');
		const marked = piped(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(document)]), `${oldSession}@1`);
		expect(marked.status, marked.stderr).toBe(0);
		expect(marked.stdout).toContain('+   call read_file · read_file_1796008950891_0');
	});

	it('regression: followed before it existed, it was read as lines appended (348 bad lines): what it turns out to be decides', async () => {
		const whole = JSON.parse(readFileSync(document, 'utf8')) as {messages: unknown[]};
		const file = join(scratch(), 'session-2026-11-30T03-22-5cb65d08.json');
		const run = startCli(['--print', '-f', file]);
		try {
			await waitUntil(() => run.stderr().includes('does not exist yet'), 'waiting for the file', run.stderr);
			// First a writer's first bytes only, too few to say what the file is (a review's case): they wait for more.
			writeFileSync(file, readFileSync(document).subarray(0, 60));
			await new Promise(resolve => setTimeout(resolve, 700));
			writeFileSync(file, JSON.stringify({...whole, messages: whole.messages.slice(0, 1)}, null, 2));
			await waitUntil(() => run.stdout().includes('💬 query Fix the greeting'), 'the first version', run.stdout);
			writeFileSync(file, readFileSync(document));
			await waitUntil(() => run.stdout().includes('🔧 write_file farewell.txt'), 'the last version', run.stdout);
			run.child.kill('SIGINT');
			await run.exit;
			expect(run.stderr()).not.toContain('not JSON');
			expect(run.stdout()).toBe((await perscope(['--print', document], scratch())).stdout);
		} finally {
			run.child.kill('SIGKILL');
		}
	});

	it('a file of several documents one after the other (`cat` of chats): each step’s conversation from its own session’s', async () => {
		const other = join(repoRoot, 'fixtures/gemini/chat-document-error/chats/session-2026-11-30T03-22-27fef613.json');
		const file = join(scratch(), 'all.json');
		writeFileSync(file, Buffer.concat([readFileSync(document), Buffer.from('\n'), readFileSync(other)]));
		const first = await perscope(['--conversation', `${oldSession}#2@1`, file], scratch());
		expect(first.code, first.stderr).toBe(0);
		expect(first.stdout).toContain('+   call write_file · write_file_1796008954883_0');
		const second = await perscope(['--conversation', '27fef613-9526-4c92-803c-b47df5b3a400#2@1', file], scratch());
		expect(second.code, second.stderr).toBe(0);
		expect(second.stdout).toContain('+   Now add a farewell file.');
		expect(second.stdout).not.toContain('Fix the greeting');
	});

	it('a 0.36.0 stream: its `generalist` tool a delegation; its steps’ conversations from the session’s .json chat', async () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/stream-with-chat-document'), join(home, '.gemini'));
		const oldStream = join(repoRoot, 'fixtures/gemini/stream-with-chat-document.jsonl');
		const streamSession = '053eb82e-ecf1-40d5-8099-22f02586c7f4';
		const second = await perscope(['--conversation', `${streamSession}@2`, oldStream], home);
		expect(second.code, second.stderr).toBe(0);
		expect(second.stdout.split('\n')[1]).toMatch(/^ {2}from line 10 \(the session's chat, .*\/chats\/session-2026-11-30T03-22-053eb82e\.json\)$/);
		expect(second.stdout).toContain('+   call replace · replace_1796008968789_0');
		// The resumed run (the second `gemini -p`) is the chat's second prompt.
		const resumed = await perscope(['--conversation', `${streamSession}#2@1`, oldStream], home);
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.stdout).toContain('+   Now add a farewell file.');
		expect(resumed.stdout).toContain('+   call write_file · write_file_1796008971196_0');
		const summary = await perscope(['--summary', '--json', oldStream], home);
		expect(JSON.parse(summary.stdout).jobs[0].runs.map((run: {runId: string; steps: number}) => `${run.runId} ${run.steps}`)).toEqual(
			[streamSession, `${streamSession}/generalist#1`, `${streamSession}#2`].map((runId, index) => `${runId} ${[5, 0, 2][index]}`),
		);
	});

	it('regression: followed, each time Gemini CLI wrote it again read what it wrote as lines appended (79 bad lines): each version adds what is new', async () => {
		const whole = JSON.parse(readFileSync(document, 'utf8')) as {messages: unknown[]};
		// As the CLI writes it: the whole document again at each message (the file truncated, then written).
		const version = (messages: number) => `${JSON.stringify({...whole, messages: whole.messages.slice(0, messages)}, null, 2)}`;
		const file = join(scratch(), 'session-2026-11-30T03-22-5cb65d08.json');
		writeFileSync(file, version(3));
		const run = startCli(['--print', '-f', file]);
		try {
			await waitUntil(() => run.stdout().includes('🔧 read_file notes.txt'), 'the first version', run.stdout);
			writeFileSync(file, version(7));
			await waitUntil(() => run.stdout().includes('💬 query Now add a farewell file.'), 'the second prompt', run.stdout);
			writeFileSync(file, version(whole.messages.length));
			await waitUntil(() => run.stdout().includes('🔧 write_file farewell.txt'), 'the second run’s call', run.stdout);
			run.child.kill('SIGINT');
			await run.exit;
			expect(run.stderr()).toBe('');
			// Read as the last version is read at once.
			expect(run.stdout()).toBe((await perscope(['--print', document], scratch())).stdout);
		} finally {
			run.child.kill('SIGKILL');
		}
	});

	it('followed, a version that stays cut short (not the writer’s moment between two writes) is reported as a bad line, once', async () => {
		const file = join(scratch(), 'session-2026-11-30T03-22-5cb65d08.json');
		writeFileSync(file, readFileSync(document, 'utf8').slice(0, 2000));
		const run = startCli(['--print', '-f', file]);
		try {
			await waitUntil(() => run.stderr().includes('not JSON'), 'the bad line', run.stderr);
			await new Promise(resolve => setTimeout(resolve, 800));
			run.child.kill('SIGINT');
			await run.exit;
			expect(run.stderr().match(/not JSON/g)).toHaveLength(1);
		} finally {
			run.child.kill('SIGKILL');
		}
	});

	it('followed, a FIFO put in its place is reported, not waited on', async () => {
		const file = join(scratch(), 'session-2026-11-30T03-22-5cb65d08.json');
		writeFileSync(file, readFileSync(document));
		const run = startCli(['--print', '-f', file]);
		try {
			await waitUntil(() => run.stdout().includes('🔧 write_file farewell.txt'), 'the chat', run.stdout);
			rmSync(file);
			spawnSync('mkfifo', [file]);
			// Its one source read no further: it ends, saying why.
			expect((await run.exit).code).toBe(1);
			expect(run.stderr()).toContain('it is a FIFO, not a regular file');
		} finally {
			run.child.kill('SIGKILL');
		}
	});

	it('listed with the chats of lines, newest first, each summarised', async () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/chat-document'), join(home, '.gemini', 'tmp', 'before-0.40'));
		copyAsWritten(join(repoRoot, 'fixtures/gemini/interactive-chat'), join(home, '.gemini', 'tmp', 'interactive-chat'));
		const listed = await perscope(['--print', join(home, '.gemini')], home);
		expect(listed.code, listed.stderr).toBe(0);
		expect(listed.stdout.split('\n').slice(1)).toEqual([
			expect.stringMatching(new RegExp(`^${oldSession} +gemini +✓ completed +7 +3 +2026-11-30 03:22:30 +before-0\\.40 +Fix the greeting`)),
			expect.stringMatching(/^420074c7-0964-409e-9bdf-00ea0e982b2a +gemini +✓ completed +11 +3 +2026-11-30 01:37:58 +interactive-chat +Fix the greeting/),
			'',
		]);
	});
});

describe('a Gemini CLI chat with its sub-agents’ chats beside it', () => {
	it('reads them together, in the order their lines were written: each sub-agent’s steps under its delegation, with the figures the CLI gave', async () => {
		const home = scratch();
		copyAsWritten(join(repoRoot, 'fixtures/gemini/interactive-chat/chats'), join(home, 'chats'));
		const chatFile = join(home, 'chats', 'session-2026-11-30T01-37-420074c7.jsonl');
		const print = await perscope(['--print', chatFile], home);
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
		// Its last response was no answer: the CLI ended it for never calling `complete_task` as asked.
		expect(print.stdout).toContain(
			[
				"  [generalist] ❌ error ERROR_NO_COMPLETE_TASK_CALL: Agent stopped calling tools but did not call 'complete_task'.",
				"  [generalist] ✗ run failed: ERROR_NO_COMPLETE_TASK_CALL: Agent stopped calling tools but did not call 'complete_task'.",
				"[gemini] ← generalist: Subagent 'generalist' finished. …",
				'',
			].join('\n'),
		);
		expect(print.stdout).not.toContain('[generalist] ✅ complete');
		// `/quit` printed 11 requests, 9,900 input tokens (3,300 cache reads) and 440 output for the session, sub-agent included.
		const json = JSON.parse((await perscope(['--summary', '--json', chatFile], home)).stdout) as {
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
		const together = await perscope(
			['--summary', '--json', chatFile, join(home, 'chats', '420074c7-0964-409e-9bdf-00ea0e982b2a', '44089d6d-a69d-4626-aed7-e972a4e07c4d.jsonl')],
			home,
		);
		expect(together.stdout).toBe((await perscope(['--summary', '--json', chatFile], home)).stdout);
		const plain = spawnSync(process.execPath, [cliPath, '--summary', '--json', chatFile], {
			cwd: repoRoot,
			encoding: 'utf8',
			env: {...process.env, CI: 'true', PERSCOPE_FAST: '0'},
		});
		expect(plain.stdout).toBe(together.stdout);
	});

	it('gives each run, with its sub-agent’s, the usage the session’s stream counts for it', async () => {
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
		const fromChats = byRun(JSON.parse((await perscope(['--summary', '--json', chatFile], home)).stdout) as Runs);
		const fromStream = byRun(
			JSON.parse((await perscope(['--summary', '--json', join(repoRoot, 'fixtures/gemini/stream-with-chats.jsonl')], home)).stdout) as Runs,
		);
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

	it('regression: a line shaped like a chat’s header took every line after it in its source, which then showed nothing', async () => {
		const stream = lines(join(repoRoot, 'fixtures/gemini/stream-with-chats.jsonl'));
		const file = join(scratch(), 'stream.jsonl');
		writeFileSync(file, `${[...stream.slice(0, 10), lines(interactiveChat)[0], ...stream.slice(10)].join('\n')}\n`);
		const summary = await perscope(['--summary', file], scratch());
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
			expect(run.stdout()).toContain(
				"  [generalist] ✗ run failed: ERROR_NO_COMPLETE_TASK_CALL: Agent stopped calling tools but did not call 'complete_task'.\n[gemini] ← generalist:",
			);
			run.child.kill('SIGINT');
			await run.exit;
			expect(run.stdout()).toMatch(/── job 420074c7-0964-409e-9bdf-00ea0e982b2a ✓ completed · 11 steps · 9900 in \/ 440 out tokens/);
		} finally {
			run.child.kill('SIGKILL');
		}
	});

	it('regression: a sub-agent’s chat that could not be read was left out without a word: it is a diagnostic naming it', async () => {
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

	it('regression: a turn the next prompt came to with no answer (cancelled) stayed running, and its job failed', async () => {
		const error = lines(join(repoRoot, 'fixtures/gemini/interactive-error/chats/session-2026-11-30T01-42-4213b797.ndjson'));
		const chat = lines(interactiveChat);
		// The first prompt, the CLI's notice (a real `info` record), then the second prompt and its answer.
		const file = join(scratch(), 'cancelled.jsonl');
		writeFileSync(file, `${[...chat.slice(0, 4), error[7], ...chat.slice(26)].join('\n')}\n`);
		const summary = await perscope(['--summary', file], scratch());
		const rows = summary.stdout.split('\n');
		expect(rows[0]).toMatch(/^job 420074c7-0964-409e-9bdf-00ea0e982b2a {2}✓ completed {2}2 steps/);
		expect(rows[2]).toMatch(/^ {2}gemini {2}✗ stoppedByError +0 .* This request failed\. Press F12 for diagnostics/);
		expect(rows[3]).toMatch(/^ {2}gemini {2}✓ completed +2 /);
	});

	it('regression: a response’s tool-use prompt tokens were counted as thinking (billed as output): they are input', async () => {
		const chat = lines(interactiveChat);
		// The second run's answer, its tokens as the API may give them with a tool's prompt in them.
		const file = join(scratch(), 'tool-tokens.jsonl');
		const withTool = chat.map(line =>
			line.includes('"Added farewell.txt."')
				? line.replace(/"tokens":\{[^}]*\}/, '"tokens":{"input":1000,"output":50,"cached":0,"thoughts":20,"tool":5000,"total":6070}')
				: line,
		);
		writeFileSync(file, `${withTool.join('\n')}\n`);
		const read = JSON.parse((await perscope(['--summary', '--json', file], scratch())).stdout) as {jobs: Array<{runs: Array<{runId: string; usage: object}>}>};
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

describe('the notices Gemini CLI shows between turns (a slash command’s error)', () => {
	// Real recordings: `/memory add` and `/resume save` (`/chat save` in 0.36.0) typed before the first prompt. The
	// CLI writes what they showed (an `info`, an `error`; two `error`s in 0.36.0) to the chat; the model never sees them.
	const recorded = [
		{version: '0.61.0', file: 'fixtures/gemini/notice-before-prompt/chats/session-2026-11-30T06-03-5e01b5fa.ndjson', run: '5e01b5fa', errors: 1},
		{version: '0.36.0', file: 'fixtures/gemini/chat-document-notices/chats/session-2026-11-30T06-04-aa62ef1b.json', run: 'aa62ef1b', errors: 2},
	];

	for (const {version, file, errors} of recorded)
		it(`regression (${version}): made a run of their own, failed by the error, and the job failed, before the prompt’s run: they are the first activities of the prompt’s run, which completes`, async () => {
			const printed = await perscope(['--print', join(repoRoot, file)], scratch());
			expect(printed.code, printed.stderr).toBe(0);
			const shown = printed.stdout.split('\n').filter(line => line.startsWith('[gemini]'));
			expect(shown.slice(0, errors + 1)).toEqual([
				...(errors === 2 ? ['[gemini] ❌ error error: Usage: /memory add <text to remember>'] : []),
				'[gemini] ❌ error error: Missing tag. Usage: /resume save <tag>',
				'[gemini] 💬 query Now add a farewell file.',
			]);
			expect(shown.at(-1)).toBe('[gemini] ✓ run completed · 2 steps');
			const summary = JSON.parse((await perscope(['--summary', '--json', join(repoRoot, file)], scratch())).stdout) as {
				jobs: Array<{status: string; runs: Array<{status: string; error: string | null; startedAt: number; endedAt: number}>}>;
			};
			expect(summary.jobs).toHaveLength(1);
			expect(summary.jobs[0]!.status).toBe('completed');
			// One run, the prompt's, lasting as long as its turn (under a second), not from the first notice on.
			expect(summary.jobs[0]!.runs).toEqual([expect.objectContaining({status: 'completed', error: null})]);
			const [run] = summary.jobs[0]!.runs;
			expect(run!.endedAt - run!.startedAt).toBeLessThan(1000);
		});

	it('regression: the conversation listed them among the messages given to the model', async () => {
		for (const {file, run} of recorded) {
			// The run's first step: what the model was given as it began.
			const conversation = await perscope(['--conversation', `${run}@1`, join(repoRoot, file)], scratch());
			expect(conversation.code, conversation.stderr).toBe(0);
			expect(conversation.stdout).toMatch(/^\+ {3}Now add a farewell file\.$/m);
			expect(conversation.stdout).not.toContain('Missing tag');
			expect(conversation.stdout).not.toContain('/memory');
		}
	});

	const between = join(repoRoot, 'fixtures/gemini/notice-between-prompts/chats/session-2026-11-30T06-08-d5cd41e4.ndjson');

	/** Each activity as `run: type text` (the run's id after the session's), from `--json`. */
	async function activities(file: string): Promise<string[]> {
		const json = await perscope(['--json', file], scratch());
		return json.stdout
			.split('\n')
			.filter(line => line !== '')
			.map(line => JSON.parse(line) as {runId?: string; type?: string; text?: string; message?: string; toolName?: string})
			.filter(activity => activity.type !== undefined)
			.map(({runId = '', type, text, message, toolName}) => `${runId.replace(/^[^#/]*/, '') || '#1'}: ${type} ${toolName ?? text ?? message ?? ''}`.trimEnd());
	}

	type RunsOf = {jobs: Array<{jobId: string; status: string; runs: Array<{runId: string; status: string; error: string | null}>}>};
	const summaryOf = async (file: string) => JSON.parse((await perscope(['--summary', '--json', file], scratch())).stdout) as RunsOf;
	const betweenLines = () =>
		readFileSync(between, 'utf8')
			.split('\n')
			.filter(line => line !== '');

	it('regression: one shown after a run’s answer (a real recording) was that run’s error, shown before its answer: it is shown after it, failing nothing', async () => {
		expect(await activities(between)).toEqual([
			'#1: query Now add a farewell file.',
			'#1: generalTool write_file',
			'#1: complete Added farewell.txt.',
			'#1: error Missing tag. Usage: /resume save <tag>',
			'#2: query List the files in the workspace',
			'#2: generalTool list_directory',
			'#2: generalTool complete_task',
			'#2: complete Only greet.txt holds a greeting.',
		]);
		const summary = await summaryOf(between);
		expect(summary.jobs[0]!.runs.map(run => [run.status, run.error])).toEqual([
			['completed', null],
			['completed', null],
		]);
	});

	it('review: a process started again after it (a header, no prompt) made it a failed run of its own: it stays the run before’s', async () => {
		const recorded = betweenLines();
		const file = join(scratch(), 'resumed.jsonl');
		// The first run's answer and the notice (lines 1–12), then the header of a process of the same session.
		writeFileSync(file, `${[...recorded.slice(0, 12), recorded[0]].join('\n')}\n`);
		const summary = await summaryOf(file);
		expect(summary.jobs).toEqual([expect.objectContaining({status: 'completed', runs: [expect.objectContaining({status: 'completed', error: null})]})]);
		expect((await activities(file)).at(-1)).toBe('#1: error Missing tag. Usage: /resume save <tag>');
	});

	it('review: chats one after the other in one source: one after a session’s last answer stayed for the next session’s first run', async () => {
		const recorded = betweenLines();
		const other = readFileSync(join(repoRoot, 'fixtures/gemini/interactive-error/chats/session-2026-11-30T01-42-4213b797.ndjson'), 'utf8');
		const file = join(scratch(), 'both.jsonl');
		writeFileSync(file, `${recorded.slice(0, 12).join('\n')}\n${other}`);
		const json = await perscope(['--json', file], scratch());
		const notice = json.stdout.split('\n').find(line => line.includes('Missing tag'));
		expect(JSON.parse(notice!)).toMatchObject({runId: 'd5cd41e4-f6d6-4f51-807d-ff8ef21522c1', type: 'error'});
	});

	it('review: one shown while a response is written again with its calls is the turn’s, read as lines or as a document followed', async () => {
		const recorded = betweenLines();
		// Line 5 is the first run's response first written (no text, no calls): give it text, as one that may be the answer.
		const first = recorded[4]!.replace('"content":""', '"content":"Let me add it."');
		const withCalls = recorded[6]!.replace('"content":""', '"content":"Let me add it."');
		const warning = '{"id":"w1","timestamp":"2026-11-30T06:08:28.950Z","type":"warning","content":"Slow response."}';
		const file = join(scratch(), 'turn.jsonl');
		writeFileSync(file, `${[...recorded.slice(0, 4), first, warning, withCalls, ...recorded.slice(7, 12)].join('\n')}\n`);
		expect((await activities(file)).slice(0, 4)).toEqual([
			'#1: query Now add a farewell file.',
			'#1: generalTool write_file',
			'#1: error Slow response.',
			'#1: complete Added farewell.txt.',
		]);
	});

	it('review: the API’s error after a response that said something and called nothing is still the turn’s, failing it', async () => {
		const recorded = betweenLines();
		const answer = recorded[9]!;
		const apiError = '{"id":"e1","timestamp":"2026-11-30T06:08:29.500Z","type":"error","content":"[API Error: fetch failed]"}';
		const file = join(scratch(), 'api-error.jsonl');
		writeFileSync(file, `${[...recorded.slice(0, 10), apiError, ...recorded.slice(13)].join('\n')}\n`);
		expect(answer).toContain('Added farewell.txt.');
		const summary = await summaryOf(file);
		expect(summary.jobs[0]!.runs[0]).toMatchObject({error: 'error: [API Error: fetch failed]'});
	});

	it('review: a slash command’s error after a turn that failed did not leave its error: the turn keeps the API’s, the other is a warning', async () => {
		const failed = readFileSync(join(repoRoot, 'fixtures/gemini/interactive-error/chats/session-2026-11-30T01-42-4213b797.ndjson'), 'utf8')
			.split('\n')
			.filter(line => line !== '');
		const info = failed.findIndex(line => line.includes('"type":"info"'));
		const slash = '{"id":"s1","timestamp":"2026-11-30T01:42:40.000Z","type":"error","content":"Missing tag. Usage: /resume save <tag>"}';
		const file = join(scratch(), 'after-failure.jsonl');
		writeFileSync(file, `${[...failed.slice(0, info + 1), slash, ...failed.slice(info + 1)].join('\n')}\n`);
		const summary = await summaryOf(file);
		expect(summary.jobs[0]!.runs[0]!.error).toMatch(/^error: \[API Error/);
	});

	it('one shown after the last answer, with no prompt after it: the last run’s, after its answer, which it does not fail', async () => {
		const file = join(scratch(), 'notice-last.jsonl');
		const recordedLines = readFileSync(between, 'utf8').split('\n');
		// Up to the notice and its `$set`: the first run's answer, then `/resume save`'s error.
		expect(recordedLines[11]).toContain('"type":"error"');
		writeFileSync(file, `${recordedLines.slice(0, 13).join('\n')}\n`);
		const shown = (await perscope(['--print', file], scratch())).stdout.split('\n').filter(line => line.startsWith('[gemini]'));
		expect(shown.slice(-3)).toEqual([
			'[gemini] ✅ complete Added farewell.txt.',
			'[gemini] ✓ run completed · 2 steps',
			'[gemini] ❌ error error: Missing tag. Usage: /resume save <tag>',
		]);
		const summary = JSON.parse((await perscope(['--summary', '--json', file], scratch())).stdout) as {
			jobs: Array<{runs: Array<{status: string; error: string | null}>}>;
		};
		expect(summary.jobs[0]!.runs).toEqual([expect.objectContaining({status: 'completed', error: null})]);
	});

	it('a chat that ends with notices and no prompt: they make a run of their own, failed by its last error', async () => {
		const file = join(scratch(), 'notices-only.jsonl');
		const recordedLines = readFileSync(join(repoRoot, recorded[0]!.file), 'utf8').split('\n');
		writeFileSync(file, `${recordedLines.slice(0, 6).join('\n')}\n`);
		const summary = JSON.parse((await perscope(['--summary', '--json', file], scratch())).stdout) as {
			jobs: Array<{runs: Array<{status: string; error: string | null}>}>;
		};
		expect(summary.jobs[0]!.runs).toEqual([expect.objectContaining({status: 'stoppedByError', error: 'error: Missing tag. Usage: /resume save <tag>'})]);
	});
});
