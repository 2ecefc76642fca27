import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {startCli, waitUntil, type CliRun} from '../helpers/cli-process.js';
import {hasTmux, shellQuote, TmuxSession} from '../e2e/tmux.js';

/*
 * `perscope -- COMMAND` with commands that do not behave: one that ignores Ctrl-C (and SIGTERM), one that leaves
 * something behind that goes on writing to its output, or holds it open and never writes. Each command is a small
 * shell script made here; each is run by the real, built CLI.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-commands-'));
/**
 * Process groups the scripts started, ended after each test whatever its outcome. The tests that run side by side
 * note theirs only once their run has exited: ending them then cannot cut another test short.
 */
const groups: number[] = [];
afterEach(() => {
	for (const group of groups.splice(0)) {
		try {
			process.kill(-group, 'SIGKILL');
		} catch {
			// Gone already, as it should be.
		}
	}
});
afterAll(() => rmSync(dir, {recursive: true, force: true}));

function event(text: string, id: string): string {
	return JSON.stringify({
		type: 'startRun',
		id,
		expertKey: 'agent',
		timestamp: 1,
		jobId: 'job',
		runId: `run-${id}`,
		stepNumber: 1,
		initialCheckpoint: {status: 'init', stepNumber: 1},
		inputMessages: [{type: 'userMessage', contents: [{type: 'textPart', text}]}],
	});
}

/** A shell script that says its process group on stderr (`group N`), then does `body`. */
function script(name: string, body: string): string {
	const path = join(dir, name);
	writeFileSync(path, `echo "group $$" >&2\n${body}\n`);
	return path;
}

function groupOf(run: CliRun): number {
	const group = Number(/group (\d+)/.exec(run.stderr())?.[1]);
	if (Number.isInteger(group)) groups.push(group);
	return group;
}

/**
 * Whether every process of the group has ended. A process that has exited stays a zombie until it is reaped, and
 * signal 0 still finds it: once perscope is gone, its orphans are reaped by init when it gets round to it (here a
 * second or more later). On Linux a zombie counts as ended.
 */
function isGone(group: number): boolean {
	try {
		process.kill(-group, 0);
	} catch {
		return true;
	}

	if (!existsSync('/proc/self/stat')) return false;
	for (const pid of readdirSync('/proc')) {
		if (!/^\d+$/.test(pid)) continue;
		let stat: string;
		try {
			stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		} catch {
			continue;
		}

		// `pid (name) state ppid pgrp …`: the name may hold spaces and parentheses, so read from its last `)`.
		const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(pgrp) === group && state !== 'Z') return false;
	}

	return true;
}

const ignoresInterrupt = `trap '' INT\nprintf '%s\\n' '${event('first query', 'e1')}'\nwhile :; do sleep 0.1; done`;
// It says `trapped` once it ignores them: `--summary` prints no event to wait for, and the group is said before the trap.
const ignoresInterruptAndTerm = `trap '' INT TERM\necho trapped >&2\nprintf '%s\\n' '${event('first query', 'e1')}'\nwhile :; do sleep 0.1; done`;

async function started(path: string, args: string[] = ['--print']): Promise<{run: CliRun; group: number}> {
	const run = startCli([...args, '--', 'sh', path]);
	await waitUntil(
		() => run.stdout().includes('first query') || (args.includes('--summary') && run.stderr().includes('trapped')),
		'the first event',
		() => run.stdout() + run.stderr(),
	);
	const group = groupOf(run);
	// The trap is set before the event is printed: the command now ignores what it ignores.
	return {run, group};
}

describe('regressions: headless -- COMMAND and signals', () => {
	it('a command that ignores SIGINT: one SIGINT never stopped perscope; now it stops at once, 130, the command ended', async () => {
		const {run, group} = await started(script('ignores-int.sh', ignoresInterrupt));
		const sentAt = Date.now();
		run.child.kill('SIGINT');
		expect(await run.exit).toEqual({code: 130, signal: null});
		expect(Date.now() - sentAt).toBeLessThan(3000);
		expect(run.stdout()).toContain('[agent] 💬 query first query');
		await waitUntil(() => isGone(group), 'the command to be gone');
	});

	it('a command that ignores SIGINT and SIGTERM: SIGTERM took 3 s and exited 137; now 143 at once, the command ended', async () => {
		const {run, group} = await started(script('ignores-int-term.sh', ignoresInterruptAndTerm), ['--summary']);
		const sentAt = Date.now();
		run.child.kill('SIGTERM');
		expect(await run.exit).toEqual({code: 143, signal: null});
		expect(Date.now() - sentAt).toBeLessThan(2500);
		await waitUntil(() => isGone(group), 'the command to be gone');
	});

	it('SIGHUP ends perscope with 129 and ends the command, which used to outlive it', async () => {
		const {run, group} = await started(script('ignores-int-hup.sh', ignoresInterrupt));
		run.child.kill('SIGHUP');
		expect(await run.exit).toEqual({code: 129, signal: null});
		await waitUntil(() => isGone(group), 'the command to be gone');
	});

	it('a second SIGINT stops it all at once', async () => {
		const {run, group} = await started(script('ignores-int-twice.sh', ignoresInterruptAndTerm));
		const sentAt = Date.now();
		run.child.kill('SIGINT');
		await new Promise(resolve => setTimeout(resolve, 100));
		run.child.kill('SIGINT');
		expect(await run.exit).toEqual({code: 130, signal: null});
		expect(Date.now() - sentAt).toBeLessThan(2000);
		await waitUntil(() => isGone(group), 'the command to be gone');
	});
});

describe('headless -- COMMAND and signals, as before', () => {
	it('a command that ends on SIGINT with a code of its own gives that code, as a shell reports it', async () => {
		const {run} = await started(script('exits-3.sh', `trap 'exit 3' INT\nprintf '%s\\n' '${event('first query', 'e1')}'\nwhile :; do sleep 0.1; done`));
		run.child.kill('SIGINT');
		expect(await run.exit).toEqual({code: 3, signal: null});
	});
});

/*
 * These wait on the command's output (a late writer, the idle bound), not on perscope's timing: they run side by
 * side, each asserting through the `expect` it is given.
 */
describe.concurrent('regressions: output written after the command exits', () => {
	it('events a grandchild wrote more than ~1 s after the command exited were dropped without a word: they are read, and stderr says the output was still open', async ({
		expect,
	}) => {
		const path = script(
			'leaves-a-writer.sh',
			`printf '%s\\n' '${event('first query', 'e1')}'\n( sleep 2.5; printf '%s\\n' '${event('late query', 'e2')}' ) &\nexit 0`,
		);
		const run = startCli(['--print', '--', 'sh', path]);
		expect(await run.exit).toEqual({code: 0, signal: null});
		groupOf(run);
		expect(run.stdout()).toContain('[agent] 💬 query first query');
		// Both runs of `agent` stand open at once, so --print tells them apart by a short run id.
		expect(run.stdout()).toMatch(/\[agent(·run-e2)?\] 💬 query late query/);
		expect(run.stderr()).toContain(
			`perscope: sh ${path} exited, but its output is still open (something it started holds it): reading until it closes (or 30 s pass without any); Ctrl-C stops\n`,
		);
	}, 15_000);

	it('an output held open by something that never writes is read no further after the idle bound, which is said', async ({expect}) => {
		const path = script('leaves-a-holder.sh', `printf '%s\\n' '${event('first query', 'e1')}'\nsleep 60 &\nexit 0`);
		const run = startCli(['--summary', '--json', '--', 'sh', path], {env: {PERSCOPE_OUTPUT_OPEN_MS: '2000'}, tuned: true});
		const exit = await run.exit;
		groupOf(run);
		expect(exit).toEqual({code: 0, signal: null});
		const summary = JSON.parse(run.stdout()) as {events: number; diagnostics: Array<{line: number; source: string; reason: string}>};
		expect(summary.events).toBe(1);
		expect(summary.diagnostics).toEqual([
			{
				line: 0,
				source: `sh ${path}`,
				reason: `sh ${path} exited, and its output stayed open with nothing more for 2 s (something it started holds it): not read further`,
			},
		]);
	}, 15_000);
});

describe.skipIf(!hasTmux()).concurrent('regressions: output written after the command exits, in the viewer', () => {
	it('the header says the command exited while its output is still open, and the late event arrives', async ({expect, onTestFinished}) => {
		const path = script(
			'leaves-a-writer-viewer.sh',
			`printf '%s\\n' '${event('first query', 'e1')}'\n( sleep 2.5; printf '%s\\n' '${event('late query', 'e2')}' ) &\nexit 0`,
		);
		const tty = TmuxSession.start(`node dist/bin/perscope.js -- sh ${shellQuote(path)}`, {width: 160});
		// Its own hook: vitest's afterEach, or its global onTestFinished, would end it with a test beside it.
		onTestFinished(() => tty.kill());
		await tty.waitFor('exited 0 · output still open');
		const late = await tty.waitFor('late query', 8000);
		expect(late).toContain('first query');
		await tty.waitFor(screen => !screen.includes('output still open'));
		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
	});
});
