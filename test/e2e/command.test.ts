import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, sessionsKilledAfterEach, shellQuote} from './tmux.js';

/*
 * `perscope -- COMMAND` in the viewer, in a real terminal, as README's Inputs table says it behaves: Ctrl-C goes
 * to the command first and the viewer stays; a second Ctrl-C stops it (SIGTERM, SIGKILL 3 s later) and quits;
 * `q` asks first while the command runs; perscope exits with the command's code. The command is a stand-in
 * that writes a real log, then stays, saying on stderr (the viewer's strip) which signals it got.
 */

const start = sessionsKilledAfterEach();
const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-command-'));
/** The commands started, so that one a failing test left running is not left behind. */
const pids: number[] = [];
afterAll(() => {
	for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
	rmSync(dir, {recursive: true, force: true});
});

const confirm = 'The command is still running. Stop it and quit? (y / n)';

function command(name: string, args: string[]): string {
	const pidFile = join(dir, `${name}.pid`);
	return `node dist/bin/perscope.js -- node test/e2e/fixtures/stubborn-command.mjs fixtures/real/simple.ndjson ${[pidFile, ...args].map(shellQuote).join(' ')}`;
}

/** Whether the process is still there: a zombie (exited, not yet reaped) is not. */
function alive(pid: number): boolean {
	try {
		return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
	} catch {
		return false;
	}
}

describe.skipIf(!hasTmux())('perscope -- COMMAND in the viewer', () => {
	it('Ctrl-C interrupts the command and the viewer stays; a second one stops it, SIGKILL 3 s after a SIGTERM it ignores', async () => {
		const tty = start(command('stubborn', ['stay', 'stay']), {width: 100, height: 30});
		await tty.waitFor(now => now.includes('✅ complete The capital of France is Paris') && now.includes('stubborn: all lines written'));
		const pid = Number(readFileSync(join(dir, 'stubborn.pid'), 'utf8'));
		pids.push(pid);
		tty.keys('C-c');
		// The command heard it, and the viewer is still there to show that it did.
		const screen = await tty.waitFor('stubborn: got SIGINT, staying');
		expect(screen).toContain('✅ complete The capital of France is Paris');
		expect(screen).not.toContain('__EXIT=');
		expect(alive(pid)).toBe(true);
		const second = Date.now();
		tty.keys('C-c');
		// SIGTERM is ignored: SIGKILL follows 3 s later, and perscope exits with the command's 128 + 9.
		expect(await tty.exitCode(10_000)).toBe(137);
		expect(Date.now() - second).toBeGreaterThanOrEqual(2900);
		expect(alive(pid)).toBe(false);
	});

	it('q asks before stopping a running command (n keeps it); once it has exited, q quits with its exit code', async () => {
		const gate = join(dir, 'exit-now');
		const tty = start(command('exits', ['', '', gate, '3']), {width: 100, height: 30});
		await tty.waitFor(now => now.includes('✅ complete The capital of France is Paris') && now.includes('· live'));
		pids.push(Number(readFileSync(join(dir, 'exits.pid'), 'utf8')));
		tty.keys('q');
		await tty.waitFor(confirm);
		tty.keys('n');
		const kept = await tty.waitFor(now => !now.includes(confirm));
		expect(kept).toContain('✅ complete The capital of France is Paris');
		expect(kept).not.toContain('__EXIT=');
		// The command exits 3 of itself: the viewer stays, saying so, and q no longer asks.
		writeFileSync(gate, '');
		await tty.waitFor('exited 3');
		tty.keys('q');
		expect(await tty.exitCode()).toBe(3);
	});

	it('regression: the command ends while q’s question is open: perscope quits with its exit code, without another key', async () => {
		const gate = join(dir, 'exit-while-asked');
		const tty = start(command('asked', ['', '', gate, '4']), {width: 100, height: 30});
		await tty.waitFor(now => now.includes('✅ complete The capital of France is Paris') && now.includes('· live'));
		pids.push(Number(readFileSync(join(dir, 'asked.pid'), 'utf8')));
		tty.keys('q');
		await tty.waitFor(confirm);
		writeFileSync(gate, '');
		expect(await tty.exitCode()).toBe(4);
	});
});
