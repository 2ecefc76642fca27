import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {copyAsWritten} from '../helpers/recorded-layout.js';
import {scratchDirectories} from '../helpers/scratch.js';

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

describe('a Gemini CLI chat given as the input', () => {
	const chat = join(repoRoot, 'fixtures/gemini/stream-with-chats/tmp/tmp-7jg85xlsvx/chats/session-2026-11-29T21-44-87be16a9.ndjson');
	const said =
		/perscope: \S+:1: a Gemini CLI chat \(the record it keeps of a session\), not an event stream: perscope does not read chats as input; give the session's `--output-format stream-json` output/;

	it('regression: printed 18 bad lines and unknown main, user and gemini events: says once what the file is and what to give, in every mode', () => {
		const summary = perscope(['--summary', chat], scratch());
		expect(summary.code).toBe(0);
		expect(summary.stdout.trim()).toBe('38 events, 1 bad line');
		expect(summary.stderr.trim().split('\n')).toHaveLength(1);
		expect(summary.stderr).toMatch(said);
		for (const mode of ['--print', '--json']) {
			const output = perscope([mode, chat], scratch());
			expect(output.code, mode).toBe(0);
			expect(output.stderr, mode).toMatch(said);
			expect(output.stdout, mode).not.toMatch(/unknown|"type":"gemini"/);
		}

		const json = perscope(['--summary', '--json', chat], scratch());
		expect(json.code).toBe(0);
		const read = JSON.parse(json.stdout) as {events: number; jobs: unknown[]; unknownEvents: object; diagnostics: Array<{line: number; reason: string}>};
		expect(read).toMatchObject({events: 38, jobs: [], unknownEvents: {}});
		expect(read.diagnostics).toHaveLength(1);
		expect(`perscope: chat:${read.diagnostics[0]!.line}: ${read.diagnostics[0]!.reason}`).toMatch(said);
	});

	it('says the same of the same bytes from a pipe', () => {
		const piped = spawnSync(process.execPath, [cliPath, '--summary'], {
			cwd: repoRoot,
			encoding: 'utf8',
			input: readFileSync(chat),
			env: {...process.env, CI: 'true'},
		});
		expect(piped.status).toBe(0);
		expect(piped.stdout.trim()).toBe('38 events, 1 bad line');
		expect(piped.stderr).toMatch(/perscope: stdin:1: a Gemini CLI chat/);
	});
});
