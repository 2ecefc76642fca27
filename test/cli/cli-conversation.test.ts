import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {describe, expect, it} from 'vitest';
import {conversationLines, conversationText} from '../../source/text/conversation.js';
import {cliPath, repoRoot} from '../helpers/cli-process.js';
import {perscopeInProcess} from '../helpers/cli-in-process.js';
import {fixturePath} from '../helpers/load.js';
import {describeUnsafe, unsafeForTerminal} from '../fuzz/invariants.js';
import {hostileConversationLines} from '../helpers/hostile-conversation.js';

/*
 * `perscope --conversation RUN[@STEP] FILE` against the real logs: what it prints is checked against the
 * step's raw messages found here by reading every line of the file (not through the model or its offsets).
 */

/** The CLI run in this process (test/helpers/cli-in-process.ts), `input` on its stdin. */
async function run(args: string[], input?: Buffer) {
	return perscopeInProcess(args, input && [input]);
}

/** The built CLI as a process: for the exit codes. */
function spawned(args: string[], input?: Buffer) {
	const result = spawnSync(process.execPath, [cliPath, ...args], {cwd: repoRoot, input, env: {...process.env, CI: 'true'}, maxBuffer: 64 * 1024 * 1024});
	return {code: result.status, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8')};
}

const stepEnds = new Set(['continueToNextStep', 'completeRun', 'stopRunByError', 'stopRunByDelegate', 'stopRunByInteractiveTool', 'stopRunByExceededMaxSteps']);

type RawEvent = {
	type: string;
	runId: string;
	expertKey: string;
	stepNumber: number;
	checkpoint?: {messages: Array<{id: string; contents: unknown[]}>};
	step?: {newMessages: unknown[]};
};

/** The step's line and its number, found by reading the whole file: its end, else its startGeneration. */
function rawStep(name: string, runId: string, step: number): {text: string; line: number; event: RawEvent} {
	let found: {text: string; line: number; event: RawEvent} | undefined;
	for (const [index, text] of readFileSync(fixturePath(name), 'utf8').split('\n').entries()) {
		if (text === '') continue;
		const event = JSON.parse(text) as RawEvent;
		if (event.runId !== runId || event.stepNumber !== step) continue;
		if (stepEnds.has(event.type) || (event.type === 'startGeneration' && !found)) found = {text, line: index + 1, event};
	}

	if (!found) throw new Error(`no line with the messages of ${runId} step ${step} in ${name}`);
	return found;
}

function expected(name: string, runId: string, step: number): string {
	const {text, line, event} = rawStep(name, runId, step);
	return conversationText(conversationLines(text, {runId, expertKey: event.expertKey, step, where: `line ${line}`}));
}

const tools = 'real/tools.ndjson';
const toolsRun = 'yx0qylj95kkijg52otg17vwe';

describe('perscope --conversation', () => {
	it('prints a real step’s conversation byte for byte as its raw messages give it', async () => {
		for (const step of [1, 3, 8]) {
			const result = await run(['--conversation', `${toolsRun}@${step}`, fixturePath(tools)]);
			expect(result.stderr).toBe('');
			expect(result.code).toBe(0);
			expect(result.stdout).toBe(expected(tools, toolsRun, step));
		}
	});

	it('prints the last step of every run of every real log as its raw messages give it', async () => {
		for (const name of ['simple', 'simple-text', 'delegate', 'error', 'interactive-1', 'interactive-2-continue'].map(base => `real/${base}.ndjson`)) {
			const runs = new Map<string, number>();
			for (const text of readFileSync(fixturePath(name), 'utf8').split('\n')) {
				if (text === '') continue;
				const event = JSON.parse(text) as RawEvent;
				if ((stepEnds.has(event.type) || event.type === 'startGeneration') && event.stepNumber > (runs.get(event.runId) ?? 0))
					runs.set(event.runId, event.stepNumber);
			}

			expect(runs.size).toBeGreaterThan(0);
			for (const [runId, step] of runs) {
				const result = await run(['--conversation', runId, fixturePath(name)]);
				expect(result.code, `${name} ${runId}: ${result.stderr}`).toBe(0);
				expect(result.stdout, `${name} ${runId}`).toBe(expected(name, runId, step));
			}
		}
	});

	it('shows every message of the checkpoint once, numbered, and marks exactly the step’s new ones', async () => {
		const {event} = rawStep(tools, toolsRun, 3);
		const output = (await run(['--conversation', `${toolsRun}@3`, fixturePath(tools)])).stdout.split('\n');
		const headers = output.filter(line => /^[+ ] #\d+ /.test(line));
		const messages = event.checkpoint!.messages;
		expect(headers.map(line => Number(/#(\d+)/.exec(line)![1]))).toEqual(messages.map((_, index) => index + 1));
		const added = event.step!.newMessages.length;
		expect(headers.map(line => line.startsWith('+'))).toEqual(messages.map((_, index) => index >= messages.length - added));
		// The tool result the model got at this step, as the runtime wrote it.
		expect(output).toContain('+     {"error":"Error","message":"File missing-file.txt does not exist."}');
		expect(output[0]).toBe(`  conversation of run ${toolsRun} (tools-expert) at step 3`);
	});

	it('takes a run id prefix and defaults to the run’s last step', async () => {
		const result = await run(['--conversation', 'yx0', fixturePath(tools)]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(expected(tools, toolsRun, 8));
		expect(result.stdout).toContain('tokens this step: 4434 input · 51 output · 0 reasoning · 0 cached input');
	});

	it('prints the same from a pipe (its recent lines are kept) and a .gz as from the file', async () => {
		const bytes = readFileSync(fixturePath('real/delegate.ndjson'));
		const fromFile = await run(['--conversation', 'mycc@3', fixturePath('real/delegate.ndjson')]);
		expect(fromFile.code).toBe(0);
		expect(fromFile.stdout).toBe(expected('real/delegate.ndjson', 'mycc7mg8nbsgxciteyvrtyci', 3));
		expect((await run(['--conversation', 'mycc@3'], bytes)).stdout).toBe(fromFile.stdout);
		expect((await run(['--conversation', 'mycc@3', '-'], bytes)).stdout).toBe(fromFile.stdout);
		const directory = mkdtempSync(join(tmpdir(), 'perscope-conversation-'));
		try {
			writeFileSync(join(directory, 'delegate.ndjson.gz'), gzipSync(bytes));
			expect((await run(['--conversation', 'mycc@3', join(directory, 'delegate.ndjson.gz')])).stdout).toBe(fromFile.stdout);
		} finally {
			rmSync(directory, {recursive: true, force: true});
		}
	});

	it('reads a job directory’s step from its own event file', async () => {
		const result = await run(['--conversation', 'phfj@6', fixturePath('jobs/perstack/jobs/xrg3kr5eyfy4evxm775cs81p')]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('+   The researcher reports the workspace contains a single file, README.txt, with one line of text. Task complete.');
		expect(result.stdout.split('\n')[1]).toBe("  from the step's event file in phfj4550f6ktpfohvq5u9cht (completeRun)");
	});

	it('says when a .gz’s line is no longer kept; a pipe’s is, in a temporary copy (it was let go as a .gz’s is)', async () => {
		const log = readFileSync(fixturePath(tools));
		const filler = Array.from({length: 36}, (_, index) => JSON.stringify({type: 'fillerForTheTest', id: `f${index}`, pad: 'x'.repeat(1024 * 1024)})).join('\n');
		const bytes = Buffer.concat([log, Buffer.from(filler + '\n')]);
		const piped = await run(['--conversation', 'yx0@1'], bytes);
		expect(piped.code).toBe(0);
		expect(piped.stdout).toBe(expected(tools, toolsRun, 1));
		const directory = mkdtempSync(join(tmpdir(), 'perscope-conversation-'));
		try {
			writeFileSync(join(directory, 'tools.ndjson.gz'), gzipSync(bytes));
			const result = await run(['--conversation', 'yx0@1', join(directory, 'tools.ndjson.gz')]);
			expect(result.code).toBe(1);
			expect(result.stdout).toBe('');
			expect(result.stderr).toContain(
				`perscope: --conversation: the messages of step 1 of run ${toolsRun} (line 25) are no longer available: a .gz keeps only its most recent lines`,
			);
		} finally {
			rmSync(directory, {recursive: true, force: true});
		}
	});

	it('reads a Claude Code transcript piped in whole as from its file (it said the messages were gone)', async () => {
		const transcript = fixturePath('claude-code/session-transcript-cc2.1.197.ndjson');
		const fromFile = await run(['--conversation', '0ccdcfe9@2', transcript]);
		expect(fromFile.code).toBe(0);
		expect(fromFile.stdout).toContain('Which notes file is longest? Use a sub-agent.');
		const piped = spawned(['--conversation', '0ccdcfe9@2'], readFileSync(transcript));
		expect(piped.code).toBe(0);
		expect(piped.stdout).toBe(fromFile.stdout);
	});

	it('names the candidates of an unknown or ambiguous run, and the steps of a missing step, with exit code 2', () => {
		const delegate = fixturePath('real/delegate.ndjson');
		const unknown = spawned(['--conversation', 'zz', delegate]);
		expect(unknown).toMatchObject({code: 2, stdout: ''});
		expect(unknown.stderr).toBe(
			'perscope: --conversation: no run id starts with "zz"; runs: p8bixwhzqxnvtac1rfy8lxyg (coordinator), mycc7mg8nbsgxciteyvrtyci (child-expert), phfj4550f6ktpfohvq5u9cht (coordinator)\n',
		);
		const ambiguous = spawned(['--conversation', 'p', delegate]);
		expect(ambiguous.code).toBe(2);
		expect(ambiguous.stderr).toBe(
			'perscope: --conversation: "p" starts 2 run ids: p8bixwhzqxnvtac1rfy8lxyg (coordinator), phfj4550f6ktpfohvq5u9cht (coordinator); give more of the id\n',
		);
		const missing = spawned(['--conversation', 'mycc@9', delegate]);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toBe('perscope: --conversation: run mycc7mg8nbsgxciteyvrtyci (child-expert) has no step 9 with messages; its steps: 2, 3, 4\n');
	});

	it('refuses a bad RUN@STEP and modes it cannot go with, as usage errors', () => {
		expect(spawned(['--conversation', 'abc@x', fixturePath(tools)])).toMatchObject({
			code: 2,
			stderr: 'perscope: --conversation: the step after "@" must be a whole number, as in abc@12 (see perscope --help)\n',
		});
		expect(spawned(['--conversation', '@3', fixturePath(tools)]).code).toBe(2);
		expect(spawned(['--conversation', 'abc', '--summary', fixturePath(tools)])).toMatchObject({
			code: 2,
			stderr: "perscope: --conversation prints one step's conversation; it cannot be combined with --summary (see perscope --help)\n",
		});
	});

	it('writes nothing a terminal would act on, whatever the messages hold', async () => {
		const result = await run(['--conversation', 'run-'], Buffer.from(hostileConversationLines().join('\n') + '\n'));
		expect(result.code).toBe(0);
		expect(unsafeForTerminal.test(result.stdout), describeUnsafe(result.stdout)).toBe(false);
		// Shown, not dropped: what the agent wrote stays readable.
		expect(result.stdout).toContain('<thinking>␛[31mRED');
		expect(result.stdout).toContain('<argValue>\\u001b[31mRED');
		expect(result.stdout).toContain('+       "script": |');
	});
});

describe('--conversation reading a pipe that goes on', () => {
	it('removes its copy of the pipe when a signal ends it (it was left in the temporary folder)', async () => {
		const temporary = mkdtempSync(join(tmpdir(), 'perscope-conversation-signal-'));
		try {
			const child = spawn(process.execPath, [cliPath, '--conversation', 'yx0@1'], {
				cwd: repoRoot,
				env: {...process.env, CI: 'true', TMPDIR: temporary},
				stdio: ['pipe', 'ignore', 'ignore'],
			});
			child.stdin.write(readFileSync(fixturePath(tools)));
			const spooled = () => readdirSync(temporary).some(name => name.startsWith('perscope-spool-'));
			const deadline = Date.now() + 8000;
			while (!spooled() && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20));
			expect(spooled()).toBe(true);
			const ended = new Promise<NodeJS.Signals | null>(resolve => child.on('exit', (_code, signal) => resolve(signal)));
			child.kill('SIGTERM');
			expect(await ended).toBe('SIGTERM');
			expect(readdirSync(temporary)).toEqual([]);
		} finally {
			rmSync(temporary, {recursive: true, force: true});
		}
	});
});
