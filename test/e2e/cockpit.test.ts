import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, repoRoot, selectUp, sessionsKilledAfterEach, shellQuote, type TmuxSession} from './tmux.js';

/*
 * The cockpit (#32 §1): answer a question, resume from a checkpoint, stop the command, copy the command, from the
 * viewer in a real terminal. `perstack` is not installed here: a stand-in on PATH (fixtures/fake-perstack) checks
 * the exact arguments of each call and replays the runtime's own recording of what that call wrote (the released
 * CLI's ask-* and followup-* logs).
 */

const start = sessionsKilledAfterEach();
const scratch = mkdtempSync(join(tmpdir(), 'perscope-e2e-cockpit-'));
afterAll(() => rmSync(scratch, {recursive: true, force: true}));

const fakeBin = join(repoRoot, 'test/e2e/fixtures/fake-perstack');
const cli = join(repoRoot, 'dist/bin/perscope.js');
const released = (name: string) => join(repoRoot, 'fixtures/released', name);
const read = (name: string) => readFileSync(released(name), 'utf8');

const askJob = 'u8jukugruaeybwo2r4atgbbp';
/** The JSON answer the stopped step needs (it read a file before it asked), naming the question's call, as ask-2-followup has it. */
const jsonAnswer = (text: string) => JSON.stringify({toolCallId: 'toolu_mockjvrse00003', toolName: 'askUser', skillName: 'user-input', text});

type Call = {expect: string[]; replay: string; cwd?: string; exit?: number; holdMs?: number; paceMs?: number; jobDirectory?: string};

let workspaces = 0;
/** A directory to run in, with the saved log of a job asked a question and, unless `bare`, the job's directory as Perstack keeps it. */
function workspace(options: {bare?: boolean; calls?: Call[]} = {}): {dir: string; script: string; calls: () => Array<{args: string[]; cwd: string}>} {
	const dir = join(scratch, `ws${++workspaces}`);
	mkdirSync(dir);
	if (!options.bare) mkdirSync(join(dir, 'perstack', 'jobs', askJob), {recursive: true});
	writeFileSync(join(dir, 'asked.ndjson'), read('ask-1.ndjson') + read('ask-2-followup.ndjson'));
	const script = join(dir, 'script.json');
	writeFileSync(script, JSON.stringify(options.calls ?? []));
	return {
		dir,
		script,
		calls() {
			try {
				return readFileSync(`${script}.calls`, 'utf8')
					.split('\n')
					.filter(Boolean)
					.map(line => JSON.parse(line) as {args: string[]; cwd: string});
			} catch {
				return [];
			}
		},
	};
}

/** perscope in `dir`, with the stand-in first on PATH (or no perstack at all). */
function viewer(dir: string, script: string, args: string, options: {perstackOnPath?: boolean; width?: number; height?: number} = {}): TmuxSession {
	const path = options.perstackOnPath === false ? '/usr/bin:/bin' : `${fakeBin}:${process.env.PATH ?? ''}`;
	return start(
		`cd ${shellQuote(dir)} && PATH=${shellQuote(path)} FAKE_PERSTACK_SCRIPT=${shellQuote(script)} ${shellQuote(process.execPath)} ${shellQuote(cli)} ${args}`,
		{width: options.width ?? 110, height: options.height ?? 30},
	);
}

const waitingRow = /🙋 ask askUser Which colour/;

describe.skipIf(!hasTmux())('#32 §1 the cockpit', () => {
	it('a answers a saved log’s question: the prompt, the exact command to confirm, the job continued in the same pane, run in the job’s workspace', async () => {
		const ws = workspace();
		writeFileSync(
			ws.script,
			JSON.stringify([
				{
					expect: ['run', '--runtime', 'local', 'helper', jsonAnswer('Blue'), '--continue-job', askJob, '-i'],
					cwd: ws.dir,
					replay: released('ask-3-answer-json.ndjson'),
				},
			] satisfies Call[]),
		);
		const tty = viewer(ws.dir, ws.script, 'asked.ndjson');
		await tty.waitFor(waitingRow);
		tty.keys('a');
		await tty.waitFor('your answer · enter shows the command to confirm');
		tty.keys('Blue', 'Enter');
		const asked = await tty.waitFor('Answer with this command?');
		// The command, every word as a shell reads it back: the JSON form, since the step read a file before it asked.
		expect(asked.replace(/│/g, '').replace(/\s+/g, ' ')).toContain(`perstack run --runtime local helper '${jsonAnswer('Blue')}' --continue-job ${askJob} -i`);
		expect(ws.calls(), 'nothing runs before the yes').toEqual([]);
		tty.keys('y');
		const done = await tty.waitFor(screen => screen.includes('✅ complete Noted your colour choice') && /^perscope · ✓ completed/.test(screen));
		// One pane: the waiting run went on (its question answered), not a second job.
		expect(done.match(/▾ helper/g)).toHaveLength(2);
		expect(done).toContain('🙋 ask askUser Which colour should the note use? ↩');
		expect(ws.calls()).toEqual([{args: ['run', '--runtime', 'local', 'helper', jsonAnswer('Blue'), '--continue-job', askJob, '-i'], cwd: ws.dir}]);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('a on a run perscope started: the continuation keeps its program and options (--runtime local), and its exit code is perscope’s', async () => {
		const ws = workspace({bare: true});
		const query = 'Now set the colour in the note; ask me which. [[q:ask]]';
		writeFileSync(
			ws.script,
			JSON.stringify([
				{expect: ['run', '--runtime', 'local', 'helper', query], replay: join(ws.dir, 'asked.ndjson'), paceMs: 5},
				{
					expect: ['run', '--runtime', 'local', 'helper', jsonAnswer('Red'), '--continue-job', askJob, '-i'],
					replay: released('ask-3-answer-json.ndjson'),
					exit: 3,
				},
			] satisfies Call[]),
		);
		const tty = viewer(ws.dir, ws.script, `-- perstack run --runtime local helper ${shellQuote(query)}`);
		await tty.waitFor(screen => waitingRow.test(screen) && screen.includes('exited 0'));
		tty.keys('a');
		await tty.waitFor('your answer');
		tty.keys('Red', 'Enter');
		await tty.waitFor('Answer with this command?');
		tty.keys('y');
		await tty.waitFor(screen => screen.includes('Noted your colour choice') && screen.includes('exited 3'));
		expect(ws.calls().map(call => call.args)).toEqual([
			['run', '--runtime', 'local', 'helper', query],
			['run', '--runtime', 'local', 'helper', jsonAnswer('Red'), '--continue-job', askJob, '-i'],
		]);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(3);
	});

	it('says what is missing: no perstack on PATH, or not the job’s workspace; nothing runs', async () => {
		const noProgram = workspace();
		const tty = viewer(noProgram.dir, noProgram.script, 'asked.ndjson', {perstackOnPath: false});
		await tty.waitFor(waitingRow);
		tty.keys('a');
		await tty.waitFor('cannot answer from here: perstack: command not found on PATH · y copies the command');
		const elsewhere = workspace({bare: true});
		const second = viewer(elsewhere.dir, elsewhere.script, 'asked.ndjson');
		await second.waitFor(waitingRow);
		second.keys('a');
		await second.waitFor(`perstack keeps this job in perstack/jobs/${askJob}`);
		expect(second.screen()).not.toContain('enter shows the command to confirm');
		expect([...noProgram.calls(), ...elsewhere.calls()]).toEqual([]);
	});

	it('y puts the answer command on the clipboard (OSC 52) and shows it as one unbroken line; the next key only brings the viewer back', async () => {
		const ws = workspace();
		const tty = viewer(ws.dir, ws.script, 'asked.ndjson', {width: 80, height: 24});
		// tmux takes OSC 52 from the programs it runs into its paste buffer when set-clipboard is on.
		tty.tmux('set-option', '-g', 'set-clipboard', 'on');
		await tty.waitFor(waitingRow);
		tty.keys('y');
		const command = `perstack run --runtime local helper '${jsonAnswer('<answer>')}' --continue-job ${askJob} -i`;
		await tty.waitFor('press any key to go back to the viewer');
		// Joined as the terminal wrapped it: the command is one line, longer than the screen is wide.
		const joined = tty.tmux('capture-pane', '-p', '-J', '-t', tty.name).split('\n');
		expect(joined).toContain(command);
		expect(command.length).toBeGreaterThan(80);
		expect(tty.tmux('show-buffer')).toBe(command);
		// q brings the viewer back, and does not quit it.
		tty.keys('q');
		await tty.waitFor(waitingRow);
		tty.keys('j');
		await tty.waitFor(screen => !screen.includes('press any key'));
		expect(tty.screen()).not.toContain('__EXIT=');
	});

	it('a sends a Claude Code session its next prompt: `claude -p … --resume <session>` after a yes, in the directory the session ran in, its turn joining the same job', async () => {
		// The real CLI's two processes of one session (2.1.195): a first turn, then `--resume` in a second process.
		const first = join(repoRoot, 'fixtures/claude-code/probe-resume1-cc2.1.195.ndjson');
		const second = join(repoRoot, 'fixtures/claude-code/probe-resume2-cc2.1.195.ndjson');
		const session = '81898c55-fde9-4d44-b1f5-fbd77cd4fef6';
		const dir = join(scratch, 'claude-session');
		// The session ran in a project of its own, which its init line names: claude finds the session from there.
		const project = join(dir, 'project');
		mkdirSync(project, {recursive: true});
		const saved = join(dir, 'first-turn.ndjson');
		writeFileSync(saved, readFileSync(first, 'utf8').replaceAll(/"cwd":"[^"]*"/g, JSON.stringify({cwd: project}).slice(1, -1)));
		const calls = join(dir, 'calls.ndjson');
		const fakeClaude = join(repoRoot, 'test/e2e/fixtures/fake-claude');
		const tty = start(
			`cd ${shellQuote(dir)} && PATH=${shellQuote(`${fakeClaude}:${process.env.PATH ?? ''}`)} FAKE_CLAUDE_STREAM=${shellQuote(second)} FAKE_CLAUDE_CALLS=${shellQuote(calls)} ${shellQuote(process.execPath)} ${shellQuote(cli)} ${shellQuote(saved)}`,
			{width: 110, height: 30},
		);
		await tty.waitFor('✅ complete OK');
		tty.keys('a');
		await tty.waitFor('your message to the session · enter shows the command to confirm');
		tty.keys('Say umbrella', 'Enter');
		const asked = await tty.waitFor('Send with this command?');
		expect(asked.replace(/│/g, '').replace(/\s+/g, ' ')).toContain(`claude -p 'Say umbrella' --resume ${session} --output-format stream-json --verbose`);
		expect(existsSync(calls), 'nothing runs before the yes').toBe(false);
		tty.keys('y');
		const done = await tty.waitFor(screen => screen.includes('✅ complete umbrella') && /^perscope · ✓ completed/.test(screen));
		// One job, the session's: its two turns, each a run of the main loop.
		expect(done).toContain(`job ${session.slice(0, 12)}`);
		expect(done.match(/▾ claude ✓ completed/g)).toHaveLength(2);
		expect(done).toMatch(/2 steps · tokens 6\.4k in \/ 9 out/);
		expect(
			readFileSync(calls, 'utf8')
				.trim()
				.split('\n')
				.map(line => JSON.parse(line) as unknown),
		).toEqual([{args: ['-p', 'Say umbrella', '--resume', session, '--output-format', 'stream-json', '--verbose'], cwd: project}]);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('a on a session perscope started (`perscope -- claude …`): the next prompt keeps its program and the options that say how it runs', async () => {
		const dir = join(scratch, 'claude-started');
		mkdirSync(dir);
		const calls = join(dir, 'calls.ndjson');
		const fakeClaude = join(repoRoot, 'test/e2e/fixtures/fake-claude');
		const streams = `FAKE_CLAUDE_STREAM=${shellQuote(join(repoRoot, 'fixtures/claude-code/probe-resume1-cc2.1.195.ndjson'))} FAKE_CLAUDE_RESUME_STREAM=${shellQuote(join(repoRoot, 'fixtures/claude-code/probe-resume2-cc2.1.195.ndjson'))}`;
		const started = ['-p', 'Say OK', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash,Read', '--model', 'sonnet'];
		const tty = start(
			`cd ${shellQuote(dir)} && PATH=${shellQuote(`${fakeClaude}:${process.env.PATH ?? ''}`)} ${streams} FAKE_CLAUDE_CALLS=${shellQuote(calls)} ${shellQuote(process.execPath)} ${shellQuote(cli)} -- claude ${started.map(word => shellQuote(word)).join(' ')}`,
			{width: 120, height: 30},
		);
		await tty.waitFor(screen => screen.includes('✅ complete OK') && screen.includes('exited 0'));
		tty.keys('a');
		await tty.waitFor('your message to the session');
		tty.keys('Say umbrella', 'Enter');
		const asked = await tty.waitFor('Send with this command?');
		const session = '81898c55-fde9-4d44-b1f5-fbd77cd4fef6';
		const next = ['-p', 'Say umbrella', '--resume', session, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash,Read', '--model', 'sonnet'];
		expect(asked.replace(/│/g, '').replace(/\s+/g, ' ')).toContain(
			`claude -p 'Say umbrella' --resume ${session} --output-format stream-json --verbose --allowedTools Bash,Read --model sonnet`,
		);
		tty.keys('y');
		await tty.waitFor(screen => screen.includes('✅ complete umbrella') && /^perscope · ✓ completed/.test(screen));
		expect(
			readFileSync(calls, 'utf8')
				.trim()
				.split('\n')
				.map(line => (JSON.parse(line) as {args: string[]}).args),
		).toEqual([started, next]);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});

	it('K stops the running command after a yes, and the view stays for the post-mortem', async () => {
		const ws = workspace({bare: true});
		const query = 'Now set the colour in the note; ask me which. [[q:ask]]';
		writeFileSync(
			ws.script,
			JSON.stringify([{expect: ['run', 'helper', query], replay: join(ws.dir, 'asked.ndjson'), paceMs: 5, holdMs: 60_000}] satisfies Call[]),
		);
		const tty = viewer(ws.dir, ws.script, `-- perstack run helper ${shellQuote(query)}`);
		await tty.waitFor(waitingRow);
		tty.keys('K');
		await tty.waitFor('Stop the running command (SIGTERM)? The view stays.');
		tty.keys('n');
		await tty.waitFor('the command runs on');
		tty.keys('K');
		await tty.waitFor('Stop the running command');
		tty.keys('y');
		const stopped = await tty.waitFor('exited 143', 10_000);
		expect(stopped).toMatch(waitingRow);
		tty.keys('q');
		expect(await tty.exitCode()).toBe(143);
	});

	it('R in the inspector resumes the coordinator from the step’s checkpoint, after a yes', async () => {
		const ws = workspace({bare: true});
		const job = 'nh97zzzwnx6y4a76u4s8o5m3';
		mkdirSync(join(ws.dir, 'perstack', 'jobs', job), {recursive: true});
		writeFileSync(join(ws.dir, 'followup.ndjson'), read('followup-1.ndjson'));
		// Step 1's checkpoint (continueToNextStep of followup-1); the query is initializeRuntime's, and so is the
		// runtime the job ran in (local: the released CLI would run it in Docker otherwise).
		const resume = [
			'run',
			'--runtime',
			'local',
			'helper',
			'Write a greeting to hello.txt.',
			'--continue-job',
			job,
			'--resume-from',
			'k0e86wazx5cb5c62uak16x3w',
		];
		// The runtime's own recording of the job carried on (a follow-up of the same job) stands for what it writes.
		writeFileSync(ws.script, JSON.stringify([{expect: resume, cwd: ws.dir, replay: released('followup-2-continue.ndjson')}] satisfies Call[]));
		const tty = viewer(ws.dir, ws.script, 'followup.ndjson');
		await tty.waitFor('✅ complete');
		await selectUp(tty, '✏️ write hello.txt');
		tty.keys('Enter');
		await tty.waitFor('esc close');
		tty.keys('R');
		const asked = await tty.waitFor('Resume with this command?');
		expect(asked.replace(/│/g, '').replace(/\s+/g, ' ')).toContain(
			`perstack run --runtime local helper 'Write a greeting to hello.txt.' --continue-job ${job} --resume-from k0e86wazx5cb5c62uak16x3w`,
		);
		tty.keys('y');
		await tty.waitFor(() => ws.calls().length === 1);
		expect(ws.calls()[0]).toEqual({args: resume, cwd: ws.dir});
		tty.keys('Escape');
		// The job goes on in the same view: the continuation's query and its end are there, and the command's exit.
		await tty.waitFor(screen => screen.includes('Add a goodbye line and read it back.') && screen.includes('exited 0'));
		// The timeline offers the same from its rows: R on step 1 asks to resume from its checkpoint.
		tty.keys('t');
		await tty.waitFor('t/esc back');
		// The cursor starts on the pane's row, where R says to move to a step; step 1 is the next row.
		tty.keys('g', 'R');
		await tty.waitFor('R resumes from a step: move to one of its rows');
		tty.keys('j');
		await tty.waitFor(/^›\s+step 1 /m);
		tty.keys('R');
		const fromTimeline = await tty.waitFor('Resume with this command?');
		expect(fromTimeline.replace(/│/g, '').replace(/\s+/g, ' ')).toContain('--resume-from k0e86wazx5cb5c62uak16x3w');
		tty.keys('n');
		await tty.waitFor('nothing was run');
		expect(ws.calls()).toHaveLength(1);
	});

	it('R on a job directory runs in the job’s workspace, wherever perscope was started', async () => {
		const ws = workspace({bare: true});
		const job = 'nh97zzzwnx6y4a76u4s8o5m3';
		const jobDirectory = join(ws.dir, 'perstack', 'jobs', job);
		cpSync(released('jobdir-followup'), jobDirectory, {recursive: true});
		const resume = ['run', 'helper', 'Write a greeting to hello.txt.', '--continue-job', job, '--resume-from', 'k0e86wazx5cb5c62uak16x3w'];
		writeFileSync(ws.script, JSON.stringify([{expect: resume, cwd: ws.dir, replay: released('followup-2-continue.ndjson')}] satisfies Call[]));
		// Started from the scratch directory, which holds no perstack/jobs of its own.
		const tty = viewer(scratch, ws.script, shellQuote(jobDirectory));
		await tty.waitFor('✅ complete');
		await selectUp(tty, '✏️ write hello.txt');
		tty.keys('Enter');
		await tty.waitFor('esc close');
		tty.keys('R');
		await tty.waitFor('Resume with this command?');
		tty.keys('y');
		await tty.waitFor(() => ws.calls().length === 1);
		expect(ws.calls()[0]).toEqual({args: resume, cwd: ws.dir});
	});

	it('a on a followed job directory: the continuation’s events came twice (the directory and the command’s output), each repeat a diagnostic; they are read once', async () => {
		const ws = workspace();
		const jobDirectory = join(ws.dir, 'perstack', 'jobs', askJob);
		// The job directory as the runtime keeps it: a file for each run event of the two calls that asked.
		for (const line of (read('ask-1.ndjson') + read('ask-2-followup.ndjson')).split('\n').filter(Boolean)) {
			const event = JSON.parse(line) as {type: string; runId: string; timestamp: number; stepNumber?: number; expertKey?: string};
			if (event.expertKey === undefined) continue;
			mkdirSync(join(jobDirectory, 'runs', event.runId), {recursive: true});
			writeFileSync(join(jobDirectory, 'runs', event.runId, `event-${event.timestamp}-${event.stepNumber}-${event.type}.json`), line);
		}

		const answer = ['run', 'helper', jsonAnswer('Blue'), '--continue-job', askJob, '-i'];
		writeFileSync(ws.script, JSON.stringify([{expect: answer, cwd: ws.dir, replay: released('ask-3-answer-json.ndjson'), jobDirectory}] satisfies Call[]));
		const tty = viewer(ws.dir, ws.script, `-f ${shellQuote(jobDirectory)}`);
		await tty.waitFor(waitingRow);
		tty.keys('a');
		await tty.waitFor('your answer · enter shows the command to confirm');
		tty.keys('Blue', 'Enter');
		await tty.waitFor('Answer with this command?');
		tty.keys('y');
		await tty.waitFor(screen => screen.includes('✅ complete Noted your colour choice') && /^perscope · ✓ completed/.test(screen));
		expect(ws.calls()).toEqual([{args: answer, cwd: ws.dir}]);
		// The directory's files are read in the order of their times: once a later run's start written there shows,
		// the continuation's files there have been read too.
		const start = JSON.parse(
			read('ask-1.ndjson')
				.split('\n')
				.find(line => line.includes('"type":"startRun"'))!,
		) as Record<string, unknown>;
		const later = {...start, id: 'laterstartevent', runId: 'laterrun', timestamp: 1_895_771_300_000};
		mkdirSync(join(jobDirectory, 'runs', 'laterrun'));
		writeFileSync(join(jobDirectory, 'runs', 'laterrun', `event-${later.timestamp}-1-startRun.json`), JSON.stringify(later));
		const settled = await tty.waitFor(screen => screen.match(/💬 query Write a note to notes.txt./g)?.length === 2);
		expect(settled).not.toContain('bad lines');
		expect(settled.match(/✅ complete Noted your colour choice/g)).toHaveLength(1);
		tty.keys('q');
	});
});
