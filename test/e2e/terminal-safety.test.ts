import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {hostileLines} from '../safety/hostile-log.js';
import {hasTmux, shellQuote, TmuxSession} from './tmux.js';

/*
 * The interactive viewer in a real terminal, fed a log whose every string tries to take the terminal over
 * (colours, cursor moves, screen clears, window title, clipboard, hyperlinks, DCS, C1 controls, bidi). The
 * terminal itself is the judge: tmux records every byte the viewer writes, keeps the pane title an OSC
 * would set, and stores what an OSC 52 would copy. Signals that end the viewer must leave the terminal as
 * they found it.
 */

const dir = mkdtempSync(join(tmpdir(), 'perscope-e2e-safety-'));
const hostileLog = join(dir, 'hostile.ndjson');
writeFileSync(hostileLog, hostileLines().join('\n') + '\n');

const sessions: TmuxSession[] = [];
afterEach(() => {
	for (const session of sessions.splice(0)) session.kill();
});
afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

/**
 * Starts `command` in a terminal that records everything written to it into `capture`. The command waits
 * for Enter, so the recording is in place before the viewer writes its first byte.
 */
async function startRecorded(command: string, capture: string): Promise<TmuxSession> {
	const tty = TmuxSession.start(`read _ && ${command}`, {width: 120, height: 40, env: {NO_COLOR: '1'}});
	sessions.push(tty);
	// Let OSC 52 reach tmux's own buffers, and OSC 0/2 its pane title, as they would in a user's tmux.
	tty.tmux('set-option', '-g', 'set-clipboard', 'on');
	writeFileSync(capture, '');
	tty.tmux('pipe-pane', '-t', tty.name, '-o', `cat >> ${shellQuote(capture)}`);
	await tty.waitFor('BEFORE-PERSCOPE');
	tty.keys('Enter');
	return tty;
}

/** Control sequences and characters a terminal acts on that perscope itself never writes. */
const forbidden: Array<[string, RegExp]> = [
	['OSC (title, clipboard, hyperlink)', /\u001B\]/],
	['DCS', /\u001BP/],
	['C1 control', /[\u0080-\u009F]/],
	['BEL', /\u0007/],
	['backspace', /\u0008/],
	['bidi override or isolate', /[\u202A-\u202E\u2066-\u2069]/],
	// The attack's own CSI sequences, as they would appear if its text were written raw.
	['the attack’s colour', /\u001B\[31mRED/],
	['the attack’s clear and cursor moves', /RED\u001B\[0m\u001B\[2J|\u001B\[10;10H|\u001B\[A/],
];

async function selectedRow(tty: TmuxSession): Promise<string> {
	return (await tty.waitFor(screen => screen.split('\n').some(line => line.startsWith('›')))).split('\n').find(line => line.startsWith('›')) ?? '';
}

describe.skipIf(!hasTmux())('a log that tries to take over the terminal', () => {
	it('is drawn inert in the tree, the inspector and every overlay: no title, no clipboard, no raw escape reaches the terminal', async () => {
		const capture = join(dir, 'hostile.out');
		const tty = await startRecorded(`cat ${shellQuote(hostileLog)} | node dist/bin/perscope.js`, capture);
		const titleBefore = tty.tmux('display-message', '-p', '-t', tty.name, '#{pane_title}').trim();

		await tty.waitFor('ended', 10_000);
		tty.keys('e');
		// The escapes are on screen as visible symbols, so the hostile text was really drawn.
		await tty.waitFor('␛[31mRED');

		// Every activity's inspector, scrolled to its end (the raw event).
		tty.keys('g');
		await tty.waitFor(screen => screen.split('\n').some(line => /^›\s*[▾▸] job /.test(line)));
		let inspected = 0;
		for (let row = 0; row < 60; row++) {
			const selected = await selectedRow(tty);
			// Pane and job headers fold; streaming text rows belong to their pane.
			if (!/^›\s*([▾▸┆│]|job )/.test(selected)) {
				tty.keys('Enter');
				await tty.waitFor('Inspector');
				tty.keys('G');
				// Scrolled to its last line ("62–94 of 94"): the raw event has been drawn.
				await tty.waitFor(/–(\d+) of \1\b/);
				tty.keys('Escape');
				await tty.waitFor(screen => !screen.includes('Inspector'));
				inspected++;
			}

			const before = tty.screen();
			tty.keys('j');
			// At the last row, j changes nothing: the walk is over.
			const moved = await tty
				.waitFor(screen => screen !== before, 1000)
				.then(
					() => true,
					() => false,
				);
			if (!moved) break;
		}

		expect(inspected).toBeGreaterThan(10);

		for (const [key, title] of [
			['?', 'Help'],
			['d', 'Diagnostics (3 bad lines)'],
			['s', 'stderr'],
			['S', 'Skills ('],
			['u', 'Token usage per expert'],
		] as const) {
			tty.keys(key);
			await tty.waitFor(title);
			tty.keys('Escape');
			await tty.waitFor(screen => !screen.includes(title));
		}

		tty.keys('t');
		await tty.waitFor('Timeline');
		tty.keys('t');

		tty.keys('q');
		expect(await tty.exitCode()).toBe(0);
		expect(tty.screen()).toContain('BEFORE-PERSCOPE');

		const written = readFileSync(capture, 'latin1');
		// latin1 keeps one character per byte; C1 controls would arrive UTF-8 encoded (C2 80-9F).
		const decoded = Buffer.from(written, 'latin1').toString('utf8');
		expect(written.length).toBeGreaterThan(10_000);
		for (const [what, pattern] of forbidden) {
			const found = pattern.exec(decoded);
			expect(
				found,
				`${what} written to the terminal: ${JSON.stringify(decoded.slice(Math.max(0, (found?.index ?? 0) - 40), (found?.index ?? 0) + 40))}`,
			).toBeNull();
		}

		expect(tty.tmux('display-message', '-p', '-t', tty.name, '#{pane_title}').trim()).toBe(titleBefore);
		expect(tty.tmux('list-buffers')).toBe('');
	}, 60_000);
});

describe.skipIf(!hasTmux())('a signal ending the viewer', () => {
	it.each([
		['SIGTERM', 143],
		['SIGHUP', 129],
		['SIGINT', 130],
	] as const)('%s restores the screen, the cursor and the terminal mode, and exits %i', async (signal, code) => {
		const pidFile = join(dir, `${signal}.pid`);
		// Following a file never ends by itself: only the signal ends the viewer. After it, the
		// terminal's line discipline is printed, to check that raw mode was undone.
		const viewer = `sh -c ${shellQuote(`echo $$ > ${shellQuote(pidFile)}; exec node dist/bin/perscope.js --follow fixtures/real/delegate.ndjson`)}`;
		const command = `(${viewer}; s=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo; exit $s)`;
		const tty = await startRecorded(command, join(dir, `${signal}.out`));
		await tty.waitFor('child-expert');
		expect(tty.tmux('display-message', '-p', '-t', tty.name, '#{alternate_on}').trim()).toBe('1');

		process.kill(Number(readFileSync(pidFile, 'utf8').trim()), signal);
		expect(await tty.exitCode()).toBe(code);
		const after = tty.screen();
		expect(after).toContain('BEFORE-PERSCOPE');
		expect(after).not.toContain('child-expert');
		expect(after).toMatch(/(^|\s)icanon(\s|$)/m);
		expect(after).toMatch(/(^|\s)echo(\s|$)/m);
		expect(tty.tmux('display-message', '-p', '-t', tty.name, '#{alternate_on} #{cursor_flag}').trim()).toBe('0 1');
	});

	it('a SIGTERM as it starts, with events piped in, leaves no copy of the pipe behind (the copy was made before the viewer listened for signals)', async () => {
		const temporary = mkdtempSync(join(dir, 'tmp-'));
		const pidFile = join(dir, 'piped.pid');
		const viewer = `cat fixtures/real/tools.ndjson | sh -c ${shellQuote(`echo $$ > ${shellQuote(pidFile)}; exec env TMPDIR=${shellQuote(temporary)} node dist/bin/perscope.js`)}`;
		const tty = await startRecorded(viewer, join(dir, 'piped.out'));
		const spooled = () => readdirSync(temporary).some(name => name.startsWith('perscope-spool-'));
		const deadline = Date.now() + 10_000;
		while (!spooled() && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 5));
		expect(spooled()).toBe(true);
		process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
		expect(await tty.exitCode()).toBe(143);
		expect(readdirSync(temporary)).toEqual([]);
	});
});
